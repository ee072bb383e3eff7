import ArgumentParser
import Logging
import PTPRecord

/// The options every camera command shares: which camera, how long to wait for it, and how much to log.
/// Commands take them with `@OptionGroup var connection: ConnectionOptions` and hand them to
/// ``CameraConnector/connect(_:)``.
public struct ConnectionOptions: ParsableArguments {
    /// Every `--camera` given (`rawcap shoot` uses them all, other commands the first).
    @Option(
        name: .customLong("camera"),
        help: ArgumentHelp(
            "The camera: usb (the only one), usb:BUS:ADDR, serial:SN, sim, ptpip:HOST[:PORT], "
                + "fujiptpip:HOST[:PORT] (Fujifilm Wi-Fi) or replay:FILE; "
                + "shoot takes it several times, or all (every USB camera).",
            valueName: "camera"),
        completion: .list(["usb", "sim", "all", "usb:", "serial:", "ptpip:", "fujiptpip:", "replay:"]))
    public var cameraChoices: [CameraChoice] = []

    /// Which camera: the first `--camera`, or the only USB camera.
    public var camera: CameraSpec {
        get { cameraChoices.lazy.compactMap(\.spec).first ?? .usb(.onlyCamera) }
        set { cameraChoices = [.one(newValue)] }
    }

    /// Seconds to wait for each answer from the camera.
    @Option(help: ArgumentHelp("Seconds to wait for each answer from the camera.", valueName: "seconds"))
    public var timeout: Double = 5

    /// How much to log: `-v`, `-vv`, `--log-level`, `--debug` (``LoggingOptions``).
    @OptionGroup(title: "Logging")
    public var logging: LoggingOptions

    /// `-v` given once (1) or twice (2).
    public var verbose: Int { logging.verbose }

    /// Record the session to a pcapng file.
    @Option(
        help: ArgumentHelp(
            "Record everything that crosses the link to a new pcapng file (Wireshark opens it).",
            valueName: "file.pcapng"))
    public var record: String?

    /// How `--camera replay:FILE` answers.
    @Option(
        help: ArgumentHelp(
            "With --camera replay:FILE: lenient (the default: recorded replies per request, camera-like answers for "
                + "the rest) or strict (the first request that differs from the recording is an error).",
            valueName: "mode"))
    public var replayMode: ReplayResponder.Mode?

    /// The emulated camera's settings, for `--camera sim`.
    @OptionGroup(title: "Emulated camera")
    public var simulator: SimCameraOptions

    /// Creates the defaults.
    public init() {}

    /// Rejects a timeout that is not a positive number of seconds.
    public func validate() throws {
        guard timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout must be 0 < seconds ≤ 3600.") }
        if replayMode != nil {
            guard case .replay = camera else { throw ValidationError("--replay-mode goes with --camera replay:FILE.") }
        }
        if let record, record.isEmpty { throw ValidationError("--record needs a file name.") }
        if let record, case .replay(let path) = camera, record == path {
            throw ValidationError("--record cannot write over the recording being replayed.")
        }
        if simulator.isUsed {
            guard camera == .simulator else { throw ValidationError("--sim-… options need --camera sim.") }
            _ = try ShutterPresses.interval(simulator.simPressEvery, option: "--sim-press-every")
            _ = try simulator.settings.makeCamera()
        }
    }

    /// The one camera a command other than `rawcap shoot` works with.
    ///
    /// - Throws: ``CommandFailure`` (usage, exit 64) when several `--camera` values (or `all`) were given: only
    ///   `rawcap shoot` takes several cameras, and silently using the first would act on the wrong one.
    public func oneCamera() throws -> CameraSpec {
        guard cameraChoices.count <= 1, cameraChoices.first != .all else {
            let given = cameraChoices.map(\.description).joined(separator: ", ")
            throw CommandFailure(
                .usage, "several cameras given (\(given)); only rawcap shoot takes more than one --camera.")
        }
        return camera
    }

    /// The timeout as a duration.
    public var timeoutDuration: Duration { .milliseconds(Int64((timeout * 1000).rounded(.up))) }

    /// A logger writing to standard error at the level ``LoggingOptions`` selects.
    public var logger: Logger { logging.logger() }
}

/// `--replay-mode strict|lenient`.
extension ReplayResponder.Mode: ExpressibleByArgument {}
