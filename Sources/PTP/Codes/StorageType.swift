/// A StorageInfo dataset's StorageType field.
///
/// ISO 15740 §5.5.3; libgphoto2 `PTP_ST_*`.
public struct StorageType: PTPCodeTable {
    /// The 16-bit code as it appears on the wire.
    public let rawValue: UInt16

    /// Wraps any code, known or not: the table is open, so a camera's new codes pass through unharmed.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Undefined, 0x0000 (PTP §5.5.3).
    public static let undefined = StorageType(rawValue: 0x0000)
    /// FixedROM, 0x0001 (PTP §5.5.3).
    public static let fixedROM = StorageType(rawValue: 0x0001)
    /// RemovableROM, 0x0002 (PTP §5.5.3).
    public static let removableROM = StorageType(rawValue: 0x0002)
    /// FixedRAM, 0x0003 (PTP §5.5.3).
    public static let fixedRAM = StorageType(rawValue: 0x0003)
    /// RemovableRAM, 0x0004 (PTP §5.5.3): a memory card.
    public static let removableRAM = StorageType(rawValue: 0x0004)

    /// The names of the codes the standard defines, keyed by raw value.
    public static let standardNames: [UInt16: String] = [
        0x0000: "Undefined",
        0x0001: "FixedROM",
        0x0002: "RemovableROM",
        0x0003: "FixedRAM",
        0x0004: "RemovableRAM",
    ]
}
