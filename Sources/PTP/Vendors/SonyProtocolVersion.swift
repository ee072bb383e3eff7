/// The protocol version a host offers in GetSDIOExtDeviceInfo (0x9202) and the camera answers in
/// ``SonyExtDeviceInfo/version``.
///
/// libgphoto2 `ptp.c` `ptp_sony_get_vendorpropcodes` sends 0xC8 (200); newer bodies (the ILCE-7SM3 in
/// `Fixtures/ptp-real`, answering 0x12C) take 0x12C (300), which libgphoto2 `library.c` sends first and falls back
/// from.
public struct SonyProtocolVersion: RawRepresentable, Hashable, Sendable {
    /// The version ×100 as sent.
    public let rawValue: UInt32
    /// Wraps any value.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// 200 (0xC8).
    public static let v200 = SonyProtocolVersion(rawValue: 0xC8)
    /// 300 (0x12C).
    public static let v300 = SonyProtocolVersion(rawValue: 0x12C)
}
