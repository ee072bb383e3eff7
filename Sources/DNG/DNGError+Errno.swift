#if canImport(Glibc)
    import Glibc
#endif

extension DNGError {
    /// Maps a failed system call's `errno` to a code: a full disk, quota or file-size limit is ``Code/diskFull``, a
    /// read-only or forbidden folder is ``Code/notWritable``, a missing folder is ``Code/folderNotFound``, an existing
    /// name is ``Code/fileExists``, anything else ``Code/ioFailure``. The message names the call and the reason.
    public static func system(_ call: String, path: String?, errno code: Int32) -> DNGError {
        let reason = String(cString: strerror(code))
        let errorCode: Code
        switch code {
        case ENOSPC, EDQUOT, EFBIG: errorCode = .diskFull
        case EROFS, EACCES, EPERM: errorCode = .notWritable
        case ENOENT, ENOTDIR: errorCode = .folderNotFound
        case EEXIST: errorCode = .fileExists
        default: errorCode = .ioFailure
        }
        return DNGError(errorCode, path: path, "\(call) failed: \(reason) (errno \(code))", errno: code)
    }
}
