/// A kind of image rawcap can get from a camera, in rawcap's own names (`--format`, `rawcap info`), purest first.
public enum RawFormat: String, CaseIterable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Bayer (CFA) samples at 16 bits.
    case bayer16
    /// Bayer (CFA) samples at 14 bits.
    case bayer14
    /// Bayer (CFA) samples at 12 bits.
    case bayer12
    /// Bayer (CFA) samples at a depth the camera chooses and does not report through a property.
    case bayer
    /// Linear (demosaiced, scene-referred) raw: a LinearRaw DNG, "ProRAW-like". Only a fallback: demosaicing has
    /// already mixed the photosites.
    case linear
    /// A processed RGB TIFF from the camera (0x380D).
    case tiff
    /// A processed JPEG from the camera (0x3801).
    case jpeg

    /// The Bayer format at `bits` per sample: 12, 14, 16, or ``bayer`` when the depth is not one of those.
    public static func bayerFormat(bits: Int?) -> RawFormat {
        switch bits {
        case 16: .bayer16
        case 14: .bayer14
        case 12: .bayer12
        default: .bayer
        }
    }

    /// Whether the samples are sensor photosites (a CFA mosaic).
    public var isBayer: Bool { [.bayer16, .bayer14, .bayer12, .bayer].contains(self) }

    /// 16, 14 or 12 for the Bayer formats of a fixed depth; `nil` for the others.
    public var bitDepth: Int? {
        switch self {
        case .bayer16: 16
        case .bayer14: 14
        case .bayer12: 12
        default: nil
        }
    }

    /// Whether the format is raw (Bayer or linear), not a processed picture.
    public var isRaw: Bool { isBayer || self == .linear }

    /// Rank: purest first (declaration order).
    public static func < (lhs: RawFormat, rhs: RawFormat) -> Bool {
        let order = allCases
        return (order.firstIndex(of: lhs) ?? 0) < (order.firstIndex(of: rhs) ?? 0)
    }

    /// The name.
    public var description: String { rawValue }
}

/// What `--format` asks for: a ``RawFormat``, or `auto` for the purest the camera delivers.
public enum RawFormatRequest: Hashable, Sendable, CustomStringConvertible {
    /// The purest format: Bayer at the highest bit depth, linear only as a fallback, then TIFF, then JPEG.
    case auto
    /// Exactly this format.
    case format(RawFormat)

    /// Parses `auto`, `bayer12`, `bayer14`, `bayer16`, `bayer`, `linear`, `tiff` or `jpeg` (case-insensitive).
    public init?(_ text: String) {
        let key = text.lowercased()
        if key == "auto" {
            self = .auto
        } else if let format = RawFormat(rawValue: key) {
            self = .format(format)
        } else {
            return nil
        }
    }

    /// Every accepted word.
    public static let names = ["auto"] + RawFormat.allCases.map(\.rawValue)

    /// `auto` or the format's name.
    public var description: String {
        switch self {
        case .auto: "auto"
        case .format(let format): format.rawValue
        }
    }
}
