import ArgumentParser
import CameraControl
import Capture
import DNG
import FoundationEssentials
import PTP
import PlatformSupport
import RawDecoders

#if canImport(Glibc)
    import Glibc
#endif

/// How `shoot`, `pull` and `ls` turn an error into one line on standard error and a sysexits status.
enum ShootFailure {
    /// The status and message for `error`.
    static func classify(_ error: any Error) -> (ExitCode, String) {
        switch error {
        case let error as CaptureError:
            let status: Int32 =
                switch error.code {
                case .formatUnavailable, .invalidPlan, .exposureUnavailable, .cardCopyUnavailable: 64
                case .cameraBusy: 75
                case .cardFull: 73
                case .captureTimeout, .downloadStalled: 74
                case .badObject: 76
                case .interrupted: 130
                case .outputUnavailable: 73
                case .remoteControlUnavailable: 69
                default: 70
                }
            let prefix = error.code == .cardFull ? "The camera's card is full: " : ""
            return (ExitCode(status), prefix + error.detail)
        case let error as DNGError:
            switch error.code {
            case .diskFull: return (ExitCode(74), "The disk is full: \(error)")
            case .ioFailure: return (ExitCode(74), "Writing failed: \(error)")
            case .fileExists, .folderNotFound, .notWritable: return (ExitCode(73), "Cannot create the file: \(error)")
            default: return (ExitCode(70), "\(error)")
            }
        case let error as DecodeError:
            return (ExitCode(76), "The camera sent a file rawcap cannot read: \(error)")
        case let error as PTPError where error.response == .storeFull:
            return (ExitCode(73), "The camera's card is full: \(error)")
        case let error as PTPError where error.response == .deviceBusy:
            return (ExitCode(75), "The camera is busy: \(error)")
        case let error as CameraControlError:
            return (ExitCode(76), "The camera refused a setting: \(error)")
        case let failure as CommandFailure:
            return (failure.status, failure.message)
        default:
            let failure = CameraFailure(error)
            return (failure.exitCode, failure.message)
        }
    }

    /// The failure `error` is, as the error object and the exit status report it.
    static func failure(_ error: any Error) -> CommandFailure {
        let (status, message) = classify(error)
        return CommandFailure(status, message.oneLine)
    }

    /// Prints `rawcap COMMAND: message` (and with `json` the error object on standard output, as every command
    /// does) and returns the status to throw.
    static func report(_ error: any Error, command: String, json: Bool = false, camera: String? = nil) -> ExitCode {
        let failure = failure(error)
        StandardError.print("rawcap \(command): \(camera.map { "\($0): " } ?? "")\(failure.message)")
        if json { DescriptorIO.writeStandardOutput(failure.json(command: command, camera: camera) + "\n") }
        return failure.exitCode
    }
}
