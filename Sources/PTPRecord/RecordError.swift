/// A recording that cannot be written, or a capture whose PTP conversation cannot be rebuilt: a TCP stream with
/// a hole, PTP framing that does not add up, no PTP traffic at all, a conversation over the limits.
///
/// Like ``PcapError`` it carries the byte offset of the block where the problem showed, when there is one.
public struct RecordError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String
        /// Wraps a name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A TCP stream misses bytes that later bytes depend on (the capture dropped packets).
        public static let streamGap = Code(rawValue: "streamGap")
        /// A packet's link-layer, IP, TCP, usbmon or USBPcap header does not decode.
        public static let malformedPacket = Code(rawValue: "malformedPacket")
        /// The PTP or PTP/IP framing in a stream or in USB transfers does not decode.
        public static let malformedPTP = Code(rawValue: "malformedPTP")
        /// The capture holds no PTP conversation rawcap can find.
        public static let noPTPTraffic = Code(rawValue: "noPTPTraffic")
        /// A data phase, a buffer or the whole conversation is over ``CaptureLimits``.
        public static let limitExceeded = Code(rawValue: "limitExceeded")
        /// Writing the recording failed (disk full, permission denied, the file exists).
        public static let ioError = Code(rawValue: "ioError")
        /// The recording was closed before this write.
        public static let closed = Code(rawValue: "closed")

        /// The name.
        public var description: String { rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// The byte offset in the capture of the block where it showed, when known.
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
    public static func == (lhs: RecordError, rhs: RecordError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// E.g. `streamGap at block offset 0x2f0: 10.0.0.2:15740 → 10.0.0.1:50000 misses 1448 bytes`.
    public var description: String {
        var text = code.rawValue
        if let blockOffset { text += " at block offset 0x\(String(blockOffset, radix: 16))" }
        if !detail.isEmpty { text += ": \(detail)" }
        return text
    }
}
