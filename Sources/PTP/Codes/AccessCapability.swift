/// A StorageInfo dataset's AccessCapability field.
///
/// ISO 15740 §5.5.3; libgphoto2 `PTP_AC_*`.
public struct AccessCapability: PTPCodeTable {
    /// The 16-bit code as it appears on the wire.
    public let rawValue: UInt16

    /// Wraps any code, known or not: the table is open, so a camera's new codes pass through unharmed.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// ReadWrite, 0x0000 (PTP §5.5.3).
    public static let readWrite = AccessCapability(rawValue: 0x0000)
    /// ReadOnly, 0x0001 (PTP §5.5.3): without object deletion.
    public static let readOnly = AccessCapability(rawValue: 0x0001)
    /// ReadOnlyWithObjectDeletion, 0x0002 (PTP §5.5.3).
    public static let readOnlyWithObjectDeletion = AccessCapability(rawValue: 0x0002)

    /// The names of the codes the standard defines, keyed by raw value.
    public static let standardNames: [UInt16: String] = [
        0x0000: "ReadWrite",
        0x0001: "ReadOnly",
        0x0002: "ReadOnlyWithObjectDeletion",
    ]
}
