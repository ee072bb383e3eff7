/// Nikon's values of CompressionSetting (0x5004, a UINT8): the JPEG quality and whether a NEF is written.
///
/// Values from libgphoto2 `config.c` `compression[]` (the Nikon table of the "imagequality" widget). Newer bodies
/// add values (e.g. "JPEG Fine ★", TIFF) that libgphoto2 lists per model, so read the property's DevicePropDesc
/// enumeration for what a body offers and use these names for the common ones.
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
    /// NEF (RAW) alone, 3.
    public static let nef = NikonImageQuality(rawValue: 3)
    /// NEF + JPEG Basic, 4.
    public static let nefPlusBasic = NikonImageQuality(rawValue: 4)
    /// NEF + JPEG Normal, 5.
    public static let nefPlusNormal = NikonImageQuality(rawValue: 5)
    /// NEF + JPEG Fine, 6.
    public static let nefPlusFine = NikonImageQuality(rawValue: 6)

    private static let names: [UInt8: String] = [
        0: "JPEG Basic", 1: "JPEG Normal", 2: "JPEG Fine", 3: "NEF (Raw)", 4: "NEF+Basic", 5: "NEF+Normal",
        6: "NEF+Fine",
    ]

    /// Whether the shot includes a NEF.
    public var includesRaw: Bool { (3...6).contains(rawValue) }

    /// Whether the shot includes a JPEG.
    public var includesJPEG: Bool { rawValue <= 2 || (4...6).contains(rawValue) }

    /// libgphoto2's label, or `Unknown(0x…)`.
    public var description: String { Self.names[rawValue] ?? "Unknown(\(hex(rawValue)))" }
}
