/// Nikon's values of CompressionSetting (0x5004, a UINT8): the JPEG quality and whether a NEF is written.
///
/// The table of Nikon DSLRs since the D3 (the D850 among them): 0–2 JPEG Basic/Normal/Fine, 3 TIFF (RGB), 4 NEF,
/// 5–7 NEF + JPEG Basic/Normal/Fine. Sources: libgphoto2 `ptp.c` `ptp_value_list_Nikon` (4 "RAW", 5 "RAW + JPEG
/// Basic"), and the "imagequality" widget of the libgphoto2 2.5.30 that Debian ships, which offers 4 as "NEF (Raw)"
/// and 5/6 as "NEF+Basic"/"NEF+Normal" (checked with `rawcap sim usb --model nikon -- gphoto2 --get-config
/// imagequality`). An older `config.c` `compression[]` numbered NEF 3 (D70-era bodies); Z bodies with "★" JPEG
/// options use a longer table. Read the property's enumeration for what a body offers.
public struct NikonImageQuality: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The property value.
    public let rawValue: UInt8
    /// Wraps any value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The property that holds it: standard CompressionSetting, 0x5004.
    public static let property = DevicePropertyCode.compressionSetting

    /// JPEG Basic, 0.
    public static let jpegBasic = NikonImageQuality(rawValue: 0)
    /// JPEG Normal, 1.
    public static let jpegNormal = NikonImageQuality(rawValue: 1)
    /// JPEG Fine, 2.
    public static let jpegFine = NikonImageQuality(rawValue: 2)
    /// TIFF (RGB), 3.
    public static let tiff = NikonImageQuality(rawValue: 3)
    /// NEF (RAW) alone, 4.
    public static let nef = NikonImageQuality(rawValue: 4)
    /// NEF + JPEG Basic, 5.
    public static let nefPlusBasic = NikonImageQuality(rawValue: 5)
    /// NEF + JPEG Normal, 6.
    public static let nefPlusNormal = NikonImageQuality(rawValue: 6)
    /// NEF + JPEG Fine, 7.
    public static let nefPlusFine = NikonImageQuality(rawValue: 7)

    private static let names: [UInt8: String] = [
        0: "JPEG Basic", 1: "JPEG Normal", 2: "JPEG Fine", 3: "TIFF (RGB)", 4: "NEF (Raw)", 5: "NEF+Basic",
        6: "NEF+Normal", 7: "NEF+Fine",
    ]

    /// Whether the shot includes a NEF.
    public var includesRaw: Bool { (4...7).contains(rawValue) }

    /// Whether the shot includes a JPEG.
    public var includesJPEG: Bool { rawValue <= 2 || (5...7).contains(rawValue) }

    /// The label, or `Unknown(0x…)`.
    public var description: String { Self.names[rawValue] ?? "Unknown(\(hex(rawValue)))" }
}
