/// Nikon's RawBitMode (0xD149, a UINT8): the NEF bit depth.
///
/// Code: libgphoto2 `ptp.h` `PTP_DPC_NIKON_RawBitMode`; values as libgphoto2 `config.c` offers them for the
/// "rawbitmode" widget ("12 bit" 0, "14 bit" 1).
public struct NikonRawBitMode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The property value.
    public let rawValue: UInt8
    /// Wraps any value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The property that holds it.
    public static let property = DevicePropertyCode.Nikon.rawBitMode

    /// 12-bit NEF, 0.
    public static let twelveBit = NikonRawBitMode(rawValue: 0)
    /// 14-bit NEF, 1.
    public static let fourteenBit = NikonRawBitMode(rawValue: 1)

    /// The bits per sample, when known.
    public var bitsPerSample: Int? {
        switch self {
        case .twelveBit: 12
        case .fourteenBit: 14
        default: nil
        }
    }

    /// `12 bit`, `14 bit`, or `Unknown(0x…)`.
    public var description: String { bitsPerSample.map { "\($0) bit" } ?? "Unknown(\(hex(rawValue)))" }
}
