import WireFormat

/// One end of a TCP connection: an IPv4 (4 bytes) or IPv6 (16 bytes) address and a port.
public struct TCPEndpoint: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The address in network byte order.
    public var address: [UInt8]
    /// The port.
    public var port: UInt16

    /// Creates an endpoint.
    public init(address: [UInt8], port: UInt16) { (self.address, self.port) = (address, port) }

    /// Orders endpoints by address, then port (to name a connection the same way from both sides).
    public static func < (lhs: TCPEndpoint, rhs: TCPEndpoint) -> Bool {
        lhs.address.lexicographicallyPrecedes(rhs.address) || (lhs.address == rhs.address && lhs.port < rhs.port)
    }

    /// `10.0.0.1:50000`, or `[2001:db8::1]:15740`.
    public var description: String {
        if address.count == 4 { return address.map(String.init).joined(separator: ".") + ":\(port)" }
        var groups: [String] = []
        var index = 0
        while index + 1 < address.count {
            groups.append(String(UInt16(address[index]) << 8 | UInt16(address[index + 1]), radix: 16))
            index += 2
        }
        return "[\(groups.joined(separator: ":"))]:\(port)"
    }
}

/// A TCP segment inside an IPv4 or IPv6 packet (RFC 791, RFC 8200, RFC 9293): what the recorder writes for
/// PTP/IP and what the reader takes apart.
///
/// Encoding always produces IPv4 with a 20-byte header (Don't Fragment set, TTL 64) and a 20-byte TCP header,
/// both with correct checksums, so Wireshark shows no checksum warnings. Decoding accepts IPv4 with options and
/// IPv6 whose next header is TCP; fragments are rejected (PTP/IP over TCP does not fragment at the IP layer in
/// practice, and reassembling IP fragments is not worth the attack surface).
public struct TCPSegment: Hashable, Sendable {
    /// TCP flag bits.
    public struct Flags: OptionSet, Hashable, Sendable {
        /// The flag byte.
        public let rawValue: UInt8
        /// Wraps a flag byte.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// FIN: the sender is done sending.
        public static let fin = Flags(rawValue: 0x01)
        /// SYN: opens the connection.
        public static let syn = Flags(rawValue: 0x02)
        /// RST: aborts the connection.
        public static let rst = Flags(rawValue: 0x04)
        /// PSH.
        public static let psh = Flags(rawValue: 0x08)
        /// ACK: the acknowledgment number is valid.
        public static let ack = Flags(rawValue: 0x10)
    }

    /// The largest payload of one encoded segment: an IPv4 packet is at most 65535 bytes, headers take 40.
    public static let maxEncodedPayloadByteCount = 65535 - 40

    /// The sender.
    public var source: TCPEndpoint
    /// The receiver.
    public var destination: TCPEndpoint
    /// The sequence number of the first payload byte (or of the SYN/FIN).
    public var sequenceNumber: UInt32
    /// The next sequence number the sender expects from the other side.
    public var acknowledgmentNumber: UInt32
    /// The flags.
    public var flags: Flags
    /// The payload as captured.
    public var payload: ArraySlice<UInt8>
    /// The payload's length according to the IP header: more than `payload.count` when the capture's snap length
    /// cut the packet.
    public var declaredPayloadByteCount: Int

    /// Creates a segment.
    public init(
        source: TCPEndpoint, destination: TCPEndpoint, sequenceNumber: UInt32, acknowledgmentNumber: UInt32,
        flags: Flags, payload: ArraySlice<UInt8> = []
    ) {
        self.source = source
        self.destination = destination
        self.sequenceNumber = sequenceNumber
        self.acknowledgmentNumber = acknowledgmentNumber
        self.flags = flags
        self.payload = payload
        declaredPayloadByteCount = payload.count
    }

    // MARK: Encoding

    /// The segment as an IPv4 packet (link type 101 or 228). Both endpoints must be IPv4 and the payload at most
    /// ``maxEncodedPayloadByteCount`` bytes (programmer errors otherwise).
    public func ipv4Encoded(identification: UInt16) -> [UInt8] {
        precondition(source.address.count == 4 && destination.address.count == 4, "IPv4 endpoints expected")
        precondition(payload.count <= Self.maxEncodedPayloadByteCount, "TCP payload over one IPv4 packet")
        var writer = WireWriter(byteOrder: .big, capacity: 40 + payload.count)
        writer.write(UInt8(0x45))  // version 4, 5 words of header
        writer.write(UInt8(0))
        writer.write(UInt16(40 + payload.count))
        writer.write(identification)
        writer.write(UInt16(0x4000))  // Don't Fragment
        writer.write(UInt8(64))
        writer.write(UInt8(6))  // TCP
        writer.write(UInt16(0))  // header checksum, patched below
        writer.write(bytes: source.address)
        writer.write(bytes: destination.address)
        writer.set(Self.checksum(writer.bytes[0..<20]), at: 10)
        writer.write(source.port)
        writer.write(destination.port)
        writer.write(sequenceNumber)
        writer.write(flags.contains(.ack) ? acknowledgmentNumber : 0)
        writer.write(UInt8(5 << 4))  // 5 words of header, no options
        writer.write(flags.rawValue)
        writer.write(UInt16(65535))  // window
        writer.write(UInt16(0))  // checksum, patched below
        writer.write(UInt16(0))  // urgent pointer
        writer.write(bytes: payload)
        var pseudo = WireWriter(byteOrder: .big, capacity: 12)
        pseudo.write(bytes: source.address)
        pseudo.write(bytes: destination.address)
        pseudo.write(UInt8(0))
        pseudo.write(UInt8(6))
        pseudo.write(UInt16(20 + payload.count))
        writer.set(Self.checksum(writer.bytes[20...], prefix: pseudo.bytes), at: 36)
        return writer.bytes
    }

