/// Applies a TIFF/EXIF orientation to interleaved 3-channel pixels, producing the image as it should be
/// displayed (TIFF 6.0 §Orientation; EXIF 2.32 §4.6.4 A).
enum ImageOrientation {
    /// The displayed size of a `width × height` stored image: swapped for the four orientations that turn it
    /// by a quarter (5…8).
    static func displaySize(width: Int, height: Int, _ orientation: Orientation) -> (width: Int, height: Int) {
        orientation.rawValue >= 5 ? (height, width) : (width, height)
    }

    /// The stored pixels rearranged for display.
    static func apply<Sample>(_ pixels: [Sample], width: Int, height: Int, _ orientation: Orientation) -> [Sample] {
        guard orientation != .normal, !pixels.isEmpty else { return pixels }
        let (outWidth, outHeight) = displaySize(width: width, height: height, orientation)
        var out = pixels
        for y in 0..<outHeight {
            for x in 0..<outWidth {
                // The stored (row, column) shown at display (x, y).
                let (row, column): (Int, Int)
                switch orientation.rawValue {
                case 2: (row, column) = (y, width - 1 - x)
                case 3: (row, column) = (height - 1 - y, width - 1 - x)
                case 4: (row, column) = (height - 1 - y, x)
                case 5: (row, column) = (x, y)
                case 6: (row, column) = (height - 1 - x, y)
                case 7: (row, column) = (height - 1 - x, width - 1 - y)
                case 8: (row, column) = (x, width - 1 - y)
                default: (row, column) = (y, x)
                }
                let source = (row * width + column) * 3
                let target = (y * outWidth + x) * 3
                out[target] = pixels[source]
                out[target + 1] = pixels[source + 1]
                out[target + 2] = pixels[source + 2]
            }
        }
        return out
    }
}
