/// The format a shoot actually produces, once negotiated with the camera (``FormatCatalog/resolve(_:)``).
public struct ResolvedFormat: Hashable, Sendable, CustomStringConvertible {
    /// What each shot's raw object becomes.
    public enum Product: Hashable, Sendable {
        /// A CFA DNG; falls back to LinearRaw when `linearFallback` and the raw is not CFA data.
        case bayer
        /// A LinearRaw DNG.
        case linear
        /// A 16-bit RGB TIFF.
        case tiff
        /// The camera's JPEG only.
        case jpeg
    }

    /// What each shot becomes.
    public var product: Product
    /// The raw bit depth to select on the camera, or `nil` to leave the camera's setting.
    public var rawBitDepth: Int?
    /// `auto` only: write a linear DNG (with a warning) when the raw object is not Bayer CFA data.
    public var linearFallback: Bool
    /// Why this choice, for the log and the journal (e.g. "auto: Bayer 16-bit, the deepest the camera offers").
    public var reason: String

    /// Creates a resolution.
    public init(product: Product, rawBitDepth: Int?, linearFallback: Bool = false, reason: String = "") {
        self.product = product
        self.rawBitDepth = rawBitDepth
        self.linearFallback = linearFallback
        self.reason = reason
    }

    /// `bayer14`, `linear`, `jpeg`, `tiff`, or `bayer` when the depth is the camera's.
    public var description: String {
        switch product {
        case .bayer: rawBitDepth.map { "bayer\($0)" } ?? "bayer"
        case .linear: "linear"
        case .tiff: "tiff"
        case .jpeg: "jpeg"
        }
    }
}
