import WireFormat

/// An error encoding or decoding a lossless JPEG (ITU T.81 process 14) stream.
///
/// Shaped like `WireError`: a stable ``code`` to match on, the byte ``offset`` in the stream where the problem
/// was found (when there is one) and a human ``detail``. Two errors compare equal when their codes are equal, so a
/// test can write `#expect(throws: LJ92Error(.truncated))`.
public struct LJ92Error: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem the stream or the request has.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The stream ends (or reaches a marker) before all the data it announces: a missing EOI, a cut segment,
        /// entropy-coded data shorter than the frame needs.
        public static let truncated = Code(rawValue: "truncated")
        /// A marker that is unknown, or that may not appear where it does (a second SOF, an RSTn outside a scan,
        /// data before SOI, a wrong restart marker number).
        public static let unexpectedMarker = Code(rawValue: "unexpectedMarker")
        /// A valid JPEG that uses a process rawcap does not decode: any SOF other than SOF3 (DCT, arithmetic,
        /// hierarchical), sampling factors other than 1×1, more than 4 components, DNL-defined heights, restart
        /// intervals that do not span whole rows.
        public static let unsupportedProcess = Code(rawValue: "unsupportedProcess")
        /// A scan refers to a Huffman table that no DHT segment defined.
        public static let missingTable = Code(rawValue: "missingTable")
        /// A DHT segment whose code lengths over-fill the code space or whose values are not difference
        /// categories 0…16.
        public static let invalidTable = Code(rawValue: "invalidTable")
        /// Bits in the entropy-coded data that match no code of the table in use.
        public static let invalidCode = Code(rawValue: "invalidCode")
        /// A header field outside the range T.81 allows (precision, predictor, component ids, lengths).
        public static let invalidValue = Code(rawValue: "invalidValue")
        /// A size above `WireLimits` (frame dimensions, pixel count).
        public static let limitExceeded = Code(rawValue: "limitExceeded")
        /// Encoder input that cannot be coded as asked: bad geometry, a sample above the precision, a parameter
        /// outside its range.
        public static let invalidInput = Code(rawValue: "invalidInput")
        /// The encoder could not get memory for its output.
        public static let outOfMemory = Code(rawValue: "outOfMemory")

        public var description: String { rawValue }
    }

    /// The kind of problem; `==` compares only this.
    public let code: Code
    /// The byte offset in the stream where the problem was found, or `nil` (encoder errors).
    public let offset: Int?
    /// What exactly is wrong: which field, which value.
    public let detail: String

    /// Creates an error; `offset` and `detail` are context and do not take part in `==`.
    public init(_ code: Code, at offset: Int? = nil, _ detail: String = "") {
        self.code = code
        self.offset = offset
        self.detail = detail
    }

    /// Wraps an error from the byte cursor that parses marker segments, keeping its offset and detail.
    init(_ wire: WireError, while context: String) {
        let code: Code =
            switch wire.code {
            case .truncated: .truncated
            case .limitExceeded: .limitExceeded
            default: .invalidValue
            }
        self.init(code, at: wire.offset, "\(context): \(wire.detail)")
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String {
        var text = "\(code)"
        if let offset { text += " at byte \(offset)" }
        if !detail.isEmpty { text += ": \(detail)" }
        return text
    }
}

extension LJ92Error {
    /// The same error with its offset moved from buffer-relative to absolute.
    func shifted(by base: Int) -> LJ92Error {
        LJ92Error(code, at: offset.map { $0 + base }, detail)
    }
}
