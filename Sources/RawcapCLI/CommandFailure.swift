import ArgumentParser
import FoundationEssentials
import PlatformSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Why a rawcap command failed, as the user and the shell see it: one line that says what happened and what to do,
/// and a sysexits(3) status from one table (README, "Exit codes"). Every command ends its failures through this
/// type; `CameraFailure` is another name for it (the classification of camera errors is in `CameraFailure.swift`).
///
/// | status | code | meaning |
/// |---|---|---|
/// | 64 | `usage`, `ambiguous` | bad flags or arguments; several cameras and no `--camera` |
/// | 65 | `badInput` | an input file or recording that is not what rawcap can read |
/// | 66 | `noInput` | an input file that does not exist |
/// | 69 | `noCamera`, `notAvailable` | no camera found, or the transport is not built in |
/// | 70 | `software` | a bug |
/// | 73 | `cannotCreate` | an output file that cannot be created |
/// | 74 | `io` | I/O error or the camera disconnected |
/// | 75 | `busy` | another program holds the camera |
/// | 76 | `protocolError` | the camera broke PTP |
/// | 77 | `permissionDenied` | the user may not open the device |
/// | 130 | `interrupted` | interrupted (Ctrl-C) |
/// | 143 | `terminated` | ended by SIGTERM (as the first Ctrl-C ends a command) |
public struct CommandFailure: Error, Hashable, CustomStringConvertible {
    /// The kind of failure, which decides the exit status.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as the JSON error object prints it.
        public let rawValue: String
        /// Wraps a name; names outside the table exit with 70 (`statusN` with N).
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Bad flags or arguments: `EX_USAGE` (64).
        public static let usage = Code(rawValue: "usage")
        /// Several cameras and no choice among them: `EX_USAGE` (64).
        public static let ambiguous = Code(rawValue: "ambiguous")
        /// An input file or recording rawcap cannot read: `EX_DATAERR` (65).
        public static let badInput = Code(rawValue: "badInput")
        /// An input file that does not exist or cannot be opened: `EX_NOINPUT` (66).
        public static let noInput = Code(rawValue: "noInput")
        /// No camera found, or none matches `--camera`: `EX_UNAVAILABLE` (69).
        public static let noCamera = Code(rawValue: "noCamera")
        /// The transport `--camera` names is not built in: `EX_UNAVAILABLE` (69).
        public static let notAvailable = Code(rawValue: "notAvailable")
        /// A bug or unexpected internal failure: `EX_SOFTWARE` (70).
        public static let software = Code(rawValue: "software")
        /// An output file or folder cannot be created: `EX_CANTCREAT` (73).
        public static let cannotCreate = Code(rawValue: "cannotCreate")
        /// The link or a file failed part-way: disconnect, timeout, stall, I/O error: `EX_IOERR` (74).
        public static let io = Code(rawValue: "io")
        /// Another program holds the camera; try again once it lets go: `EX_TEMPFAIL` (75).
        public static let busy = Code(rawValue: "busy")
        /// The camera broke PTP or sent a dataset that does not decode: `EX_PROTOCOL` (76).
        public static let protocolError = Code(rawValue: "protocolError")
        /// The device cannot be opened for lack of permission: `EX_NOPERM` (77).
        public static let permissionDenied = Code(rawValue: "permissionDenied")
        /// Interrupted by SIGINT (Ctrl-C): 128 + 2, as shells report it (130).
        public static let interrupted = Code(rawValue: "interrupted")
        /// Ended by SIGTERM, as cleanly as by the first Ctrl-C: 128 + 15 (143).
        public static let terminated = Code(rawValue: "terminated")

        /// Every code, in the order of the table.
        public static let all: [Code] = [
            .usage, .ambiguous, .badInput, .noInput, .noCamera, .notAvailable, .software, .cannotCreate, .io, .busy,
            .protocolError, .permissionDenied, .interrupted, .terminated,
        ]

