/// What `rawcap shoot --format` asks for.
public enum OutputFormat: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// The purest raw the camera offers: Bayer at its highest bit depth; a linear DNG only when the camera's raw
    /// cannot be stored as CFA data.
    case auto
    /// Bayer CFA DNG from a 12-bit raw.
    case bayer12
    /// Bayer CFA DNG from a 14-bit raw.
    case bayer14
    /// Bayer CFA DNG from a 16-bit raw.
    case bayer16
    /// A demosaiced LinearRaw DNG ("ProRAW-like").
    case linear
    /// The camera's own JPEG, unchanged.
    case jpeg
    /// A 16-bit RGB TIFF rendered from the raw.
    case tiff

    /// The raw bit depth a `bayerN` format needs, else `nil`.
    public var bayerBitDepth: Int? {
        switch self {
        case .bayer12: 12
        case .bayer14: 14
        case .bayer16: 16
        default: nil
        }
    }

    /// Whether the format is made from the camera's raw object.
    public var needsRaw: Bool { self != .jpeg }

    /// The name, as `--format` takes it.
    public var description: String { rawValue }
}
