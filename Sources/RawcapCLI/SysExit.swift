import ArgumentParser
import RawDecoders

/// The exit statuses rawcap uses, from BSD's `sysexits.h`, so that scripts can tell a bad input from a full disk.
/// The statuses come from ``CommandFailure/Code``'s table, the one place they are defined.
public enum SysExit {
    /// The command line was wrong (`EX_USAGE`, 64); swift-argument-parser's validation errors exit with it.
    public static let usage = CommandFailure.Code.usage.exitCode
    /// An input file is not a raw file rawcap can read: damaged, truncated or unsupported (`EX_DATAERR`, 65).
    public static let dataError = CommandFailure.Code.badInput.exitCode
    /// An input file does not exist or cannot be opened (`EX_NOINPUT`, 66).
    public static let noInput = CommandFailure.Code.noInput.exitCode
    /// No camera found (`EX_UNAVAILABLE`, 69).
    public static let unavailable = CommandFailure.Code.noCamera.exitCode
    /// A bug or an unexpected internal failure (`EX_SOFTWARE`, 70).
    public static let software = CommandFailure.Code.software.exitCode
    /// An output file or folder cannot be created (`EX_CANTCREAT`, 73).
    public static let cannotCreate = CommandFailure.Code.cannotCreate.exitCode
    /// Reading or writing failed part-way, e.g. a full disk, or the camera disconnected (`EX_IOERR`, 74).
    public static let ioError = CommandFailure.Code.io.exitCode
    /// The camera is busy: another program holds it (`EX_TEMPFAIL`, 75).
    public static let busy = CommandFailure.Code.busy.exitCode
    /// The camera broke PTP (`EX_PROTOCOL`, 76).
    public static let protocolError = CommandFailure.Code.protocolError.exitCode
    /// Permission denied (`EX_NOPERM`, 77).
    public static let permissionDenied = CommandFailure.Code.permissionDenied.exitCode
    /// Interrupted by Ctrl-C (130).
    public static let interrupted = CommandFailure.Code.interrupted.exitCode

    /// The status for a decoding failure: unreadable file → 74, anything wrong with its content → 65.
    public static func status(for error: DecodeError) -> ExitCode {
        error.code == .io ? ioError : dataError
    }
}
