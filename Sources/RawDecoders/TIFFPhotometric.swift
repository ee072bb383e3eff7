/// A TIFF PhotometricInterpretation value (tag 262), with the TIFF/EP and DNG additions.
public struct TIFFPhotometric: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// BlackIsZero (1): monochrome previews.
    public static let blackIsZero = TIFFPhotometric(rawValue: 1)
    /// RGB (2): thumbnails.
    public static let rgb = TIFFPhotometric(rawValue: 2)
    /// YCbCr (6): JPEG previews.
    public static let yCbCr = TIFFPhotometric(rawValue: 6)
    /// Colour filter array (32803), TIFF/EP and DNG: one sample per photosite (DNG 1.7 p.21).
    public static let cfa = TIFFPhotometric(rawValue: 32803)
    /// LinearRaw (34892), DNG: demosaiced, scene-linear camera RGB (DNG 1.7 p.21).
    public static let linearRaw = TIFFPhotometric(rawValue: 34892)

    public var description: String {
        switch rawValue {
        case 0: "WhiteIsZero"
        case 1: "BlackIsZero"
        case 2: "RGB"
        case 6: "YCbCr"
        case 32803: "CFA"
        case 34892: "LinearRaw"
        case 51177: "Depth"
        case 52527: "PhotometricMask"
        default: "Unknown(\(rawValue))"
        }
    }
}
