import WireFormat

/// The pure framing step for a PTP/IP byte stream: append bytes as they arrive, then take packets with
/// ``decode()``; `nil` means "need more bytes".
///
/// Limits apply as soon as a header is complete, before its payload is buffered: a control packet longer than
/// ``WireFormat/WireLimits/maxPTPIPControlPacketLength`` or a Data/End Data packet longer than
/// ``WireFormat/WireLimits/maxPTPIPPacketLength`` is an error, not a buffer. After an error the stream cannot be
/// resynchronised; the connection must be dropped.
public struct PTPIPFrameDecoder: Sendable {
    private var buffer: [UInt8] = []
    private var head = 0
    /// Stream offset of `buffer[0]`, for error offsets.
    private var base = 0

    /// Creates an empty decoder.
    public init() {}

    /// Bytes received and not yet decoded.
    public var bufferedByteCount: Int { buffer.count - head }

    /// Adds received bytes.
    public mutating func append<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if head == buffer.count {
            base += buffer.count
            buffer = Array(bytes)
            head = 0
            return
        }
        if head > 65_536 && head * 2 > buffer.count {
            base += head
            buffer.removeFirst(head)
            head = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete packet, or `nil` when more bytes are needed.
    public mutating func decode() throws(WireError) -> PTPIPPacket? {
        var slice = buffer[head...]
        let before = slice.count
        do {
            guard let packet = try PTPIPPacket.decode(&slice) else { return nil }
            head += before - slice.count
            return packet
        } catch {
            // Report the offset in stream terms rather than buffer terms.
            throw WireError(error.code, at: error.offset.map { $0 + base }, error.detail)
        }
    }
}
