/// A capture file that is not valid pcap or pcapng: bad magic, a block whose length does not add up, a record
/// longer than the limits, a file that ends inside a block.
///
/// Shaped like the other layers' errors: a stable ``code`` (`==` compares it alone), the byte offset of the block
/// or record that is wrong, and a detail.
public struct PcapError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String
        /// Wraps a name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Neither a pcap nor a pcapng magic number at the start.
        public static let unknownFormat = Code(rawValue: "unknownFormat")
        /// The file ends inside a header, block or record.
        public static let truncated = Code(rawValue: "truncated")
        /// A length or field that cannot be right (a block length under 12 or not a multiple of 4, mismatched
        /// leading and trailing lengths, a packet referring to an interface that was never described).
        public static let malformed = Code(rawValue: "malformed")
        /// A length over ``CaptureLimits`` (a hostile file, or one rawcap will not hold in memory).
        public static let limitExceeded = Code(rawValue: "limitExceeded")
        /// A version of the format rawcap does not read.
        public static let unsupportedVersion = Code(rawValue: "unsupportedVersion")
        /// The file could not be read.
        public static let ioError = Code(rawValue: "ioError")

        /// The name.
        public var description: String { rawValue }
    }

    /// What is wrong.
    public let code: Code
    /// The byte offset in the file of the block (pcapng) or record (pcap) that is wrong.
    public let blockOffset: UInt64?
    /// Human context.
    public let detail: String

    /// Creates an error.
    public init(_ code: Code, at blockOffset: UInt64? = nil, _ detail: String = "") {
        self.code = code
        self.blockOffset = blockOffset
        self.detail = detail
    }

    /// Compares codes only.
    public static func == (lhs: PcapError, rhs: PcapError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// E.g. `malformed at block offset 0x1c: block length 7 is not a multiple of 4`.
    public var description: String {
        var text = code.rawValue
        if let blockOffset { text += " at block offset 0x\(String(blockOffset, radix: 16))" }
        if !detail.isEmpty { text += ": \(detail)" }
        return text
    }
}
