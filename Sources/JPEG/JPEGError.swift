/// A JPEG that could not be encoded, decoded or read, with libjpeg-turbo's own message (`tjGetErrorStr2`).
public struct JPEGError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The bytes are not a JPEG libjpeg-turbo can parse (no SOI, truncated header, corrupt markers).
        public static let invalidData = Code(rawValue: "invalidData")
        /// A valid JPEG rawcap does not handle (CMYK or YCCK colour, which has no RGB meaning without a profile).
        public static let unsupported = Code(rawValue: "unsupported")
        /// Width or height beyond the limits (`WireLimits.maxImagePixels`, 65535 per side).
        public static let tooLarge = Code(rawValue: "tooLarge")
        /// An argument out of range, such as a quality outside 1…100.
        public static let invalidArgument = Code(rawValue: "invalidArgument")
        /// libjpeg-turbo failed while compressing.
        public static let encodingFailed = Code(rawValue: "encodingFailed")
        /// libjpeg-turbo failed while decompressing (corrupt entropy-coded data).
        public static let decodingFailed = Code(rawValue: "decodingFailed")
        /// libjpeg-turbo could not allocate its state (`tjInitCompress`/`tjInitDecompress` returned NULL).
        public static let outOfMemory = Code(rawValue: "outOfMemory")

        public var description: String { rawValue }
    }

    /// The kind of failure; `==` compares only this.
    public let code: Code
    /// Details, usually libjpeg-turbo's message.
    public let detail: String

    /// Creates an error.
    public init(_ code: Code, _ detail: String = "") {
        self.code = code
        self.detail = detail
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
    public var description: String { detail.isEmpty ? "JPEG \(code)" : "JPEG \(code): \(detail)" }
}
