import WireFormat

/// A 16-byte GUID identifying a PTP/IP initiator or responder, kept as raw bytes: cameras pair on it and must not
/// assume any format (Rocc sent ASCII digits to a Sony RX100M7; the Nikon WU-1 is said to expect 0011…7766).
public struct PTPIPGUID: Hashable, Sendable, CustomStringConvertible {
    /// The 16 bytes.
    public let bytes: [UInt8]

    /// Wraps exactly 16 bytes; `nil` otherwise.
    public init?(_ bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Sixteen random bytes (libgphoto2 makes one once and keeps it).
    public static func random() -> PTPIPGUID {
        var generator = SystemRandomNumberGenerator()
        return PTPIPGUID(unchecked: (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    init(unchecked bytes: [UInt8]) { self.bytes = bytes }

    /// 32 lower-case hex digits.
    public var description: String {
        let digits: [Character] = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
    }
}

/// Why a responder refused a connection in Init Fail (values as ptpy reads them; CIPA DC-X005 §2.3.5).
public struct PTPIPInitFailReason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 32-bit reason.
    public let rawValue: UInt32
    /// Wraps any value.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// 1: the responder does not accept this initiator (not paired).
    public static let rejectedInitiator = PTPIPInitFailReason(rawValue: 1)
    /// 2: the responder is busy with another initiator.
    public static let busy = PTPIPInitFailReason(rawValue: 2)
    /// 3: unspecified.
    public static let unspecified = PTPIPInitFailReason(rawValue: 3)

    /// The reason's name, or `Unknown(n)`.
    public var description: String {
        switch rawValue {
        case 1: "RejectedInitiator"
        case 2: "Busy"
        case 3: "Unspecified"
        default: "Unknown(\(rawValue))"
        }
    }
}

/// PTP/IP's DataPhaseInfo field of an Operation Request (libgphoto2 `ptpip.c`: 1 no data or data-in, 2 data-out).
public struct PTPIPDataPhase: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 32-bit value.
    public let rawValue: UInt32
    /// Wraps any value.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// 1: no data phase, or a data phase from the responder.
    public static let noneOrIn = PTPIPDataPhase(rawValue: 1)
    /// 2: a data phase from the initiator.
    public static let out = PTPIPDataPhase(rawValue: 2)

    /// `NoneOrIn`, `Out` or `Unknown(n)`.
    public var description: String {
        switch rawValue {
        case 1: "NoneOrIn"
        case 2: "Out"
        default: "Unknown(\(rawValue))"
        }
    }
}

/// One PTP/IP packet (CIPA DC-X005 §2.3): an 8-byte header (UINT32 Length including the header, UINT32 Type),
/// then the payload of its type.
///
/// | type | payload |
/// |---|---|
/// | 1 Init Command Request | GUID[16], FriendlyName (UCS-2LE, NUL-terminated, no count), UINT32 ProtocolVersion |
/// | 2 Init Command Ack | UINT32 ConnectionNumber, GUID[16], FriendlyName, UINT32 ProtocolVersion (optional) |
/// | 3 Init Event Request | UINT32 ConnectionNumber |
/// | 4 Init Event Ack | — |
/// | 5 Init Fail | UINT32 Reason |
/// | 6 Operation Request | UINT32 DataPhaseInfo, UINT16 OperationCode, UINT32 TransactionID, UINT32 × 0…5 |
/// | 7 Operation Response | UINT16 ResponseCode, UINT32 TransactionID, UINT32 × 0…5 |
/// | 8 Event | UINT16 EventCode, UINT32 TransactionID, UINT32 × 0…3 |
/// | 9 Start Data | UINT32 TransactionID, UINT64 TotalDataLength (all ones: unknown) |
/// | 10 Data, 12 End Data | UINT32 TransactionID, payload |
/// | 11 Cancel | UINT32 TransactionID |
/// | 13 Probe Request, 14 Probe Response | — |
///
/// ProtocolVersion is 0x00010000 for 1.0 (major in the high half). libgphoto2 accepts an Init Command Ack without
/// it; so does this decoder, with ``InitCommandAck/protocolVersion`` `nil`.
public enum PTPIPPacket: Hashable, Sendable, CustomStringConvertible {
    /// Type 1.
    case initCommandRequest(InitCommandRequest)
    /// Type 2.
    case initCommandAck(InitCommandAck)
    /// Type 3.
    case initEventRequest(connectionNumber: UInt32)
    /// Type 4.
    case initEventAck
    /// Type 5.
    case initFail(reason: PTPIPInitFailReason)
    /// Type 6.
    case operationRequest(dataPhase: PTPIPDataPhase, code: OperationCode, transactionID: UInt32, parameters: [UInt32])
    /// Type 7.
    case operationResponse(code: ResponseCode, transactionID: UInt32, parameters: [UInt32])
    /// Type 8.
    case event(code: EventCode, transactionID: UInt32, parameters: [UInt32])
    /// Type 9.
    case startData(transactionID: UInt32, totalLength: UInt64)
    /// Type 10.
    case data(transactionID: UInt32, payload: [UInt8])
    /// Type 11.
    case cancel(transactionID: UInt32)
    /// Type 12.
    case endData(transactionID: UInt32, payload: [UInt8])
    /// Type 13.
    case probeRequest
    /// Type 14.
    case probeResponse

    /// The header's size in bytes.
    public static let headerByteCount = 8
    /// Start Data's TotalDataLength when the responder does not know it.
    public static let unknownTotalLength = UInt64.max
    /// PTP/IP 1.0, major version in the high 16 bits.
    public static let protocolVersion1_0: UInt32 = 0x0001_0000

    /// The initiator's hello (type 1).
    public struct InitCommandRequest: Hashable, Sendable {
        /// The initiator's GUID.
        public var guid: PTPIPGUID
        /// The initiator's name (libgphoto2 sends the host name).
        public var friendlyName: String
        /// The protocol version, 0x00010000 for 1.0.
        public var protocolVersion: UInt32

        /// Creates the packet's payload.
        public init(guid: PTPIPGUID, friendlyName: String, protocolVersion: UInt32 = PTPIPPacket.protocolVersion1_0) {
            (self.guid, self.friendlyName, self.protocolVersion) = (guid, friendlyName, protocolVersion)
        }
    }

    /// The responder's answer (type 2).
    public struct InitCommandAck: Hashable, Sendable {
        /// The connection number the event connection must quote.
        public var connectionNumber: UInt32
        /// The responder's GUID.
        public var guid: PTPIPGUID
        /// The responder's name (the camera model).
        public var friendlyName: String
        /// The protocol version; `nil` when the responder left it out.
        public var protocolVersion: UInt32?

        /// Creates the packet's payload.
        public init(
            connectionNumber: UInt32, guid: PTPIPGUID, friendlyName: String,
            protocolVersion: UInt32? = PTPIPPacket.protocolVersion1_0
        ) {
            (self.connectionNumber, self.guid, self.friendlyName) = (connectionNumber, guid, friendlyName)
            self.protocolVersion = protocolVersion
        }
    }

    /// The packet's type.
    public var type: PTPIPPacketType {
        switch self {
        case .initCommandRequest: .initCommandRequest
        case .initCommandAck: .initCommandAck
        case .initEventRequest: .initEventRequest
        case .initEventAck: .initEventAck
        case .initFail: .initFail
        case .operationRequest: .operationRequest
        case .operationResponse: .operationResponse
        case .event: .event
        case .startData: .startData
        case .data: .data
        case .cancel: .cancel
        case .endData: .endData
        case .probeRequest: .probeRequest
        case .probeResponse: .probeResponse
        }
    }

    // MARK: Encoding

    /// The packet's bytes, header included. Parameter counts above the limits, and names with a NUL, are
    /// programmer errors (a name is cut at its first NUL).
    public var ptpipEncoded: [UInt8] {
        var writer = WireWriter(byteOrder: .little)
        writer.write(UInt32(0))
        writer.write(type.rawValue)
        switch self {
        case .initCommandRequest(let request):
            writer.write(bytes: request.guid.bytes)
            Self.writeName(request.friendlyName, into: &writer)
            writer.write(request.protocolVersion)
        case .initCommandAck(let ack):
            writer.write(ack.connectionNumber)
            writer.write(bytes: ack.guid.bytes)
            Self.writeName(ack.friendlyName, into: &writer)
            if let version = ack.protocolVersion { writer.write(version) }
        case .initEventRequest(let connectionNumber):
            writer.write(connectionNumber)
        case .initEventAck, .probeRequest, .probeResponse:
            break
        case .initFail(let reason):
            writer.write(reason.rawValue)
        case .operationRequest(let dataPhase, let code, let transactionID, let parameters):
            precondition(parameters.count <= 5, "an Operation Request carries at most 5 parameters")
            writer.write(dataPhase.rawValue)
            writer.write(code.rawValue)
            writer.write(transactionID)
            for parameter in parameters { writer.write(parameter) }
        case .operationResponse(let code, let transactionID, let parameters):
            precondition(parameters.count <= 5, "an Operation Response carries at most 5 parameters")
            writer.write(code.rawValue)
            writer.write(transactionID)
            for parameter in parameters { writer.write(parameter) }
        case .event(let code, let transactionID, let parameters):
            precondition(parameters.count <= 3, "an Event carries at most 3 parameters")
            writer.write(code.rawValue)
            writer.write(transactionID)
            for parameter in parameters { writer.write(parameter) }
        case .startData(let transactionID, let totalLength):
            writer.write(transactionID)
            writer.write(totalLength)
        case .data(let transactionID, let payload), .endData(let transactionID, let payload):
            writer.write(transactionID)
            writer.write(bytes: payload)
        case .cancel(let transactionID):
            writer.write(transactionID)
        }
        writer.set(UInt32(truncatingIfNeeded: writer.count), at: 0)
        return writer.bytes
    }

    private static func writeName(_ name: String, into writer: inout WireWriter) {
        for unit in name.utf16 {
            if unit == 0 { break }
            writer.write(unit)
        }
        writer.write(UInt16(0))
    }

    // MARK: Decoding

    /// Decodes exactly one whole packet.
    ///
    /// - Throws: ``WireFormat/WireError/Code/truncated`` when the bytes end before Length says (or before the
    ///   payload's fields), ``WireFormat/WireError/Code/trailingBytes`` when they go on after it,
    ///   ``WireFormat/WireError/Code/limitExceeded`` for a Length over the limits, and
    ///   ``WireFormat/WireError/Code/invalidValue`` for an unknown type or a malformed payload.
    public init(ptpipEncoded bytes: [UInt8]) throws(WireError) {
        var buffer = bytes[...]
        guard let packet = try Self.decode(&buffer) else {
            throw WireError(.truncated, at: bytes.count, "PTP/IP packet ends early")
        }
        guard buffer.isEmpty else { throw WireError(.trailingBytes, at: buffer.startIndex, "after PTP/IP packet") }
        self = packet
    }

    /// Checks a header before its payload is buffered: the length must cover the header and stay within the
    /// limit for its type.
    static func validateHeader(length: UInt32, type: PTPIPPacketType, at offset: Int) throws(WireError) {
        guard (1...14).contains(type.rawValue) else {
            throw WireError(.invalidValue, at: offset + 4, "PTP/IP packet type \(type.rawValue)")
        }
        guard length >= UInt32(headerByteCount) else {
            throw WireError(.invalidValue, at: offset, "PTP/IP Length \(length) is under 8")
        }
        let limit = type.carriesData ? WireLimits.maxPTPIPPacketLength : WireLimits.maxPTPIPControlPacketLength
        guard UInt64(length) <= UInt64(limit) else {
            throw WireError(.limitExceeded, at: offset, "PTP/IP \(type) packet of \(length) bytes (limit \(limit))")
        }
    }

    /// Takes one packet off the front of `buffer` when it is complete; returns `nil` (consuming nothing) when
    /// more bytes are needed. A header that breaks the limits throws as soon as its 8 bytes are there.
    public static func decode(_ buffer: inout ArraySlice<UInt8>) throws(WireError) -> PTPIPPacket? {
        guard buffer.count >= headerByteCount else { return nil }
        var header = WireReader(buffer.prefix(headerByteCount), byteOrder: .little)
        let length = try header.read(UInt32.self)
        let type = PTPIPPacketType(rawValue: try header.read(UInt32.self))
        try validateHeader(length: length, type: type, at: buffer.startIndex)
        let total = Int(length)
        guard buffer.count >= total else { return nil }
        var reader = WireReader(
            buffer[(buffer.startIndex + headerByteCount)..<(buffer.startIndex + total)], byteOrder: .little)
        let packet = try decodePayload(type, from: &reader)
        try reader.expectEnd("PTP/IP \(type) packet")
        buffer = buffer.dropFirst(total)
        return packet
    }

    private static func decodePayload(_ type: PTPIPPacketType, from reader: inout WireReader) throws(WireError)
        -> PTPIPPacket
    {
        func parameters(max: Int) throws(WireError) -> [UInt32] {
            let offset = reader.offset
            guard reader.remainingCount % 4 == 0, reader.remainingCount / 4 <= max else {
                throw WireError(
                    .invalidValue, at: offset, "\(reader.remainingCount) parameter bytes (at most \(max) UInt32)")
            }
            var values: [UInt32] = []
            while !reader.isAtEnd { values.append(try reader.read(UInt32.self)) }
            return values
        }
        switch type {
        case .initCommandRequest:
            let guid = PTPIPGUID(unchecked: Array(try reader.readBytes(count: 16)))
            let name = try readName(from: &reader)
            return .initCommandRequest(
                InitCommandRequest(guid: guid, friendlyName: name, protocolVersion: try reader.read()))
        case .initCommandAck:
            let connectionNumber = try reader.read(UInt32.self)
            let guid = PTPIPGUID(unchecked: Array(try reader.readBytes(count: 16)))
            let name = try readName(from: &reader)
            let version: UInt32? = reader.isAtEnd ? nil : try reader.read(UInt32.self)
            return .initCommandAck(
                InitCommandAck(
                    connectionNumber: connectionNumber, guid: guid, friendlyName: name, protocolVersion: version))
        case .initEventRequest:
            return .initEventRequest(connectionNumber: try reader.read())
        case .initEventAck:
            return .initEventAck
        case .initFail:
            return .initFail(reason: PTPIPInitFailReason(rawValue: try reader.read()))
        case .operationRequest:
            let dataPhase = PTPIPDataPhase(rawValue: try reader.read())
            let code = OperationCode(rawValue: try reader.read())
            let transactionID = try reader.read(UInt32.self)
            return .operationRequest(
                dataPhase: dataPhase, code: code, transactionID: transactionID, parameters: try parameters(max: 5))
        case .operationResponse:
            let code = ResponseCode(rawValue: try reader.read())
            let transactionID = try reader.read(UInt32.self)
            return .operationResponse(code: code, transactionID: transactionID, parameters: try parameters(max: 5))
        case .event:
            let code = EventCode(rawValue: try reader.read())
            let transactionID = try reader.read(UInt32.self)
            return .event(code: code, transactionID: transactionID, parameters: try parameters(max: 3))
        case .startData:
            let transactionID = try reader.read(UInt32.self)
            return .startData(transactionID: transactionID, totalLength: try reader.read())
        case .data:
            let transactionID = try reader.read(UInt32.self)
            return .data(transactionID: transactionID, payload: Array(reader.readRemaining()))
        case .cancel:
            return .cancel(transactionID: try reader.read())
        case .endData:
            let transactionID = try reader.read(UInt32.self)
            return .endData(transactionID: transactionID, payload: Array(reader.readRemaining()))
        case .probeRequest:
            return .probeRequest
        default:
            return .probeResponse
        }
    }

    /// Reads a NUL-terminated UCS-2LE name (no count); invalid UTF-16 becomes U+FFFD.
    private static func readName(from reader: inout WireReader) throws(WireError) -> String {
        var units: [UInt16] = []
        let start = reader.offset
        while true {
            let unit = try reader.read(UInt16.self)
            if unit == 0 { break }
            units.append(unit)
            if units.count > WireLimits.maxPTPStringUnits {
                throw WireError(
                    .limitExceeded, at: start, "PTP/IP friendly name over \(WireLimits.maxPTPStringUnits) units")
            }
        }
        return PTPString.decode(units: units)
    }

    /// E.g. `OperationResponse(OK, tid 2, [])`.
    public var description: String {
        switch self {
        case .initCommandRequest(let request):
            "InitCommandRequest(\(request.guid), \"\(request.friendlyName)\", \(hex(request.protocolVersion)))"
        case .initCommandAck(let ack): "InitCommandAck(#\(ack.connectionNumber), \(ack.guid), \"\(ack.friendlyName)\")"
        case .initEventRequest(let number): "InitEventRequest(#\(number))"
        case .initEventAck: "InitEventAck"
        case .initFail(let reason): "InitFail(\(reason))"
        case .operationRequest(let phase, let code, let id, let parameters):
            "OperationRequest(\(code), tid \(id), \(parameters.map(hex)), \(phase))"
        case .operationResponse(let code, let id, let parameters):
            "OperationResponse(\(code), tid \(id), \(parameters.map(hex)))"
        case .event(let code, let id, let parameters): "Event(\(code), tid \(id), \(parameters.map(hex)))"
        case .startData(let id, let total):
            "StartData(tid \(id), \(total == Self.unknownTotalLength ? "unknown" : String(total)) bytes)"
        case .data(let id, let payload): "Data(tid \(id), \(payload.count) bytes)"
        case .cancel(let id): "Cancel(tid \(id))"
        case .endData(let id, let payload): "EndData(tid \(id), \(payload.count) bytes)"
        case .probeRequest: "ProbeRequest"
        case .probeResponse: "ProbeResponse"
        }
    }
}
