import ArgumentParser
import Capture
import FoundationEssentials
import Logging
import PlatformSupport

#if canImport(Glibc)
    import Glibc
#endif

/// How much rawcap logs to standard error, shared by every camera command through ``ConnectionOptions``:
/// `-v` (debug: each PTP request and response), `-vv` or `--debug` (trace: also a hex dump of every USB container
/// and PTP/IP packet, the form to attach to a bug report), or `--log-level LEVEL`. The default is warnings; `-q` is
/// errors only (and silences `shoot` and `pull`'s progress and per-file lines).
public struct LoggingOptions: ParsableArguments {
    /// `-v` debug, `-vv` trace.
    @Flag(
        name: [.short, .long],
        help: "Log the PTP traffic to standard error (-v requests and responses, -vv with hex dumps).")
    public var verbose: Int

    /// An explicit level.
    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp(
            "Log level: trace, debug, info, notice, warning (the default), error or critical.", valueName: "level"))
    public var logLevel: Logger.Level?

    /// Nothing on standard error but errors: no progress, no per-file lines, no warnings, no summary.
    @Flag(name: [.short, .long], help: "Print nothing on standard error but errors (no progress, files or warnings).")
    public var quiet = false

    /// Trace with hex dumps.
    @Flag(help: "Log everything, with hex dumps of every USB container and PTP/IP packet (for bug reports).")
    public var debug = false

    /// Creates the defaults.
    public init() {}

    /// The level the flags select: `--debug` wins, then `--log-level`, then `-v`/`-vv`, else warning.
    public var level: Logger.Level {
        if debug { return .trace }
        if let logLevel { return logLevel }
        if quiet { return .error }
        return verbose >= 2 ? .trace : verbose == 1 ? .debug : .warning
    }

    /// A logger writing to standard error at ``level``. It is made with its own handler rather than through
    /// `LoggingSystem.bootstrap`, which a process may call only once (tests run many commands in one process).
    public func logger(label: String = "rawcap") -> Logger {
        var logger = Logger(label: label) { RawcapLogHandler(label: $0) }
        logger.logLevel = level
        return logger
    }
}

/// `--log-level trace|debug|…`.
extension Logger.Level: @retroactive ExpressibleByArgument {}

/// Log lines on standard error: `2026-11-22T06:59:01.123Z debug rawcap.ptp: → GetDeviceInfo [] tid 0`, metadata
/// after the message as `key=value`. One line per message, written with a single `write` so lines from the USB
/// threads never interleave.
public struct RawcapLogHandler: LogHandler {
    /// The logger's label.
    public let label: String
    /// The level.
    public var logLevel: Logger.Level = .warning
    /// Metadata every message carries.
    public var metadata: Logger.Metadata = [:]

    /// Creates a handler for `label`.
    public init(label: String) { self.label = label }

    /// One entry of ``metadata``.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one line.
    public func log(event: LogEvent) {
        var text = "\(Self.timestamp()) \(event.level) \(label): \(event.message)"
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        if !merged.isEmpty {
            text += " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        DescriptorIO.writeStandardError(text + "\n")
    }

    private static func timestamp() -> String { UTCTimestamp.extended(Date()) }
}
