/// How a raw frame is rendered to a viewable RGB image.
public struct RenderOptions: Hashable, Sendable {
    /// Which route from mosaic to pixels.
    public enum Method: String, Hashable, Sendable, CaseIterable {
        /// ``fast`` when the output is at most half the size of the frame (so every output pixel gathers whole
        /// CFA blocks), ``quality`` otherwise.
        case automatic
        /// Bin the mosaic into blocks (a 2×2 superpixel or larger for Bayer, 3×3 or larger for X-Trans) and
        /// area-filter to the exact size: a preview of a 24-megapixel frame in milliseconds. Falls back to
        /// ``quality`` when the output is too large for whole blocks.
        case fast
        /// Full-size ``DemosaicAlgorithm/highQuality`` interpolation, then area-filter downscaling.
        case quality
    }

    /// The longest side of the output in pixels, or `nil` for the full default-crop size. Never upscales.
    public var longSide: Int?
    /// Which route to take.
    public var method: Method
    /// Tone curve applied after exposure, before the sRGB transfer curve; ``ToneCurve/linear`` for none.
    public var toneCurve: ToneCurve
    /// Extra exposure in EV on top of the frame's BaselineExposure.
    public var exposureAdjustment: Double
    /// Whether the frame's orientation is applied (pixels rotated or flipped for display). DNG previews are stored
    /// unrotated, since the file's Orientation tag applies to them.
    public var appliesOrientation: Bool

    /// Creates options; by default full size, automatic method, the filmic curve, no extra exposure, oriented.
    public init(
        longSide: Int? = nil, method: Method = .automatic, toneCurve: ToneCurve = .filmic,
        exposureAdjustment: Double = 0, appliesOrientation: Bool = true
    ) {
        self.longSide = longSide
        self.method = method
        self.toneCurve = toneCurve
        self.exposureAdjustment = exposureAdjustment
        self.appliesOrientation = appliesOrientation
    }

    /// The size of an image of `width × height` scaled so its longer side is `longSide` (aspect kept, rounded,
    /// at least 1), or unchanged when `longSide` is `nil` or not smaller: the size every rendering and
    /// ``RGBImage8/downscaled(toLongSide:)`` produce.
    public static func outputSize(width: Int, height: Int, longSide: Int?) throws(RawImageError) -> (
        width: Int, height: Int
    ) {
        try Renderer.outputSize(width: width, height: height, longSide: longSide)
    }

    /// The size of a `crop` of pixels `pixelAspectRatio` times as wide as they are tall once they are made square,
    /// as a DNG's DefaultScale asks (DNG 1.7.1 p.30), without enlarging: wide pixels shorten the height, narrow
    /// ones the width. Every rendering starts from this size, so a Kodak DC120's picture (ratio 1.535) is not
    /// squeezed. A ratio that is not a positive number counts as 1.
    public static func displaySize(of crop: PixelRect, pixelAspectRatio ratio: Double) -> (width: Int, height: Int) {
        guard ratio.isFinite, ratio > 0, ratio != 1 else { return (crop.width, crop.height) }
        if ratio > 1 { return (crop.width, max(1, Int((Double(crop.height) / ratio).rounded()))) }
        return (max(1, Int((Double(crop.width) * ratio).rounded())), crop.height)
    }
}
