/// The protocol version a host offers in GetSDIOExtDeviceInfo (0x9202) and the camera answers in
/// ``SonyExtDeviceInfo/version``.
///
/// libgphoto2 `ptp.c` `ptp_sony_get_vendorpropcodes` sends 0x12C (300) and a second parameter 1 ("cameras that dont
/// support it will return their max supported version"); older libgphoto2 sent 0xC8 (200), which an ILCE-6000 and a
/// ZV-E10 answered (gphoto2 issues 93 and 477); the ILCE-7SM3 in `Fixtures/ptp-real` answers 0x12C. 0xC8 is also
/// what libgphoto2 sends to the QX bodies' own operation.
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
