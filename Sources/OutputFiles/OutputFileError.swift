#if canImport(Glibc)
    import Glibc
#endif

/// An error creating, writing, publishing or reading back a file rawcap saves (``OutputFile``, ``MessageDigest``),
/// whatever the file holds: a DNG, a TIFF, a camera's NEF or JPEG, the journal.
///
/// Shaped like `DNGError` and `WireError`: a stable ``code`` that callers and tests match on, the ``path`` involved
/// when there is one, a human ``detail`` and the `errno` behind it. `==` compares the code only, so a test can write
/// `#expect(throws: OutputFileError(.diskFull))`.
public struct OutputFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, e.g. `diskFull`.
        public let rawValue: String
        /// Wraps a code name; prefer the static members.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The path names no file (empty, `.` or `..`).
        public static let invalidPath = Code(rawValue: "invalidPath")
        /// The destination already exists; rawcap never overwrites a file.
        public static let fileExists = Code(rawValue: "fileExists")
        /// The destination folder does not exist (or a path component is not a folder).
        public static let folderNotFound = Code(rawValue: "folderNotFound")
        /// The folder is read-only or the process lacks permission to create files in it.
        public static let notWritable = Code(rawValue: "notWritable")
        /// The file system is full, the quota is used up, or the file-size limit was reached (ENOSPC, EDQUOT, EFBIG).
        public static let diskFull = Code(rawValue: "diskFull")
        /// Any other input/output failure; ``detail`` names the system call and errno.
        public static let ioFailure = Code(rawValue: "ioFailure")

        /// The code's name.
        public var description: String { rawValue }
    }

    /// The kind of problem; `==` compares only this.
    public let code: Code
    /// The file or folder involved, when there is one.
    public let path: String?
    /// What exactly went wrong: which system call, why.
    public let detail: String
    /// The `errno` value behind the error, when there is one.
    public let errno: Int32?

    /// Creates an error; `path`, `detail` and `errno` are context and do not take part in `==`.
    public init(_ code: Code, path: String? = nil, _ detail: String = "", errno: Int32? = nil) {
        self.code = code
        self.path = path
        self.detail = detail
        self.errno = errno
    }

    /// Two errors are equal when their codes are; path, detail and errno are context.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    /// Hashes the code only, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `code (path): detail`, the form rawcap prints.
    public var description: String {
        var text = "\(code)"
        if let path { text += " (\(path))" }
        if !detail.isEmpty { text += ": \(detail)" }
        return text
    }

    /// Maps a failed system call's `errno` to a code: a full disk, quota or file-size limit is ``Code/diskFull``, a
    /// read-only or forbidden folder is ``Code/notWritable``, a missing folder is ``Code/folderNotFound``, an existing
    /// name is ``Code/fileExists``, anything else ``Code/ioFailure``. The message names the call and the reason.
    public static func system(_ call: String, path: String?, errno code: Int32) -> OutputFileError {
        let reason = String(cString: strerror(code))
        let errorCode: Code
        switch code {
        case ENOSPC, EDQUOT, EFBIG: errorCode = .diskFull
        case EROFS, EACCES, EPERM: errorCode = .notWritable
        case ENOENT, ENOTDIR: errorCode = .folderNotFound
        case EEXIST: errorCode = .fileExists
        default: errorCode = .ioFailure
        }
        return OutputFileError(errorCode, path: path, "\(call) failed: \(reason) (errno \(code))", errno: code)
    }
}
