import WireFormat

/// The pure framing step for a PTP/IP byte stream: append bytes as they arrive, then take packets with
/// ``decode()``; `nil` means "need more bytes".
///
/// Limits apply as soon as a header is complete, before its payload is buffered: a control packet longer than
/// ``WireFormat/WireLimits/maxPTPIPControlPacketLength`` or a Data/End Data packet longer than
/// ``WireFormat/WireLimits/maxPTPIPPacketLength`` is an error, not a buffer. After an error the stream cannot be
/// resynchronised; the connection must be dropped.
///
/// ``decodeStreaming()`` is the same framing for a receiver of large data phases: control packets come whole, but
/// the payload of a Data or End Data packet is handed out in ``PayloadPiece``s as its bytes arrive, as slices of
/// the received buffers, so an object is never buffered or copied here whatever its packets' size. A stream is read
/// with one of the two calls, not both while a payload is being handed out.
public struct PTPIPFrameDecoder: Sendable {
    /// A piece of a Data or End Data packet's payload (see ``decodeStreaming()``).
    ///
    /// The first piece of a packet (``offset`` 0) comes as soon as the packet's header and transaction ID are
    /// there, possibly with no bytes yet, so that the receiver can check ``payloadByteCount`` before taking any.
    public struct PayloadPiece: Sendable, Hashable {
        /// ``PTPIPPacketType/data`` or ``PTPIPPacketType/endData``.
        public var type: PTPIPPacketType
        /// The packet's transaction ID.
        public var transactionID: UInt32
        /// The packet's whole payload size: its Length less the header and the transaction ID.
        public var payloadByteCount: Int
        /// Where ``bytes`` start in the packet's payload.
        public var offset: Int
        /// The payload bytes that arrived, a slice of a received buffer (no copy).
        public var bytes: ArraySlice<UInt8>

        /// Whether this is the packet's first piece (its header was just read).
        public var isFirst: Bool { offset == 0 }
        /// Whether this piece ends the packet.
        public var isLast: Bool { offset + bytes.count == payloadByteCount }
    }

    /// What ``decodeStreaming()`` returns.
    public enum Frame: Sendable, Hashable {
        /// A whole packet other than Data and End Data.
        case packet(PTPIPPacket)
        /// A piece of a Data or End Data payload.
        case payload(PayloadPiece)
    }

    /// The Data or End Data packet whose payload is being handed out.
    private struct OpenPayload: Sendable {
        var type: PTPIPPacketType
        var transactionID: UInt32
        var byteCount: Int
        var handedOut: Int
    }

    private var buffer: [UInt8] = []
    private var head = 0
    /// Stream offset of `buffer[0]`, for error offsets.
    private var base = 0
    private var open: OpenPayload?

    /// Creates an empty decoder.
    public init() {}

    /// Bytes received and not yet decoded.
    public var bufferedByteCount: Int { buffer.count - head }

    /// Adds received bytes. An array is adopted without a copy when everything before it has been taken.
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
        precondition(open == nil, "PTPIPFrameDecoder.decode() called while decodeStreaming() hands out a payload")
        do {
            return try decodeWhole()
        } catch {
            // Report the offset in stream terms rather than buffer terms.
            throw WireError(error.code, at: error.offset.map { $0 + base }, error.detail)
        }
    }

    /// One whole packet from the buffer; error offsets are buffer offsets.
    private mutating func decodeWhole() throws(WireError) -> PTPIPPacket? {
        var slice = buffer[head...]
        let before = slice.count
        guard let packet = try PTPIPPacket.decode(&slice) else { return nil }
        head += before - slice.count
        return packet
    }

    /// The next whole control packet or the next piece of a Data/End Data payload; `nil` when more bytes are
    /// needed.
    ///
    /// Headers are checked as in ``decode()`` (type, Length, limits) before anything else is taken. A Data or End
    /// Data packet too short to hold its transaction ID is the same error ``decode()`` throws for it.
    public mutating func decodeStreaming() throws(WireError) -> Frame? {
        if open == nil {
            let available = buffer.count - head
            guard available >= PTPIPPacket.headerByteCount else { return nil }
            let prefix = PTPIPPacket.headerByteCount + 4
            var header = WireReader(buffer[head..<(head + min(prefix, available))], byteOrder: .little)
            do {
                let length = try header.read(UInt32.self)
                let type = PTPIPPacketType(rawValue: try header.read(UInt32.self))
                try PTPIPPacket.validateHeader(length: length, type: type, at: head)
                // Control packets, and data packets too short for a transaction ID (an error), are decoded whole.
                guard type.carriesData, Int(length) >= prefix else { return try decodeWhole().map(Frame.packet) }
                guard available >= prefix else { return nil }
                let transactionID = try header.read(UInt32.self)
                open = OpenPayload(
                    type: type, transactionID: transactionID, byteCount: Int(length) - prefix, handedOut: 0)
            } catch {
                throw WireError(error.code, at: error.offset.map { $0 + base }, error.detail)
            }
            head += prefix
        } else if head == buffer.count {
            return nil
        }
        return .payload(takePiece())
    }

    /// Hands out what has arrived of the open payload (possibly nothing, for a packet's first piece).
    private mutating func takePiece() -> PayloadPiece {
        guard var current = open else { preconditionFailure("takePiece() without an open payload") }
        let count = min(buffer.count - head, current.byteCount - current.handedOut)
        let piece = PayloadPiece(
            type: current.type, transactionID: current.transactionID, payloadByteCount: current.byteCount,
            offset: current.handedOut, bytes: buffer[head..<(head + count)])
        head += count
        current.handedOut += count
        open = current.handedOut == current.byteCount ? nil : current
        return piece
    }
}
