/// A TIFF Compression value (tag 259) as TIFF 6.0, DNG 1.7.1 and the camera makers number them.
///
/// Open (STYLE.md §4): vendor schemes rawcap never decodes itself still print with their name when known and as
/// `Unknown(n)` otherwise.
public struct TIFFCompression: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Uncompressed (1); non-8/16-bit samples are bit-packed big-endian (DNG 1.7 p.19).
    public static let none = TIFFCompression(rawValue: 1)
    /// Old-style JPEG (6), TIFF 6.0 §22; seen in vendor thumbnails.
    public static let oldJPEG = TIFFCompression(rawValue: 6)
    /// JPEG (7): baseline DCT for 8-bit previews, lossless Huffman JPEG (ITU T.81 process 14) for raw data
    /// (DNG 1.7 p.20).
    public static let jpeg = TIFFCompression(rawValue: 7)
    /// Deflate (8), DNG 1.4: floating-point and 32-bit data, depth maps.
    public static let deflate = TIFFCompression(rawValue: 8)
    /// Lossy JPEG for 8-bit LinearRaw (34892), DNG 1.4.
    public static let lossyJPEG = TIFFCompression(rawValue: 34892)
    /// JPEG XL (52546), DNG 1.7.
    public static let jpegXL = TIFFCompression(rawValue: 52546)

    public var description: String {
        switch rawValue {
        case 1: "uncompressed"
        case 5: "LZW"
        case 6: "old-style JPEG"
        case 7: "JPEG"
        case 8: "Deflate"
        case 9: "VC-5"
        case 32767: "Sony ARW"
        case 32769: "Packed RAW"
        case 32770: "Samsung SRW"
        case 32773: "PackBits"
        case 34713: "Nikon NEF"
        case 34892: "lossy JPEG"
        case 52546: "JPEG XL"
        case 65000: "Kodak DCR"
        default: "Unknown(\(rawValue))"
        }
    }
}
