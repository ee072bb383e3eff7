import ArgumentParser
import RawDecoders

/// The exit statuses rawcap uses, from BSD's `sysexits.h`, so that scripts can tell a bad input from a full disk.
public enum SysExit {
    /// The command line was wrong (`EX_USAGE`, 64); swift-argument-parser's validation errors exit with it.
    public static let usage = ExitCode(64)
    /// An input file is not a raw file rawcap can read: damaged, truncated or unsupported (`EX_DATAERR`, 65).
    public static let dataError = ExitCode(65)
    /// An input file does not exist or cannot be opened (`EX_NOINPUT`, 66).
    public static let noInput = ExitCode(66)
    /// A bug or an unexpected internal failure (`EX_SOFTWARE`, 70).
    public static let software = ExitCode(70)
    /// An output file or folder cannot be created (`EX_CANTCREAT`, 73).
    public static let cannotCreate = ExitCode(73)
    /// Reading or writing failed part-way, e.g. a full disk (`EX_IOERR`, 74).
    public static let ioError = ExitCode(74)

    /// The status for a decoding failure: unreadable file → 74, anything wrong with its content → 65.
    public static func status(for error: DecodeError) -> ExitCode {
        error.code == .io ? ioError : dataError
    }
}
