import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// A short reason for the errors FoundationEssentials' file calls throw (`CocoaError`, `POSIXError`), in the C
/// library's words (`Permission denied`, `No such file or directory`): without full Foundation these errors have no
/// `localizedDescription` and print as Swift structures.
public enum SystemErrorText {
    /// The `strerror` text of the error's `errno` (a `POSIXError`, or a `CocoaError`'s underlying one); for a
    /// `CocoaError` without one, its code's meaning as far as rawcap meets it; anything else as it prints.
    public static func reason(_ error: any Error) -> String {
        switch error {
        case let error as POSIXError:
            return text(errno: error.code.rawValue)
        case let error as CocoaError:
            if let underlying = error.userInfo["NSUnderlyingError"] as? POSIXError {
                return text(errno: underlying.code.rawValue)
            }
            switch error.code {
            case .fileNoSuchFile, .fileReadNoSuchFile: return text(errno: ENOENT)
            case .fileReadNoPermission, .fileWriteNoPermission: return text(errno: EACCES)
            case .fileWriteOutOfSpace: return text(errno: ENOSPC)
            case .fileWriteVolumeReadOnly: return text(errno: EROFS)
            case .fileWriteFileExists: return text(errno: EEXIST)
            case .fileReadTooLarge: return text(errno: EFBIG)
            default: return "file system error \(error.code.rawValue)"
            }
        default:
            return "\(error)"
        }
    }

    /// `strerror(number)`.
    public static func text(errno number: Int32) -> String {
        String(validatingCString: strerror(number)) ?? "error \(number)"
    }
}
