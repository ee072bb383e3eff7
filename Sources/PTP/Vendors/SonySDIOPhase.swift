/// The phase of Sony's SDIOConnect (0x9201) handshake, which switches a Sony camera in "PC Remote" USB mode into
/// remote control.
///
/// libgphoto2 `ptp.c` `ptp_sony_sdioconnect` sends SDIOConnect with three parameters (phase, 0, 0) and reads a
/// data phase it discards; `library.c` `camera_init` runs phase 1, phase 2, GetSDIOExtDeviceInfo (0x9202), then
/// phase 3 — after which the Sony properties (GetAllDevicePropData 0x9209) and controls (SetControlDeviceB 0x9207)
/// work. ``sequence`` lists it.
public struct SonySDIOPhase: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The first parameter of SDIOConnect.
    public let rawValue: UInt32
    /// Wraps any value.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Phase 1: start of the handshake.
    public static let first = SonySDIOPhase(rawValue: 1)
    /// Phase 2: sent before GetSDIOExtDeviceInfo.
    public static let second = SonySDIOPhase(rawValue: 2)
    /// Phase 3: sent after GetSDIOExtDeviceInfo; the camera is then under remote control.
    public static let third = SonySDIOPhase(rawValue: 3)

    /// SDIOConnect's three parameters: the phase, then two zeros.
    public var parameters: [UInt32] { [rawValue, 0, 0] }

    /// `SDIOConnect phase 1`.
    public var description: String { "SDIOConnect phase \(rawValue)" }

    /// One step of the handshake.
    public enum Step: Hashable, Sendable {
        /// SDIOConnect (0x9201) with this phase; data-in discarded.
        case connect(SonySDIOPhase)
        /// GetSDIOExtDeviceInfo (0x9202) with this protocol version; data-in ``SonyExtDeviceInfo``.
        case getExtDeviceInfo(SonyProtocolVersion)
    }

    /// The handshake in libgphoto2's order (`library.c` `camera_init`, Sony branch).
    public static func sequence(version: SonyProtocolVersion = .v300) -> [Step] {
        [.connect(.first), .connect(.second), .getExtDeviceInfo(version), .connect(.third)]
    }
}