    /// The Internet checksum (RFC 1071) of `prefix` followed by `bytes`.
    static func checksum(_ bytes: ArraySlice<UInt8>, prefix: [UInt8] = []) -> UInt16 {
        var sum: UInt64 = 0
        func add(_ data: some Collection<UInt8>) {
            var high = true
            for byte in data {
                sum &+= high ? UInt64(byte) << 8 : UInt64(byte)
                high.toggle()
            }
        }
        add(prefix)  // always an even count
        add(bytes)
        while sum >> 16 != 0 { sum = (sum & 0xFFFF) + (sum >> 16) }
        return ~UInt16(truncatingIfNeeded: sum)
    }

    // MARK: Decoding

    /// Decodes an IPv4 or IPv6 packet carrying TCP; `nil` for other protocols, fragments and IPv6 extension
    /// headers. A cut packet (snap length) yields the payload bytes that were captured.
    ///
    /// - Throws: `WireError` when the headers are truncated or inconsistent.
    public static func decode(ipPacket bytes: ArraySlice<UInt8>) throws(WireError) -> TCPSegment? {
        guard let first = bytes.first else { throw WireError(.truncated, at: bytes.startIndex, "empty IP packet") }
        var reader = WireReader(bytes, byteOrder: .big)
        let source: [UInt8]
        let destination: [UInt8]
        var tcpByteCount: Int
        switch first >> 4 {
        case 4:
            let versionAndLength = try reader.read(UInt8.self)
            let headerLength = Int(versionAndLength & 0x0F) * 4
            guard headerLength >= 20 else {
                throw WireError(.invalidValue, at: bytes.startIndex, "IPv4 header length \(headerLength)")
            }
            try reader.skip(1)
            let totalLength = Int(try reader.read(UInt16.self))
            try reader.skip(2)
            let fragment = try reader.read(UInt16.self)
            try reader.skip(1)
            let proto = try reader.read(UInt8.self)
            try reader.skip(2)
            source = Array(try reader.readBytes(count: 4))
            destination = Array(try reader.readBytes(count: 4))
            try reader.skip(headerLength - 20)
            guard proto == 6, fragment & 0x3FFF == 0 else { return nil }
            guard totalLength >= headerLength else {
                throw WireError(.invalidValue, at: bytes.startIndex, "IPv4 total length \(totalLength)")
            }
            tcpByteCount = totalLength - headerLength
        case 6:
            try reader.skip(4)
            let payloadLength = Int(try reader.read(UInt16.self))
            let nextHeader = try reader.read(UInt8.self)
            try reader.skip(1)
            source = Array(try reader.readBytes(count: 16))
            destination = Array(try reader.readBytes(count: 16))
            guard nextHeader == 6 else { return nil }
            tcpByteCount = payloadLength
        default:
            return nil
        }
        // Ethernet pads short frames; a snap length cuts long ones. Keep what is both declared and present.
        let tcpStart = reader.offset
        let sourcePort = try reader.read(UInt16.self)
        let destinationPort = try reader.read(UInt16.self)
        let sequence = try reader.read(UInt32.self)
        let acknowledgment = try reader.read(UInt32.self)
        let offsetByte = try reader.read(UInt8.self)
        let flagByte = try reader.read(UInt8.self)
        let headerLength = Int(offsetByte >> 4) * 4
        guard headerLength >= 20, tcpByteCount >= headerLength else {
            throw WireError(.invalidValue, at: tcpStart, "TCP header length \(headerLength) of \(tcpByteCount)")
        }
        try reader.skip(headerLength - 14)
        tcpByteCount -= headerLength
        let payload = reader.readRemaining().prefix(tcpByteCount)
        var segment = TCPSegment(
            source: TCPEndpoint(address: source, port: sourcePort),
            destination: TCPEndpoint(address: destination, port: destinationPort), sequenceNumber: sequence,
            acknowledgmentNumber: acknowledgment, flags: Flags(rawValue: flagByte & 0x1F), payload: payload)
        segment.declaredPayloadByteCount = tcpByteCount
        return segment
    }
}
