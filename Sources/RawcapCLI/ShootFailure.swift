import ArgumentParser
import CameraControl
import Capture
import DNG
import FoundationEssentials
import OutputFiles
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
                case .captureTimeout, .downloadStalled, .cameraGone: 74
                case .badObject: 76
                case .interrupted: 130
                case .outputUnavailable: 73
                case .remoteControlUnavailable: 69
                default: 70
                }
            if error.code == .cardFull { return (ExitCode(status), Self.cardFull(error.detail)) }
            return (ExitCode(status), error.detail)
        case let error as DNGError:
            switch error.code {
            case .diskFull: return (ExitCode(74), "The disk is full: \(error)")
            case .ioFailure: return (ExitCode(74), "Writing failed: \(error)")
            case .fileExists, .folderNotFound, .notWritable: return (ExitCode(73), "Cannot create the file: \(error)")
            default: return (ExitCode(70), "\(error)")
            }
        case let error as OutputFileError:
            // A file whatever it holds (a NEF or JPEG pulled as it is, the journal): the same words as for a DNG.
            switch error.code {
            case .diskFull: return (ExitCode(74), "The disk is full: \(error)")
            case .fileExists, .folderNotFound, .notWritable, .invalidPath:
                return (ExitCode(73), "Cannot create the file: \(error)")
            default: return (ExitCode(74), "Writing failed: \(error)")
            }
        case let error as DecodeError:
            return (ExitCode(76), "The camera sent a file rawcap cannot read: \(error)")
        case let error as PTPError where error.response == .storeFull:
            return (ExitCode(73), cardFull("\(error)"))
        case let error as PTPError where error.response == .deviceBusy:
            return (ExitCode(75), "The camera is busy: \(error)")
        case let error as CameraControlError:
            return (ExitCode(76), "The camera refused a setting: \(error)")
        case let failure as CommandFailure:
            return (failure.status, failure.message)
        case let error as LiveViewError:
            switch error.kind {
            case .unavailable: return (ExitCode(69), error.description)
            case .noFrames: return (ExitCode(75), "The camera is busy: \(error.description)")
            case .badFrame: return (ExitCode(76), "The camera sent a live view frame rawcap cannot read: \(error.description)")
            }
        default:
            let failure = CameraFailure(error)
            return (failure.exitCode, failure.message)
        }
    }

    /// A full card, and what to do about it.
    static func cardFull(_ detail: String) -> String {
        // The driver's words start with what this message says: keep only what it adds (the camera's response).
        var context = Substring(detail)
        let phrase = "the camera's card is full"
        if context.lowercased().hasPrefix(phrase) { context = context.dropFirst(phrase.count) }
        while let first = context.first, " :(".contains(first) { context = context.dropFirst() }
        while let last = context.last, " )".contains(last) { context = context.dropLast() }
        return "The camera's card is full" + (context.isEmpty ? "" : " (\(context))")
            + ": make room on it (rawcap pull --all --delete-after saves its files here and deletes them from the "
            + "card) or put in a card with room, then shoot again."
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
