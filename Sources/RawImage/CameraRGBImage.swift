/// A full-colour image in the camera's own colour space, as linear floating-point values: 0 is black and 1 the
/// clipping (white) level. What demosaicing produces, before white balance and colour conversion.
public struct CameraRGBImage: Sendable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// `width × height × 3` values, interleaved R, G, B (the camera's filter colours), row by row.
    public var pixels: [Float]

    /// Creates an image; throws unless `pixels` holds `width × height × 3` values.
    public init(width: Int, height: Int, pixels: [Float]) throws(RawImageError) {
        guard (1...RawFrame.maxDimension).contains(width), (1...RawFrame.maxDimension).contains(height) else {
            throw RawImageError(.invalidSize, "\(width)×\(height) camera RGB image")
        }
        guard pixels.count == width * height * 3 else {
            throw RawImageError(.sampleCountMismatch, "\(pixels.count) values for \(width)×\(height)×3")
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixel at `row`, `column` as (R, G, B).
    public func pixel(row: Int, column: Int) -> (Float, Float, Float) {
        let index = (row * width + column) * 3
        return (pixels[index], pixels[index + 1], pixels[index + 2])
    }

    /// The mean of each channel over `rect` (clamped to the image); (0, 0, 0) for an empty rectangle.
    public func mean(in rect: PixelRect) -> (Double, Double, Double) {
        let x0 = max(rect.x, 0)
        let y0 = max(rect.y, 0)
        let x1 = min(rect.right, width)
        let y1 = min(rect.bottom, height)
        guard x1 > x0, y1 > y0 else { return (0, 0, 0) }
        var sums = (0.0, 0.0, 0.0)
        for row in y0..<y1 {
            for column in x0..<x1 {
                let index = (row * width + column) * 3
                sums.0 += Double(pixels[index])
                sums.1 += Double(pixels[index + 1])
                sums.2 += Double(pixels[index + 2])
            }
        }
        let count = Double((x1 - x0) * (y1 - y0))
        return (sums.0 / count, sums.1 / count, sums.2 / count)
    }
}
