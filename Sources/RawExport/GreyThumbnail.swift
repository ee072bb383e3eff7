import DNG
import FoundationEssentials
import RawImage

#if canImport(Glibc)
    import Glibc
#endif

/// A grey IFD0 thumbnail drawn straight from the raw samples, for frames the colour renderer refuses (a CFA with
/// cyan/magenta/yellow filters, colour tags it cannot invert). Every DNG needs an IFD0 image; this one is honest
/// about being the raw brightness only.
public enum GreyThumbnail {
    /// Averages blocks of the frame's default crop into at most ``DNGPreviews/thumbnailLongSide`` pixels on the long
    /// side, relative to the mean black level and the white level, with the sRGB transfer curve.
    public static func make(from frame: RawFrame) throws(RawImageError) -> RGBImage8 {
        let crop = frame.defaultCrop
        let display = RenderOptions.displaySize(of: crop, pixelAspectRatio: frame.pixelAspectRatio)
        let size = try RenderOptions.outputSize(
            width: display.width, height: display.height, longSide: DNGPreviews.thumbnailLongSide)
        let black = frame.blackLevels.reduce(0, +) / Double(max(1, frame.blackLevels.count))
        let range = max(1, Double(frame.whiteLevel) - black)
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 3)
        for y in 0..<size.height {
            let top = crop.y + y * crop.height / size.height
            let bottom = max(top + 1, crop.y + (y + 1) * crop.height / size.height)
            for x in 0..<size.width {
                let left = crop.x + x * crop.width / size.width
                let right = max(left + 1, crop.x + (x + 1) * crop.width / size.width)
                var sum = 0
                for row in top..<bottom {
                    for column in left..<right { sum += Int(frame.samples[row * frame.width + column]) }
                }
                let mean = Double(sum) / Double((bottom - top) * (right - left))
                let linear = min(1, max(0, (mean - black) / range))
                let encoded = linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
                let value = UInt8(min(255, max(0, (encoded * 255).rounded())))
                let index = (y * size.width + x) * 3
                pixels[index] = value
                pixels[index + 1] = value
                pixels[index + 2] = value
            }
        }
        return try RGBImage8(width: size.width, height: size.height, pixels: pixels)
    }
}
