import ArgumentParser
import Capture
import PTPUSB

/// `--reconnect`, `--reconnect-timeout` and `--keep-alive` on `shoot` and `pull` (docs/reconnect.md).
struct ReconnectOptions: ParsableArguments {
    @Flag(
        help: """
            When the camera goes away (cable, sleep, power cycle, Wi-Fi), wait for it (by serial number) and go \
            on; frames due meanwhile are journaled as shot-missed.
            """)
    var reconnect = false

    @Option(
        help: ArgumentHelp(
            "With --reconnect: how long to wait for the camera each time, e.g. 10m (default: until Ctrl-C).",
            valueName: "duration"))
    var reconnectTimeout: String?

    @Option(
        help: ArgumentHelp(
            "During waits between frames, a cheap request this often so the camera does not sleep (default 2m; 0 for none).",
            valueName: "duration"))
    var keepAlive: String?

    /// The keep-alive period when none is given.
    static let defaultKeepAlive = Duration.seconds(120)

    /// `0` (or `0s`, `off`): no keep-alive.
    static func isOff(_ text: String) -> Bool { ["0", "0s", "0ms", "off", "none"].contains(text.lowercased()) }

    /// Checks the durations (called from the command's `validate`).
    func check() throws {
        if reconnectTimeout != nil, !reconnect {
            throw ValidationError("--reconnect-timeout needs --reconnect.")
        }
        if let reconnectTimeout {
            let value = try parse(reconnectTimeout, "--reconnect-timeout")
            guard value > .zero else { throw ValidationError("--reconnect-timeout must be positive.") }
        }
        if let keepAlive, !Self.isOff(keepAlive) { _ = try parse(keepAlive, "--keep-alive") }
    }

    private func parse(_ text: String, _ option: String) throws -> Duration {
        do {
            return try ShootPlan.parseDuration(text)
        } catch let error as CaptureError {
            throw ValidationError("\(option) \(text): \(error.detail)")
        } catch {
            throw ValidationError("\(option) \(text): give a duration such as 30s, 10m or 1h")
        }
    }

    /// The keep-alive period: `--keep-alive`, or the default when the interval is longer than it; `nil` for none.
    func keepAliveDuration(interval: Duration?) -> Duration? {
        if let keepAlive { return Self.isOff(keepAlive) ? nil : try? ShootPlan.parseDuration(keepAlive) }
        guard let interval, interval > Self.defaultKeepAlive else { return nil }
        return Self.defaultKeepAlive
    }

    /// The reconnector for a camera reached with `options` (its first connection `first`), or `nil` without
    /// `--reconnect`. Over USB it looks for the serial number on any bus address; over PTP/IP at the same host;
    /// `--camera sim` finds the same in-process body. The reconnector closes `first` (once): the command calls
    /// ``CameraReconnector/closeLinks()`` instead of `first.close`.
    func reconnector(_ options: ConnectionOptions, first: CameraConnection) -> CameraReconnector? {
        guard reconnect else { return nil }
        let timeout = reconnectTimeout.flatMap { try? ShootPlan.parseDuration($0) }
        let held = HeldOptions(options: options)
        let emulated = first.emulatedCamera
        return CameraReconnector(options: .init(timeout: timeout), closeFirstLink: first.close) { serial in
            var options = held.options
            if case .usb = options.camera, !serial.isEmpty { options.camera = .usb(.serialNumber(serial)) }
            let camera = try await CameraConnector.connect(options, simulatorCamera: emulated)
            return CameraReconnector.Link(
                session: camera.session, usbVendorID: camera.link.usbVendorID,
                usbProductID: camera.link.usbProductID, location: camera.location, close: camera.close)
        }
    }
}

/// Connection options kept for reconnects: a copy that is only read, from one task at a time.
private struct HeldOptions: @unchecked Sendable {
    let options: ConnectionOptions
}
