/// The type of a PTP/IP packet (CIPA DC-X005 §2.3; Wireshark `packet-ptpip.c`; libgphoto2 `PTPIP_*`).
public struct PTPIPPacketType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 32-bit Type field.
    public let rawValue: UInt32

    /// Wraps any value.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// 1: Init Command Request (initiator → responder, command connection).
    public static let initCommandRequest = PTPIPPacketType(rawValue: 1)
    /// 2: Init Command Ack.
    public static let initCommandAck = PTPIPPacketType(rawValue: 2)
    /// 3: Init Event Request (on the event connection).
    public static let initEventRequest = PTPIPPacketType(rawValue: 3)
    /// 4: Init Event Ack.
    public static let initEventAck = PTPIPPacketType(rawValue: 4)
    /// 5: Init Fail.
    public static let initFail = PTPIPPacketType(rawValue: 5)
    /// 6: Operation Request.
    public static let operationRequest = PTPIPPacketType(rawValue: 6)
    /// 7: Operation Response.
    public static let operationResponse = PTPIPPacketType(rawValue: 7)
    /// 8: Event.
    public static let event = PTPIPPacketType(rawValue: 8)
    /// 9: Start Data.
    public static let startData = PTPIPPacketType(rawValue: 9)
    /// 10: Data.
    public static let data = PTPIPPacketType(rawValue: 10)
    /// 11: Cancel.
    public static let cancel = PTPIPPacketType(rawValue: 11)
    /// 12: End Data.
    public static let endData = PTPIPPacketType(rawValue: 12)
    /// 13: Probe Request (ping).
    public static let probeRequest = PTPIPPacketType(rawValue: 13)
    /// 14: Probe Response (pong).
    public static let probeResponse = PTPIPPacketType(rawValue: 14)

    /// Whether packets of this type carry a data payload, bounded by
    /// ``WireFormat/WireLimits/maxPTPIPPacketLength`` rather than the control limit.
    public var carriesData: Bool { self == .data || self == .endData }

    private static let names = [
        "InitCommandRequest", "InitCommandAck", "InitEventRequest", "InitEventAck", "InitFail", "OperationRequest",
        "OperationResponse", "Event", "StartData", "Data", "Cancel", "EndData", "ProbeRequest", "ProbeResponse",
    ]

    /// The type's name, or `Unknown(n)`.
    public var description: String {
        (1...14).contains(rawValue) ? Self.names[Int(rawValue) - 1] : "Unknown(\(rawValue))"
    }
}
