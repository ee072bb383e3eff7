import WireFormat

/// A raw file that cannot be turned into a ``RawFrame``: cut short, inconsistent, in a form rawcap does not read,
/// larger than the limits allow, or refused by LibRaw.
///
/// Shaped like swift-asn1's `ASN1Error` (STYLE.md §2): a stable ``code`` to match on, the byte ``offset`` in the
/// file when one is known, and a human ``detail``. `==` compares the code only, so a test can write
/// `#expect(throws: DecodeError(.truncated))`. When LibRaw produced the error, ``libRawStatus`` names its code.
public struct DecodeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem the file has.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The file ends before a structure or the image data it announces.
        public static let truncated = Code(rawValue: "truncated")
        /// A structure or value contradicts the format: an IFD cycle, a level above the white point, a strip that
        /// decodes to the wrong number of samples.
        public static let corrupt = Code(rawValue: "corrupt")
        /// A well-formed file in a form rawcap does not read: a compression, bit depth, layout or sensor type.
        public static let unsupported = Code(rawValue: "unsupported")
        /// A size, count or depth above ``WireFormat/WireLimits`` or ``RawDecoder/maxFileSize``.
        public static let tooLarge = Code(rawValue: "tooLarge")
        /// The file could not be read from disk.
        public static let io = Code(rawValue: "io")
        /// LibRaw failed with a code that none of the codes above describes; see ``DecodeError/libRawStatus``.
        public static let libRaw = Code(rawValue: "libRaw")
        /// The contained decoder (``ContainedDecoder``) crashed, hung or ran out of its limits on the file.
        public static let decoderFailed = Code(rawValue: "decoderFailed")

        public var description: String { rawValue }
    }

    /// The kind of problem; `==` compares only this.
    public let code: Code
    /// The byte offset in the file where the problem was found, when known.
    public let offset: Int?
    /// What exactly is wrong: which tag, which value, which library message.
    public let detail: String
    /// LibRaw's return code when the error comes from LibRaw (the C enum `LibRaw_errors`).
    public let libRawStatus: LibRawStatus?

    /// Creates an error; `offset`, `detail` and `libRawStatus` are context and do not take part in `==`.
    public init(_ code: Code, at offset: Int? = nil, _ detail: String = "", libRawStatus: LibRawStatus? = nil) {
        self.code = code
        self.offset = offset
        self.detail = detail
        self.libRawStatus = libRawStatus
    }

    /// Wraps a ``WireFormat/WireError`` from parsing file structures: truncation stays truncation, a limit becomes
    /// ``Code/tooLarge``, anything else ``Code/corrupt``.
    public init(_ error: WireError, context: String) {
        let code: Code =
            switch error.code {
            case .truncated: .truncated
            case .limitExceeded: .tooLarge
            default: .corrupt
            }
        self.init(code, at: error.offset, "\(context): \(error.detail)")
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String {
        var text = "\(code)"
        if let offset { text += " at byte \(offset)" }
        if let libRawStatus { text += " (\(libRawStatus))" }
        if !detail.isEmpty { text += ": \(detail)" }
        return text
    }
}