        /// The exit status as a number.
        public var status: Int32 {
            switch self {
            case .usage, .ambiguous: 64
            case .badInput: 65
            case .noInput: 66
            case .noCamera, .notAvailable: 69
            case .cannotCreate: 73
            case .io: 74
            case .busy: 75
            case .protocolError: 76
            case .permissionDenied: 77
            case .interrupted: 130
            case .terminated: 143
            default:
                rawValue.hasPrefix(Self.otherPrefix) ? Int32(rawValue.dropFirst(Self.otherPrefix.count)) ?? 70 : 70
            }
        }

        /// The name prefix of a status outside the table (`status71`), kept so that no status is lost.
        private static let otherPrefix = "status"

        /// The exit status.
        public var exitCode: ExitCode { ExitCode(status) }

        /// The code whose status is `status` (the first in the table); a status outside the table keeps its number
        /// (`status71`).
        public init(status: Int32) {
            self = Code.all.first { $0.status == status } ?? Code(rawValue: Self.otherPrefix + String(status))
        }

        /// The name.
        public var description: String { rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// What happened and what to do.
    public let message: String

    /// Creates a failure.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Creates a failure from a status of ``SysExit`` (the form the file commands use).
    public init(_ status: ExitCode, _ message: String) {
        self.init(Code(status: status.rawValue), message)
    }

    /// The exit status (the file commands' name for ``exitCode``).
    public var status: ExitCode { code.exitCode }

    /// The exit status.
    public var exitCode: ExitCode { code.exitCode }

    /// The message.
    public var description: String { message }

    /// The JSON object `--json` prints on standard output instead of a report:
    /// `{"error":{"code":"noCamera","command":"info","exitStatus":69,"message":"…"}}`; with `camera` (`shoot` with
    /// several cameras) the error names the camera it is about (`"camera":"sim"`, as `--camera` named it).
    public func json(command: String, camera: String? = nil) -> String {
        struct Body: Encodable {
            var camera: String?
            var code: String
            var command: String
            var exitStatus: Int32
            var message: String
        }
        struct Envelope: Encodable { var error: Body }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let envelope = Envelope(
            error: Body(
                camera: camera, code: code.rawValue, command: command, exitStatus: code.status, message: message))
        guard let data = try? encoder.encode(envelope) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Ends a command: classifies `error`, prints one line to standard error (`rawcap info: …`), and with `json`
    /// the JSON object to standard output; returns the exit status to throw.
    public static func report(_ error: any Error, command: String, json: Bool = false) -> ExitCode {
        let failure = CommandFailure(error)
        StandardError.print("rawcap \(command): \(failure.message.oneLine)")
        // Unbuffered, as every other JSON line (a shoot's saved files) is written: the error comes last.
        if json { DescriptorIO.writeStandardOutput(failure.json(command: command) + "\n") }
        return failure.exitCode
    }
}

extension String {
    /// The text on one line: line breaks become spaces, runs of spaces one (error messages are one line, so that
    /// logs and scripts can grep them), and every other control character a visible `\x1B` (camera strings land
    /// in messages: an escape sequence from a hostile camera must not reach the terminal).
    var oneLine: String {
        split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
            .map { $0.trimmingWhitespace() }.joined(separator: " ").visibleControlCharacters
    }

    /// The text with C0 and C1 control characters (tab aside) and DEL written as `\x1B`, `\x00`, `\x9B`.
    var visibleControlCharacters: String {
        var result = ""
        for scalar in unicodeScalars {
            let value = scalar.value
            if (value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(value) {
                let hex = String(value, radix: 16, uppercase: true)
                result += "\\x" + (hex.count < 2 ? "0" : "") + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

/// Standard error, for messages that must not mix with a command's output (a JSON report, a file list).
enum StandardError {
    /// Writes `message` and a newline to standard error.
    static func print(_ message: String) {
        DescriptorIO.writeStandardError(message + "\n")
    }
}
