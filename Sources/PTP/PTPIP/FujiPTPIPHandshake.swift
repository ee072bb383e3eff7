import WireFormat

/// The two packets of Fujifilm's Wi-Fi handshake, the only part of its protocol that resembles PTP/IP.
///
/// Layout (libgphoto2 `fujiptpip.c` `ptp_fujiptpip_init_command_request` and `ptp_fujiptpip_init_command_ack`;
/// camlib/fudge `fujiptp.h` `FUJI_PROTOCOL_VERSION`), little-endian:
///
/// | Init Command Request (host → camera) | type |
/// |---|---|
/// | length | UINT32, the whole packet |
/// | type | UINT32, 1 (as PTP/IP's Init Command Request) |
/// | protocol version | UINT32, 0x8F53E4F2 (Fujifilm's magic, in place of PTP/IP's 0x00010000) |
/// | GUID | 16 bytes |
/// | name | UCS-2, NUL-terminated (no PTP/IP version after it) |
///
/// | Init Command Ack (camera → host) | type |
/// |---|---|
/// | length, type | UINT32, UINT32 2; or type 5 (Init Fail) with a UINT32 reason |
/// | connection number | UINT32 |
/// | GUID | 16 bytes |
/// | name | UCS-2, NUL-terminated; bytes after it are ignored, as libgphoto2 does |
public enum FujiPTPIPHandshake {
    /// Fujifilm's protocol version word.
    public static let protocolVersion: UInt32 = 0x8F53_E4F2
    /// PTP/IP's Init Command Request type.
    public static let requestType: UInt32 = 1
    /// PTP/IP's Init Command Ack type.
    public static let ackType: UInt32 = 2
    /// PTP/IP's Init Fail type.
    public static let failType: UInt32 = 5
    /// The longest handshake packet accepted: a name of up to 255 characters is plenty.
    public static let maxPacketLength = 8 + 4 + 16 + 512 + 64

    /// The host's hello.
    public struct Request: Hashable, Sendable {
        /// The host's GUID.
        public var guid: PTPIPGUID
        /// The host's name, as the camera shows it.
        public var name: String
        /// The protocol version word (``FujiPTPIPHandshake/protocolVersion`` from a Fujifilm host).
        public var protocolVersion: UInt32

        /// Creates a request.
        public init(guid: PTPIPGUID, name: String, protocolVersion: UInt32 = FujiPTPIPHandshake.protocolVersion) {
            (self.guid, self.name, self.protocolVersion) = (guid, name, protocolVersion)
        }

        /// The packet's bytes.
        public var encoded: [UInt8] {
            var body = WireWriter(byteOrder: .little)
            body.write(requestType)
            body.write(protocolVersion)
            body.write(bytes: guid.bytes)
            FujiPTPIPHandshake.writeName(name, into: &body)
            return FujiPTPIPHandshake.framed(body.bytes)
        }

        /// Reads a request from a whole packet (length included).
        ///
        /// - Throws: `WireError` for a short packet, another type, or a name without its NUL.
        public init(packet: [UInt8]) throws(WireError) {
            var reader = try FujiPTPIPHandshake.body(of: packet)
            let type = try reader.read(UInt32.self)
            guard type == requestType else {
                throw WireError(.invalidValue, at: 4, "packet type \(type), expected an Init Command Request (1)")
            }
            protocolVersion = try reader.read()
            guard let guid = PTPIPGUID(Array(try reader.readBytes(count: 16))) else {
                throw WireError(.truncated, at: 12, "GUID")
            }
            self.guid = guid
            name = try FujiPTPIPHandshake.readName(&reader)
        }
    }

    /// The camera's answer.
    public enum Answer: Hashable, Sendable {
        /// Init Command Ack.
        case ack(connectionNumber: UInt32, guid: PTPIPGUID, name: String)
        /// Init Fail with its reason (PTP/IP: 1 rejected initiator, 2 busy, 3 unspecified).
        case fail(reason: UInt32)

        /// The packet's bytes.
        public var encoded: [UInt8] {
            var body = WireWriter(byteOrder: .little)
            switch self {
            case .ack(let connectionNumber, let guid, let name):
                body.write(ackType)
                body.write(connectionNumber)
                body.write(bytes: guid.bytes)
                FujiPTPIPHandshake.writeName(name, into: &body)
            case .fail(let reason):
                body.write(failType)
                body.write(reason)
            }
            return FujiPTPIPHandshake.framed(body.bytes)
        }

        /// Reads an answer from a whole packet (length included).
        public init(packet: [UInt8]) throws(WireError) {
            var reader = try FujiPTPIPHandshake.body(of: packet)
            switch try reader.read(UInt32.self) {
            case ackType:
                let connectionNumber = try reader.read(UInt32.self)
                guard let guid = PTPIPGUID(Array(try reader.readBytes(count: 16))) else {
                    throw WireError(.truncated, at: 12, "GUID")
                }
                self = .ack(
                    connectionNumber: connectionNumber, guid: guid, name: try FujiPTPIPHandshake.readName(&reader))
            case failType:
                self = .fail(reason: reader.remainingCount >= 4 ? try reader.read(UInt32.self) : 0)
            case let type:
                throw WireError(
                    .invalidValue, at: 4, "packet type \(type), expected Init Command Ack (2) or Init Fail (5)")
            }
        }
    }

    /// The length a packet's first four bytes announce, checked against ``maxPacketLength``.
    public static func announcedLength(_ header: [UInt8]) throws(WireError) -> Int {
        var reader = WireReader(header[...], byteOrder: .little)
        let length = Int(try reader.read(UInt32.self))
        guard length >= 8, length <= maxPacketLength else {
            throw WireError(.limitExceeded, at: 0, "handshake packet of \(length) bytes (8…\(maxPacketLength))")
        }
        return length
    }

    private static func framed(_ body: [UInt8]) -> [UInt8] {
        var writer = WireWriter(byteOrder: .little)
        writer.write(UInt32(body.count + 4))
        writer.write(bytes: body)
        return writer.bytes
    }

    private static func body(of packet: [UInt8]) throws(WireError) -> WireReader {
        let length = try announcedLength(Array(packet.prefix(4)))
        guard length == packet.count else {
            throw WireError(.truncated, at: 0, "packet announces \(length) bytes, has \(packet.count)")
        }
        return WireReader(packet[4...], byteOrder: .little)
    }

    private static func writeName(_ name: String, into writer: inout WireWriter) {
        for unit in name.utf16.prefix(255) { writer.write(unit) }
        writer.write(UInt16(0))
    }

    private static func readName(_ reader: inout WireReader) throws(WireError) -> String {
        var units: [UInt16] = []
        while true {
            let unit = try reader.read(UInt16.self)
            if unit == 0 { break }
            units.append(unit)
        }
        return String(decoding: units, as: UTF16.self)
    }
}
