/// An error planning or writing a DNG (or any file published through ``OutputFile``).
///
/// Shaped like swift-asn1's `ASN1Error` and the project's `WireError`: a stable ``code`` that callers and tests match
/// on, the ``path`` involved when there is one, and a human ``detail``. `==` compares the code only, so a test can
/// write `#expect(throws: DNGError(.fileExists))`.
public struct DNGError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, e.g. `diskFull`.
        public let rawValue: String
        /// Wraps a code name; prefer the static members.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A width, height, count or file size does not fit the TIFF field or the 32-bit offsets of a classic TIFF.
        public static let doesNotFit = Code(rawValue: "doesNotFit")
        /// Bits per sample outside what the chosen layout can store (8…16 for raw data, 8 for previews).
        public static let unsupportedBitDepth = Code(rawValue: "unsupportedBitDepth")
        /// A sample is larger than its bit depth allows, so the lossless encoder cannot represent it.
        public static let sampleOutOfRange = Code(rawValue: "sampleOutOfRange")
        /// The plan breaks a TIFF/DNG rule: an empty IFD, a duplicate tag, a value of the wrong type or count.
        public static let invalidPlan = Code(rawValue: "invalidPlan")
        /// An input the encoder cannot use: a preview that is not a baseline JPEG, a table of the wrong length.
        public static let invalidInput = Code(rawValue: "invalidInput")
        /// The lossless JPEG encoder rejected the data.
        public static let compressionFailed = Code(rawValue: "compressionFailed")
        /// libtiff reported an error; ``detail`` carries libtiff's own message.
        public static let libtiff = Code(rawValue: "libtiff")
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
    /// What exactly went wrong: which tag, which value, which system call.
    public let detail: String
    /// The `errno` value behind an IO error, when there is one.
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
}
