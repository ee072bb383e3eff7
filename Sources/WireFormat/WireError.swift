/// An error reading or writing bytes that came from outside the process: a camera, a socket or a file.
///
/// Shaped like swift-asn1's `ASN1Error`: a stable ``code`` that tests and callers match on, the byte ``offset``
/// where the problem was found, and a human ``detail``. Two errors compare equal when their codes are equal, so a
/// test can write `#expect(throws: WireError(.truncated))` without spelling out the offset.
public struct WireError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem the bytes have.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Fewer bytes than the format requires.
        public static let truncated = Code(rawValue: "truncated")
        /// A field holds a value the format does not allow.
        public static let invalidValue = Code(rawValue: "invalidValue")
        /// A length, count or depth is larger than ``WireLimits`` allows.
        public static let limitExceeded = Code(rawValue: "limitExceeded")
        /// Bytes are left over after a value that must fill its input exactly.
        public static let trailingBytes = Code(rawValue: "trailingBytes")
        /// A value does not fit the field it must be written into.
        public static let doesNotFit = Code(rawValue: "doesNotFit")

        public var description: String { rawValue }
    }

    /// The kind of problem.
    public let code: Code
    /// The absolute byte offset in the input where the problem was found, or `nil` when it has none.
    public let offset: Int?
    /// A human explanation: which field, which value.
    public let detail: String

    /// Creates an error; `offset` and `detail` are context and do not take part in `==`.
    public init(_ code: Code, at offset: Int? = nil, _ detail: String = "") {
        self.code = code
        self.offset = offset
        self.detail = detail
    }

    public static func == (lhs: WireError, rhs: WireError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String {
        var text = "\(code)"
        if let offset { text += " at byte \(offset)" }
        if !detail.isEmpty { text += ": \(detail)" }
        return text
    }
}
