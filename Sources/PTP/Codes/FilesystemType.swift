/// A StorageInfo dataset's FilesystemType field.
///
/// ISO 15740 §5.5.3; libgphoto2 `PTP_FST_*`.
public struct FilesystemType: PTPCodeTable {
    /// The 16-bit code as it appears on the wire.
    public let rawValue: UInt16

    /// Wraps any code, known or not: the table is open, so a camera's new codes pass through unharmed.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Undefined, 0x0000 (PTP §5.5.3).
    public static let undefined = FilesystemType(rawValue: 0x0000)
    /// GenericFlat, 0x0001 (PTP §5.5.3).
    public static let genericFlat = FilesystemType(rawValue: 0x0001)
    /// GenericHierarchical, 0x0002 (PTP §5.5.3).
    public static let genericHierarchical = FilesystemType(rawValue: 0x0002)
    /// DCF, 0x0003 (PTP §5.5.3): Design rule for Camera File system.
    public static let dcf = FilesystemType(rawValue: 0x0003)

    /// The names of the codes the standard defines, keyed by raw value.
    public static let standardNames: [UInt16: String] = [
        0x0000: "Undefined",
        0x0001: "GenericFlat",
        0x0002: "GenericHierarchical",
        0x0003: "DCF",
    ]
}
