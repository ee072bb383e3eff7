/// An ObjectInfo dataset's AssociationType field (what kind of folder an association is).
///
/// ISO 15740 §6.4; libgphoto2 `PTP_AT_*`.
public struct AssociationType: PTPCodeTable {
    /// The 16-bit code as it appears on the wire.
    public let rawValue: UInt16

    /// Wraps any code, known or not: the table is open, so a camera's new codes pass through unharmed.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Undefined, 0x0000 (PTP §6.4).
    public static let undefined = AssociationType(rawValue: 0x0000)
    /// GenericFolder, 0x0001 (PTP §6.4).
    public static let genericFolder = AssociationType(rawValue: 0x0001)
    /// Album, 0x0002 (PTP §6.4).
    public static let album = AssociationType(rawValue: 0x0002)
    /// TimeSequence, 0x0003 (PTP §6.4).
    public static let timeSequence = AssociationType(rawValue: 0x0003)
    /// HorizontalPanoramic, 0x0004 (PTP §6.4).
    public static let horizontalPanoramic = AssociationType(rawValue: 0x0004)
    /// VerticalPanoramic, 0x0005 (PTP §6.4).
    public static let verticalPanoramic = AssociationType(rawValue: 0x0005)
    /// TwoDPanoramic, 0x0006 (PTP §6.4).
    public static let twoDPanoramic = AssociationType(rawValue: 0x0006)
    /// AncillaryData, 0x0007 (PTP §6.4).
    public static let ancillaryData = AssociationType(rawValue: 0x0007)

    /// The names of the codes the standard defines, keyed by raw value.
    public static let standardNames: [UInt16: String] = [
        0x0000: "Undefined",
        0x0001: "GenericFolder",
        0x0002: "Album",
        0x0003: "TimeSequence",
        0x0004: "HorizontalPanoramic",
        0x0005: "VerticalPanoramic",
        0x0006: "TwoDPanoramic",
        0x0007: "AncillaryData",
    ]
}
