import ArgumentParser
import Capture
import DNG
import FoundationEssentials
import Logging
import PTP

#if canImport(Glibc)
    import Glibc
#endif

extension RawcapCommand {
    /// `rawcap shoot`: capture frames and save them as DNG (or TIFF, or the camera's JPEG).
    struct Shoot: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Capture frames and save them as DNG files (RAW+JPEG, brackets, intervals).",
            discussion: """
                Each shot is triggered on the camera, downloaded and written to the output folder through a \
                temporary file (fsync, then renamed; never overwriting: a suffix is added). The journal \
                rawcap-journal.jsonl in the folder records every shot requested, object announced and file \
                written; `rawcap pull --resume` fetches what an interrupted run left on the camera. Nothing is \
                deleted from the camera. Camera settings changed for the run are restored afterwards, also after \
                an error or Ctrl-C.
                Name placeholders: {date} {time} {seq} {n} {camera} {serial} {bracket}. --exec runs a program after \
                each file is on disk (docs/hooks.md).
                Exit status: 0; 64 bad options or a format the camera cannot give; 69 no camera; 73 the output \
                folder cannot be written or the camera's card is full; 74 disconnect, timeout or full disk; 75 \
                camera busy; 76 protocol error or an object that does not decode; 130 interrupted (143 on \
                SIGTERM). With --exposure, a camera with neither a shutter speed that long nor bulb exits 64 before \
                anything is fired; Ctrl-C during a bulb exposure closes the shutter first and saves that shot.
                With --reconnect a camera that goes away (cable, sleep, power cycle, Wi-Fi) is waited for and the \
                run goes on: frames that fell due meanwhile are journaled as shot-missed (docs/reconnect.md).
                """)

        @OptionGroup var connection: ConnectionOptions

        @Option(help: "auto, bayer12, bayer14, bayer16, linear, jpeg or tiff.")
        var format: OutputFormat = .auto

        // Unconditional: `--count -1` is a count (refused with a message), not a missing value and a flag.
        @Option(
            parsing: .unconditional,
            help: "Frames to shoot (brackets, with --bracket); default 1, or with --interval until Ctrl-C.")
        var count: Int?

        @Option(help: ArgumentHelp("Time between frame starts: 500ms, 5s, 2m, 1h.", valueName: "duration"))
        var interval: String?

        // Unconditional: the steps usually start with a minus sign, which would otherwise read as an option.
        @Option(
            parsing: .unconditional, help: ArgumentHelp("Exposure steps in EV, such as -2,0,+2.", valueName: "steps"))
        var bracket: String?

        @Option(
            help: ArgumentHelp(
                "Exposure time: 1/250, 2.5s, 30s, 1m30s, 240s. The camera's own shutter speed when it has one that "
                    + "long (the nearest within 1/6 stop), otherwise bulb held by rawcap for that time.",
                valueName: "duration"))
        var exposure: String?

        @Flag(help: "With --exposure: hold the shutter open in bulb even when the camera has that shutter speed.")
        var bulb = false

        @Flag(
            help: "Store each shot on the camera's card too and leave it there as a backup (where the camera can).")
        var keepOnCard = false

        @Flag(help: "Shoot RAW+JPEG and save the camera's JPEG beside the raw file, with the same name.")
        var keepJPEG = false

        @Option(name: [.short, .long], help: ArgumentHelp("The output folder.", valueName: "dir"))
        var output = "captures"

        @Option(help: ArgumentHelp("File name template (default \(FileNamer.defaultTemplate)); {date:%Y-%m-%d}, {seq}, {n}, {file}, gphoto2's %Y%m%d-%n, a/b for subfolders.", valueName: "template"))
        var name: String?

        @Option(
            help: "DNG raw data: lossless (lossless JPEG, about half the size; the default, as for pull and convert) or none. A --format tiff file is Deflate with lossless."
        )
        var compression: CompressionChoice = .lossless

        @Option(help: ArgumentHelp("Seconds a shot may take before rawcap gives up on it.", valueName: "seconds"))
        var shotTimeout: Double = 30

        @Option(
            help: ArgumentHelp(
                "Run CMD after each file is on disk, with RAWCAP_FILE and more in its environment (no shell; see docs/hooks.md).",
                valueName: "CMD"))
        var exec: String?

        @Flag(help: "Print one JSON object per saved file on standard output.")
        var json = false

        @OptionGroup(title: "Long runs")
        var reconnect: ReconnectOptions

        @Option(help: ArgumentHelp("Focus bracket: shoot this many frames, moving the focus between them.", valueName: "frames"))
        var focusBracket: Int?

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Drives of the smallest size between focus bracket frames; negative towards near.", valueName: "drives"))
        var focusStep: Int = 1

        @Option(help: ArgumentHelp("When autofocus runs in a focus bracket: once, each or off.", valueName: "when"))
        var af: String = "off"

        func validate() throws {
            try reconnect.check()
            if let focusBracket {
                guard (2...1000).contains(focusBracket) else { throw ValidationError("--focus-bracket must be 2…1000 frames") }
                guard count == nil, bracket == nil, interval == nil else {
                    throw ValidationError("--focus-bracket sets the frame count; leave out --count, --bracket and --interval")
                }
                guard focusStep != 0, abs(focusStep) <= 1000 else { throw ValidationError("--focus-step must be ±1…1000") }
            }
            guard FocusBracket.Autofocus(rawValue: af) != nil else { throw ValidationError("--af must be once, each or off") }
            if let count, !(1...1_000_000).contains(count) {
                throw ValidationError(
                    "--count \(count): give the number of frames, 1 to 1000000 (or leave --count out with --interval "
                        + "to shoot until Ctrl-C).")
            }
            if bulb, exposure == nil {
                throw ValidationError("--bulb needs --exposure DURATION (how long to hold the shutter open).")
            }
            guard shotTimeout > 0, shotTimeout <= 86400 else {
                throw ValidationError("--shot-timeout must be positive.")
            }
            do {
                _ = try makePlan()
            } catch let error as CaptureError {
                throw ValidationError(error.detail)
            }
            if let exec { _ = try ExecHook(exec, command: "shoot") }
        }

        func makePlan() throws -> ShootPlan {
            var plan = ShootPlan(
                format: format, count: focusBracket ?? count ?? (interval == nil ? 1 : ShootPlan.untilStopped),
                interval: try interval.map(ShootPlan.parseDuration),
                bracket: try bracket.map(ShootPlan.parseBracket) ?? [], keepJPEG: keepJPEG,
                compression: compression.dngCompression,
                namer: try FileNamer(template: name ?? FileNamer.defaultTemplate),
                timing: CaptureTiming(shotTimeout: .milliseconds(Int64(shotTimeout * 1000))))
            if focusBracket != nil {
                plan.focusBracket = FocusBracket(step: focusStep, autofocus: FocusBracket.Autofocus(rawValue: af) ?? .off)
            }
            plan.keepOnCard = keepOnCard
            plan.exposure = try exposure.map { ExposureRequest(duration: try ExposureRequest.parse($0), forceBulb: bulb) }
            return plan
        }

        func run() async throws {
            let signals = ShootSignals()
            let progress = ShootProgress(
                json: json, quiet: connection.logging.quiet, interval: interval.flatMap { try? ShootPlan.parseDuration($0) })
            defer { progress.finish() }
            let hooks = try exec.map { try ExecHook($0, command: "shoot") }
            let specs: [CameraSpec]
            let plan: ShootPlan
            let store: OutputStore
            do {
                specs = try await ShootCameras.resolve(connection.cameraChoices, logger: connection.logger)
                var planned = try makePlan()
                if specs.count > 1, name == nil {
                    // Several cameras: their model and serial number keep their files apart.
                    planned.namer = try FileNamer(template: "{camera}-{serial}-" + FileNamer.defaultTemplate)
                }
                plan = planned
                store = try OutputStore(folder: output)
            } catch {
                throw ShootFailure.report(error, command: "shoot", json: json)
            }
            // Connect to every camera first (options are not Sendable), then every camera shoots on the same
            // schedule; one failing does not stop the others.
            var results: [(String, Result<CaptureRunner.Summary, any Error>)] = []
            var connected: [(CameraSpec, CameraConnection, String?)] = []
            // Each connected camera's reconnector (--reconnect), in the order of `connected`.
            var reconnectors: [CameraReconnector?] = []
            var simulators = 0
            let labels = Self.labels(specs)
            for (index, spec) in specs.enumerated() {
                var options = connection
                options.camera = spec
                if spec == .simulator {
                    // Each emulated camera gets its own serial number, as real cameras have.
                    options.simulator.simSerial = connection.simulator.serial(forCameraAt: simulators)
                    simulators += 1
                }
                do {
                    let camera = try await CameraConnector.connect(options)
                    connected.append((spec, camera, labels[index]))
                    reconnectors.append(reconnect.reconnector(options, first: camera))
                } catch {
                    // The journal says why this camera's run never started (the camera went away while it was
                    // being identified, say), as it does when opening the session fails.
                    var entry = CaptureRunner.failureEntry(error)
                    entry.camera = "\(spec)"
                    (try? Journal(folder: store.folder))?.recordQuietly(entry)
                    results.append((labels[index] ?? "\(spec)", .failure(error)))
                }
            }
            let logger = connection.logger
            let stop = signals.stop
            results += await withTaskGroup(of: (String, Result<CaptureRunner.Summary, any Error>).self) { group in
                let keepAlive = reconnect.keepAliveDuration(interval: plan.interval)
                for ((spec, camera, label), reconnector) in zip(connected, reconnectors) {
                    group.addTask {
                        do {
                            let observer = progress.observer(camera: label)
                            return (
                                label ?? "\(spec)",
                                .success(
                                    try await Self.shoot(
                                        camera, plan, store, logger, stop, observer, hooks, reconnector: reconnector,
                                        keepAlive: keepAlive)))
                        } catch {
                            return (label ?? "\(spec)", .failure(error))
                        }
                    }
                }
                var collected: [(String, Result<CaptureRunner.Summary, any Error>)] = []
                for await result in group { collected.append(result) }
                return collected
            }
            progress.finish()
            hooks?.finish()
            // The summary in the order the cameras were given.
            let order = specs.indices.map { labels[$0] ?? "\(specs[$0])" }
            results.sort { (order.firstIndex(of: $0.0) ?? 0) < (order.firstIndex(of: $1.0) ?? 0) }
            var status: ExitCode?
            for (label, result) in results {
                switch result {
                case .success(let summary):
                    progress.summary(
                        "rawcap shoot: \(specs.count > 1 ? "\(label): " : "")\(summary.files.total) file"
                            + "\(summary.files.total == 1 ? "" : "s") in \(store.folder)"
                            + (summary.overruns.isEmpty ? "" : "; \(summary.overruns.total) frame(s) started late")
                            + (summary.missed.isEmpty ? "" : "; \(summary.missed.total) frame(s) missed"))
                case .failure(let error):
                    let code = ShootFailure.report(
                        signals.translate(error), command: "shoot", json: json,
                        camera: specs.count > 1 ? label : nil)
                    status = status ?? code
                }
            }
            if let status { throw status }
        }

        /// How each line names its camera when several shoot: the `--camera` value, numbered when it repeats
        /// (`sim#1`, `sim#2`); `nil` for a single camera.
        static func labels(_ specs: [CameraSpec]) -> [String?] {
            guard specs.count > 1 else { return specs.map { _ in nil } }
            var seen: [String: Int] = [:]
            return specs.map { spec in
                let text = "\(spec)"
                seen[text, default: 0] += 1
                return specs.filter { "\($0)" == text }.count > 1 ? "\(text)#\(seen[text]!)" : text
            }
        }

        /// One camera's run: open, shoot, close.
        static func shoot(
            _ camera: CameraConnection, _ plan: ShootPlan, _ store: OutputStore, _ logger: Logger, _ stop: StopSignal,
            _ observer: @escaping @Sendable (CaptureEvent) -> Void, _ hooks: ExecHook? = nil,
            reconnector: CameraReconnector? = nil, keepAlive: Duration? = nil
        ) async throws -> CaptureRunner.Summary {
            do {
                let journal = try Journal(folder: store.folder)
                do {
                    try await camera.open()
                } catch {
                    // The journal exists now: it says why the run never started.
                    journal.recordQuietly(CaptureRunner.failureEntry(error))
                    throw error
                }
                var runner = CaptureRunner(
                    session: camera.session, plan: plan, store: store, journal: journal, logger: logger, stop: stop,
                    usbVendorID: camera.link.usbVendorID, usbProductID: camera.link.usbProductID,
                    observer: hooks?.observing(observer, journal: journal) ?? observer)
                runner.reconnector = reconnector
                runner.keepAlive = keepAlive
                let summary = try await runner.run()
                try? await camera.session.endSession()
                if let reconnector { await reconnector.closeLinks() } else { await camera.close() }
                return summary
            } catch {
                try? await camera.session.endSession()
                if let reconnector { await reconnector.closeLinks() } else { await camera.close() }
                throw error
            }
        }
    }
}

/// `--format auto|bayer12|…`.
extension OutputFormat: ExpressibleByArgument {}

/// `--compression none|lossless`.
enum CompressionChoice: String, ExpressibleByArgument, CaseIterable {
    case none
    case lossless

    var dngCompression: DNGOptions.Compression { self == .lossless ? .lossless : .none }
}
