/// An 8-bit RGB image, interleaved (R, G, B per pixel, row by row): previews, thumbnails, JPEG input.
public struct RGBImage8: Sendable, Hashable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// `width × height × 3` bytes.
    public var pixels: [UInt8]

    /// Creates an image; throws unless `pixels` holds exactly `width × height × 3` bytes.
    public init(width: Int, height: Int, pixels: [UInt8]) throws(RawImageError) {
        guard width > 0, height > 0, width <= RawFrame.maxDimension, height <= RawFrame.maxDimension else {
            throw RawImageError(.invalidSize, "\(width)×\(height) RGB image")
        }
        guard pixels.count == width * height * 3 else {
            throw RawImageError(.sampleCountMismatch, "\(pixels.count) bytes for \(width)×\(height) RGB")
        }
        (self.width, self.height, self.pixels) = (width, height, pixels)
    }
}
