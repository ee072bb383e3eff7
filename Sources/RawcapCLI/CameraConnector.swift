import CameraEmulator
import Logging
import PTP
import PTPIP
import PTPRecord
import PTPUSB

/// The one place that turns `--camera` into a transport: commands call ``connect(_:)`` and get a session.
///
/// USB and `sim` (the emulated camera, in process) are implemented here; `ptpip:` (Wi-Fi) in
/// `CameraConnector+PTPIP.swift` and `replay:` (recordings) in `CameraConnector+Replay.swift`; `--record` wraps whichever
/// transport is chosen (`CameraConnector+Recording.swift`).
public enum CameraConnector {
    /// Connects to the camera `options` name.
    ///
    /// - Throws: ``PTPUSB/USBCameraError`` (no camera, several, permission, busy…), ``PTPUSB/LibUSBError``,
    ///   `TransportError` with a `PTPIPConnectFailure` (nothing at a PTP/IP address), `PcapError`/`RecordError` (a
    ///   recording that does not load, a `--record` file that cannot be created), or ``CameraFailure`` for
    ///   transports that do not exist yet.
    public static func connect(_ options: ConnectionOptions, simulatorCamera: EmulatedCamera? = nil) async throws
        -> CameraConnection
    {
        let logger = options.logger
        let configuration = PTPSession.Configuration(timeout: options.timeoutDuration)
        switch try options.oneCamera() {
        case .usb(let selector):
            let connection = try await USBCameraConnection.open(selector, logger: logger)
            if options.record != nil {
                let camera = connection.camera
                let recorder: PcapngRecorder?
                do {
                    recorder = try Self.recorder(options, cameraModel: camera.product ?? camera.displayName)
                } catch {
                    await connection.close()
                    throw error
                }
                if let recorder {
                    return try await recordedUSB(
                        connection, recorder: recorder, configuration: configuration, logger: logger)
                }
            }
            return CameraConnection(
                location: connection.camera.description, link: .usb(connection.camera),
                session: PTPSession(transport: connection.transport, configuration: configuration, logger: logger),
                close: { await connection.close() })
        case .simulator:
            // The emulated camera behind the USB device side on an in-memory pipe, driven by PTPUSBTransport:
            // the same framing code as a real USB camera.
            // A reconnect finds the body it lost (its card and settings); while that one is away (asleep,
            // switched off) there is no camera to connect to.
            let camera = try simulatorCamera ?? options.simulator.settings.makeCamera()
            guard await camera.acceptsConnection() else {
                throw CameraFailure(.noCamera, "the emulated camera is asleep or switched off")
            }
            options.simulator.settings.startPresses(camera, logger: logger)
            let link: EmulatorLink
            if let recorder = try Self.recorder(options, cameraModel: camera.model.model) {
                do {
                    link = try await EmulatorLink.usb(camera, logger: logger) { pipe in
                        try await RecordingBulkPipe.start(wrapping: pipe, recorder: recorder)
                    }
                } catch {
                    await recorder.close()
                    throw error
                }
                let recorded = link
                return CameraConnection(
                    location: "sim (\(camera.model.manufacturer) \(camera.model.model), in process)", link: .emulated,
                    session: PTPSession(transport: link.transport, configuration: configuration, logger: logger),
                    close: {
                        await recorded.close()
                        await recorder.close()
                    }, emulatedCamera: camera)
            }
            link = EmulatorLink.usb(camera, logger: logger)
            return CameraConnection(
                location: "sim (\(camera.model.manufacturer) \(camera.model.model), in process)", link: .emulated,
                session: PTPSession(transport: link.transport, configuration: configuration, logger: logger),
                close: { await link.close() }, emulatedCamera: camera)
        case .fujiPTPIP(let host, let port):
            return try await connectFujiPTPIP(
                PTPIPAddress(host: host, port: port), options, configuration: networkConfiguration(configuration),
                logger: logger)
        case .ptpip(let host, let port):
            return try await connectPTPIP(
                PTPIPAddress(host: host, port: port), options, configuration: networkConfiguration(configuration),
                logger: logger)
        case .replay(let path):
            return try await openReplay(path, options, configuration: configuration, logger: logger)
        }
    }

    /// Bytes asked for per GetPartialObject over PTP/IP. Over USB rawcap asks for 1 MiB, as libgphoto2 does; over
    /// TCP each transaction costs a round trip through both ends' schedulers, and asking for 8 MiB cut a
    /// `pull --all --original` of four 12 MB objects from `rawcap sim serve` by about a tenth (issue 7). A download
    /// still resumes at the byte it stopped at, whatever the size (``PTP/PTPSession/downloadObject(_:byteCount:into:chunkByteCount:maxAttempts:reconnect:)``).
    static let networkPartialObjectChunkByteCount: UInt32 = 8 << 20

    /// `configuration` with the PTP/IP transaction size.
    private static func networkConfiguration(_ configuration: PTPSession.Configuration) -> PTPSession.Configuration {
        var configuration = configuration
        configuration.partialObjectChunkByteCount = networkPartialObjectChunkByteCount
        return configuration
    }
}
