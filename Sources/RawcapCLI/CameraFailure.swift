import ArgumentParser
import Foundation
import PTP
import PTPIP
import PTPRecord
import PTPUSB
import WireFormat

/// Why a camera command failed, as the user and the shell see it: a message that says what to do, and a
/// sysexits(3) status (README, "Exit codes").
public struct CameraFailure: Error, Hashable, CustomStringConvertible {
    /// The kind of failure, which decides the exit status.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String
        /// Wraps a name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// No camera found, or none matches `--camera`: `EX_UNAVAILABLE` (69).
        public static let noCamera = Code(rawValue: "noCamera")
        /// The transport `--camera` names is not built in yet: `EX_UNAVAILABLE` (69).
        public static let notAvailable = Code(rawValue: "notAvailable")
        /// Several cameras and no choice among them: `EX_USAGE` (64).
        public static let ambiguous = Code(rawValue: "ambiguous")
        /// The device cannot be opened for lack of permission: `EX_NOPERM` (77).
        public static let permissionDenied = Code(rawValue: "permissionDenied")
        /// Another program holds the camera; try again once it lets go: `EX_TEMPFAIL` (75).
        public static let busy = Code(rawValue: "busy")
        /// The link failed: disconnect, timeout, stall, I/O error: `EX_IOERR` (74).
        public static let io = Code(rawValue: "io")
        /// The camera broke PTP or sent a dataset that does not decode: `EX_PROTOCOL` (76).
        public static let protocolError = Code(rawValue: "protocolError")
        /// A recording given to `--camera replay:` does not load: `EX_DATAERR` (65).
        public static let badInput = Code(rawValue: "badInput")
        /// The `--record` file cannot be created: `EX_CANTCREAT` (73).
        public static let cannotCreate = Code(rawValue: "cannotCreate")
        /// Anything else, a bug: `EX_SOFTWARE` (70).
        public static let software = Code(rawValue: "software")

        /// The exit status.
        public var exitCode: ExitCode {
            switch self {
            case .noCamera, .notAvailable: ExitCode(69)
            case .ambiguous: ExitCode(64)
            case .permissionDenied: ExitCode(77)
            case .busy: ExitCode(75)
            case .io: ExitCode(74)
            case .protocolError: ExitCode(76)
            case .badInput: ExitCode(65)
            case .cannotCreate: ExitCode(73)
            default: ExitCode(70)
            }
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

    /// Classifies any error a camera command meets.
    public init(_ error: any Error) {
        switch error {
        case let failure as CameraFailure:
            self = failure
        case let error as USBCameraError:
            let code: Code =
                switch error.code {
                case .noCamera, .notFound: .noCamera
                case .ambiguous: .ambiguous
                case .permissionDenied: .permissionDenied
                case .busy: .busy
                default: .io
                }
            self.init(code, error.description)
        case let error as LibUSBError:
            self.init(.noCamera, "USB is not available: \(error).")
        case let error as TransportError where error.underlyingError is PTPIPConnectFailure:
            self.init(
                .noCamera,
                "No PTP/IP camera answers there: \(error.underlyingError.map { "\($0)" } ?? "\(error)"). Check the "
                    + "address and that the camera's Wi-Fi remote function is on.")
        case let error as TransportError where error.underlyingError is ReplayMismatch:
            self.init(
                .io,
                "rawcap's requests left the recording (strict replay): \(error.underlyingError.map { "\($0)" } ?? "").")
        case let error as TransportError:
            self.init(Self.code(of: error), Self.message(for: error))
        case let error as PcapError:
            self.init(.badInput, "The recording cannot be read: \(error).")
        case let error as RecordError where error.code == .ioError:
            self.init(.cannotCreate, "The recording cannot be written: \(error.detail).")
        case let error as RecordError:
            self.init(.badInput, "The recording holds no usable PTP session: \(error).")
        case let error as PTPError where error.code == .deviceResponse:
            self.init(.protocolError, "The camera refused a request rawcap needs: \(error).")
        case let error as PTPError:
            self.init(.protocolError, "The camera broke the PTP protocol: \(error).")
        case let error as WireError:
            self.init(.protocolError, "The camera sent data rawcap cannot decode: \(error).")
        default:
            self.init(.software, "\(error)")
        }
    }

    /// The message.
    public var description: String { message }

    /// The exit status.
    public var exitCode: ExitCode { code.exitCode }

    private static func code(of error: TransportError) -> Code {
        switch error.code {
        case .busy: .busy
        case .rejected: .noCamera
        default: .io
        }
    }

    private static func message(for error: TransportError) -> String {
        switch error.code {
        case .disconnected:
            """
            The camera disconnected (cable pulled, camera switched off or gone to sleep); reconnect it and try \
            again. (\(error))
            """
        case .timeout:
            """
            The camera did not answer in time; check that it is awake and not busy (writing to its card, in a \
            menu), or raise --timeout. (\(error))
            """
        case .stalled:
            "The camera refused a transfer (endpoint stall): \(error)."
        default:
            "Talking to the camera failed: \(error)."
        }
    }

    /// Prints the message to standard error and returns the exit status to throw.
    static func report(_ error: any Error, command: String) -> ExitCode {
        let failure = CameraFailure(error)
        FileHandle.standardError.write(Data("rawcap \(command): \(failure.message)\n".utf8))
        return failure.exitCode
    }
}
