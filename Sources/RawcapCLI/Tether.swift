import ArgumentParser
import Capture
import DNG
import FoundationEssentials
import Logging
import PTP

extension RawcapCommand {
    /// `rawcap tether`: save every shot taken on the camera (its shutter button, a remote, its own timer) as it is
    /// announced.
    struct Tether: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Save every shot taken on the camera itself as it comes (tethered shooting).",
            discussion: """
                Waits for the shots the camera takes by itself (its shutter button, a remote, its interval timer) \
                and saves each as rawcap shoot does: a DNG (or --format, or --original), RAW+JPEG kept together \
                under one name, never overwriting, journaled in rawcap-journal.jsonl. The camera's own settings \
                decide RAW, RAW+JPEG or JPEG. Nothing is deleted from the camera unless --delete. SIGUSR1 \
                (kill -USR1 PID) shoots one frame from the host within the same session. Runs until Ctrl-C or \
                SIGTERM, --count shots, or --for a duration.
                Name placeholders as for rawcap shoot --name.
                Exit status: 0 after --count or --for; 64 bad options; 69 no camera; 73 the output folder cannot \
                be written or the camera's card is full; 74 disconnect or full disk; 76 an object that does not \
                decode; 130 interrupted (Ctrl-C); 143 terminated (SIGTERM).
                """)

        @OptionGroup var connection: ConnectionOptions

        @Option(help: "auto, linear, jpeg or tiff (bayer12/14/16 are checked against each frame; nothing is set).")
        var format: OutputFormat = .auto

        @Flag(help: "Save the camera's files exactly as it wrote them.")
        var original = false

        @Flag(help: "With RAW+JPEG on the camera, save its JPEG beside the raw file, with the same name.")
        var keepJPEG = false

        // Unconditional: `--count -1` is a count (refused with a message), not a missing value and a flag.
        @Option(parsing: .unconditional, help: "Stop after this many shots (a RAW+JPEG pair is one shot).")
        var count: Int?

        @Option(name: .customLong("for"), help: ArgumentHelp("Stop after this long: 30s, 10m, 2h.", valueName: "duration"))
        var duration: String?

        @Option(name: [.short, .long], help: ArgumentHelp("The output folder.", valueName: "dir"))
        var output = "captures"

        @Option(
            help: ArgumentHelp(
                "File name template (default \(FileNamer.defaultTemplate)); the placeholders of rawcap shoot --name.",
                valueName: "template"))
        var name: String?

        @Option(help: "DNG raw data: lossless (lossless JPEG, about half the size; the default, as for shoot) or none. A --format tiff file is Deflate with lossless.")
        var compression: CompressionChoice = .lossless

        @Flag(help: "Delete each file from the camera's card once it is safely on disk (a JPEG not saved stays).")
        var delete = false

        @Option(
            help: ArgumentHelp(
                "Run CMD after each file is on disk, with RAWCAP_FILE and more in its environment (no shell; see docs/hooks.md).",
                valueName: "CMD"))
        var exec: String?

        @Flag(help: "Print one JSON object per saved file on standard output.")
        var json = false

        @OptionGroup(title: "Reconnect")
        var reconnect: ReconnectOptions

        func validate() throws {
            if let count, !(1...1_000_000).contains(count) {
                throw ValidationError("--count \(count): give the number of shots, 1 to 1000000.")
            }
            guard !(original && (format != .auto || keepJPEG || compression == .none)) else {
                throw ValidationError(
                    "--original saves the camera's files as they are: no --format, --keep-jpeg or --compression.")
            }
            _ = try makeOptions()
            if let exec { _ = try ExecHook(exec, command: "tether") }
            try reconnect.check()
        }

        func makeOptions() throws -> TetherRunner.Options {
            let forDuration: Duration?
            do {
                forDuration = try duration.map(ShootPlan.parseDuration)
            } catch let error as CaptureError {
                throw ValidationError("--for: \(error.detail)")
            }
            do {
                return TetherRunner.Options(
                    format: format, keepJPEG: keepJPEG, original: original, compression: compression.dngCompression,
                    namer: try FileNamer(template: name ?? FileNamer.defaultTemplate), count: count,
                    duration: forDuration, deleteAfter: delete)
            } catch let error as CaptureError {
                throw ValidationError(error.detail)
            }
        }

        func run() async throws {
            let trigger = HostTrigger()
            let signals = ShootSignals(trigger: trigger)
            let progress = ShootProgress(json: json, quiet: connection.logging.quiet, tether: true)
            defer { progress.finish() }
            let hooks = try exec.map { try ExecHook($0, command: "tether") }
            do {
                _ = try connection.oneCamera()
                let options = try makeOptions()
                let store = try OutputStore(folder: output)
                let journal = try Journal(folder: store.folder)
                let camera = try await CameraConnector.connect(connection)
                let reconnector = reconnect.reconnector(connection, first: camera)
                let summary: TetherRunner.Summary
                do {
                    do {
                        try await camera.open()
                    } catch {
                        journal.recordQuietly(CaptureRunner.failureEntry(error))
                        throw error
                    }
                    var runner = TetherRunner(
                        session: camera.session, options: options, store: store, journal: journal,
                        logger: connection.logger, stop: signals.stop, trigger: trigger,
                        usbVendorID: camera.link.usbVendorID, usbProductID: camera.link.usbProductID,
                        observer: hooks?.observing(progress.handle, journal: journal) ?? progress.handle)
                    runner.reconnector = reconnector
                    // A tether waits without end: with --reconnect, a request every 2 minutes unless told otherwise.
                    runner.keepAlive =
                        reconnector == nil
                        ? reconnect.keepAliveDuration(interval: nil)
                        : reconnect.keepAliveDuration(interval: .seconds(3600))
                    summary = try await runner.run()
                } catch {
                    try? await camera.session.endSession()
                    if let reconnector { await reconnector.closeLinks() } else { await camera.close() }
                    throw error
                }
                try? await camera.session.endSession()
                if let reconnector { await reconnector.closeLinks() } else { await camera.close() }
                progress.finish()
                hooks?.finish()
                let shots = summary.bodyShots + summary.hostShots
                progress.summary(
                    "rawcap tether: \(shots) shot\(shots == 1 ? "" : "s"), \(summary.files.total) file"
                        + "\(summary.files.total == 1 ? "" : "s") in \(store.folder)")
            } catch {
                progress.finish()
                hooks?.finish()
                throw ShootFailure.report(signals.translate(error), command: "tether", json: json)
            }
        }
    }
}
