import OutputFiles

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

extension DNGError {
    /// The same failure of the file a DNG or TIFF is written to (``OutputFiles/OutputFile``), as the writer's error:
    /// the codes keep their names; a path that names no file is ``Code/invalidInput``.
    public init(_ error: OutputFileError) {
        let code = error.code == .invalidPath ? Code.invalidInput : Code(rawValue: error.code.rawValue)
        self.init(code, path: error.path, error.detail, errno: error.errno)
    }
}

extension OutputFile {
    /// ``OutputFiles/OutputFile/init(creatingAt:whenTaken:)`` for a DNG or TIFF writer, its failure as a `DNGError`.
    static func creatingDNG(at path: String, whenTaken: WhenTaken = .refuse) throws(DNGError) -> OutputFile {
        do {
            return try OutputFile(creatingAt: path, whenTaken: whenTaken)
        } catch {
            throw DNGError(error)
        }
    }

    /// ``OutputFiles/OutputFile/commit()`` for a DNG or TIFF writer, its failure as a `DNGError`.
    func commitDNG() throws(DNGError) {
        do {
            try commit()
        } catch {
            throw DNGError(error)
        }
    }
}
