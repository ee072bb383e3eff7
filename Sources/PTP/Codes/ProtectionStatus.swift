/// An ObjectInfo dataset's ProtectionStatus field.
///
/// ISO 15740 §5.5.2; libgphoto2 `PTP_PS_*`.
public struct ProtectionStatus: PTPCodeTable {
    /// The 16-bit code as it appears on the wire.
    public let rawValue: UInt16

    /// Wraps any code, known or not: the table is open, so a camera's new codes pass through unharmed.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// NoProtection, 0x0000 (PTP §5.5.2).
    public static let noProtection = ProtectionStatus(rawValue: 0x0000)
    /// ReadOnly, 0x0001 (PTP §5.5.2).
    public static let readOnly = ProtectionStatus(rawValue: 0x0001)

    /// The names of the codes the standard defines, keyed by raw value.
    public static let standardNames: [UInt16: String] = [
        0x0000: "NoProtection",
        0x0001: "ReadOnly",
    ]
}
