import RawImage

/// A preview image embedded in a raw file, as stored: a JPEG stream or uncompressed 8-bit RGB pixels.
public enum EmbeddedPreview: Sendable {
    /// A complete JPEG file (SOI … EOI) and the size its container states.
    case jpeg([UInt8], width: Int, height: Int)
    /// Uncompressed 8-bit RGB pixels.
    case rgb(RGBImage8)

    /// Columns.
    public var width: Int {
        switch self {
        case .jpeg(_, let width, _): width
        case .rgb(let image): image.width
        }
    }

    /// Rows.
    public var height: Int {
        switch self {
        case .jpeg(_, _, let height): height
        case .rgb(let image): image.height
        }
    }
}
