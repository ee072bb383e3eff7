/// What one value of Nikon's CompressionSetting (0x5004, a UINT8) stores: a NEF, a JPEG, a TIFF, or a NEF with a
/// JPEG from the same exposure.
///
/// The numbers differ between bodies, so a value means nothing without its body's ``NikonImageQualityTable``: 4 is
/// "NEF (Raw)" on a D3s or D810 and "JPEG Fine" on a D850. Labels are libgphoto2's (`camlibs/ptp2/config.c`
/// tables `nikon_d3s_compression`, `nikon_d850_compression`): "JPEG Fine", "JPEG Fine*", "TIFF", "NEF (Raw)",
/// "NEF+Fine", "NEF+Fine*"; the asterisk is Nikon's ★, JPEG compression for optimal quality rather than a fixed
/// size, which the D500, D850 and later bodies offer as image qualities of their own.
public struct NikonImageQuality: Hashable, Sendable, CustomStringConvertible {
    /// A JPEG's compression, as Nikon names it.
    public enum JPEGCompression: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// Basic: the smallest files.
        case basic
        /// Normal.
        case normal
        /// Fine: the least compression.
        case fine

        /// `Basic`, `Normal`, `Fine`.
        public var description: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
    }

    /// Whether the shot includes a NEF.
    public var includesRaw: Bool
    /// The JPEG's compression, when the shot includes a JPEG.
    public var jpeg: JPEGCompression?
    /// Whether the JPEG is compressed for optimal quality (★) rather than to a fixed size.
    public var optimalQuality: Bool
    /// Whether the shot is an RGB TIFF.
    public var isTIFF: Bool

    private init(raw: Bool, jpeg: JPEGCompression?, optimal: Bool = false, tiff: Bool = false) {
        (includesRaw, self.jpeg, optimalQuality, isTIFF) = (raw, jpeg, optimal, tiff)
    }

    /// The property that holds it: standard CompressionSetting, 0x5004.
    public static let property = DevicePropertyCode.compressionSetting

    /// A NEF alone.
    public static let nef = NikonImageQuality(raw: true, jpeg: nil)
    /// An RGB TIFF.
    public static let tiff = NikonImageQuality(raw: false, jpeg: nil, tiff: true)

    /// A JPEG alone, ★ when `optimal`.
    public static func jpeg(_ compression: JPEGCompression, optimal: Bool = false) -> NikonImageQuality {
        NikonImageQuality(raw: false, jpeg: compression, optimal: optimal)
    }

    /// A NEF and a JPEG, ★ when `optimal`.
    public static func nefPlus(_ compression: JPEGCompression, optimal: Bool = false) -> NikonImageQuality {
        NikonImageQuality(raw: true, jpeg: compression, optimal: optimal)
    }

    /// Whether the shot includes a JPEG.
    public var includesJPEG: Bool { jpeg != nil }

    /// libgphoto2's label: `JPEG Fine`, `JPEG Fine*`, `TIFF`, `NEF (Raw)`, `NEF+Basic`, `NEF+Fine*`.
    public var description: String {
        let star = optimalQuality ? "*" : ""
        switch (includesRaw, jpeg) {
        case (true, nil): return "NEF (Raw)"
        case (true, let jpeg?): return "NEF+\(jpeg)\(star)"
        case (false, let jpeg?): return "JPEG \(jpeg)\(star)"
        case (false, nil): return isTIFF ? "TIFF" : "None"
        }
    }
}
