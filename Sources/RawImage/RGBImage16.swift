/// A 16-bit RGB image, interleaved (R, G, B per pixel, row by row), sRGB-encoded: full-precision renderings for
/// 16-bit TIFF output.
public struct RGBImage16: Sendable, Hashable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// `width × height × 3` samples, 0…65535.
    public var pixels: [UInt16]

    /// Creates an image; throws unless `pixels` holds exactly `width × height × 3` samples.
    public init(width: Int, height: Int, pixels: [UInt16]) throws(RawImageError) {
        guard width > 0, height > 0, width <= RawFrame.maxDimension, height <= RawFrame.maxDimension else {
            throw RawImageError(.invalidSize, "\(width)×\(height) RGB image")
        }
        guard pixels.count == width * height * 3 else {
            throw RawImageError(.sampleCountMismatch, "\(pixels.count) samples for \(width)×\(height) RGB")
        }
        (self.width, self.height, self.pixels) = (width, height, pixels)
    }
}
