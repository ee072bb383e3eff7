/// One colour filter in a colour filter array, with the numbering DNG's CFAPattern tag uses (DNG 1.7 §
/// CFAPattern: 0 red, 1 green, 2 blue, 3 cyan, 4 magenta, 5 yellow, 6 white).
public struct CFAColor: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Red (0).
    public static let red = CFAColor(rawValue: 0)
    /// Green (1).
    public static let green = CFAColor(rawValue: 1)
    /// Blue (2).
    public static let blue = CFAColor(rawValue: 2)

    public var description: String {
        switch rawValue {
        case 0: "R"
        case 1: "G"
        case 2: "B"
        case 3: "C"
        case 4: "M"
        case 5: "Y"
        case 6: "W"
        default: "Unknown(\(rawValue))"
        }
    }
}

/// The repeating colour filter layout of a sensor: the 2×2 Bayer layouts or Fujifilm's 6×6 X-Trans.
///
/// The pattern's origin is the top-left pixel of the frame's active area, as in DNG (DNG 1.7 §ActiveArea:
/// "the CFA pattern … relative to the top-left corner of the active area").
public struct CFAPattern: Hashable, Sendable, CustomStringConvertible {
    /// Columns in one repeat of the pattern.
    public let width: Int
    /// Rows in one repeat of the pattern.
    public let height: Int
    /// The colours, row by row (`height × width` entries).
    public let colors: [CFAColor]

    /// Creates a pattern; throws unless `colors` has `width × height` entries and the size is 1…16 on each side.
    public init(width: Int, height: Int, colors: [CFAColor]) throws(RawImageError) {
        guard (1...16).contains(width), (1...16).contains(height), colors.count == width * height else {
            throw RawImageError(.invalidPattern, "\(width)×\(height) pattern with \(colors.count) colours")
        }
        self.width = width
        self.height = height
        self.colors = colors
    }

    private init(unchecked width: Int, _ height: Int, _ colors: [CFAColor]) {
        (self.width, self.height, self.colors) = (width, height, colors)
    }

    /// Red at the top left: R G / G B.
    public static let rggb = CFAPattern(unchecked: 2, 2, [.red, .green, .green, .blue])
    /// Blue at the top left: B G / G R.
    public static let bggr = CFAPattern(unchecked: 2, 2, [.blue, .green, .green, .red])
    /// G R / B G.
    public static let grbg = CFAPattern(unchecked: 2, 2, [.green, .red, .blue, .green])
    /// G B / R G.
    public static let gbrg = CFAPattern(unchecked: 2, 2, [.green, .blue, .red, .green])
    /// Fujifilm X-Trans (the layout of the X-T1 … X-T5 family as LibRaw reports it, top-left of the active area).
    public static let xTrans = CFAPattern(
        unchecked: 6, 6,
        [
            .green, .green, .red, .green, .green, .blue,
            .green, .green, .blue, .green, .green, .red,
            .blue, .red, .green, .red, .blue, .green,
            .green, .green, .blue, .green, .green, .red,
            .green, .green, .red, .green, .green, .blue,
            .red, .blue, .green, .blue, .red, .green,
        ])

    /// The four 2×2 Bayer layouts.
    public static let bayerPatterns: [CFAPattern] = [.rggb, .bggr, .grbg, .gbrg]

    /// Whether this is a 2×2 pattern with two greens on one diagonal and red and blue on the other.
    public var isBayer: Bool { CFAPattern.bayerPatterns.contains(self) }

    /// The colour at a pixel position, counted from the pattern's origin.
    @inline(__always)
    public func color(row: Int, column: Int) -> CFAColor {
        colors[(row % height) * width + column % width]
    }

    /// The index into ``colors`` for a pixel position, counted from the pattern's origin.
    @inline(__always)
    public func index(row: Int, column: Int) -> Int {
        (row % height) * width + column % width
    }

    /// The same sensor seen from a different origin, e.g. after cropping `rows` rows and `columns` columns.
    public func shifted(rows: Int, columns: Int) -> CFAPattern {
        var shifted = [CFAColor]()
        shifted.reserveCapacity(colors.count)
        for row in 0..<height {
            for column in 0..<width { shifted.append(color(row: row + rows, column: column + columns)) }
        }
        return CFAPattern(unchecked: width, height, shifted)
    }

    /// A name such as `RGGB`, or `X-Trans`, or the colours row by row for any other pattern.
    public var name: String {
        if self == .xTrans { return "X-Trans" }
        return colors.map(\.description).joined()
    }

    public var description: String { name }

    /// Parses `RGGB`, `BGGR`, `GRBG`, `GBRG` (any case) or `xtrans`/`x-trans`.
    public init?(name: String) {
        switch name.lowercased() {
        case "rggb": self = .rggb
        case "bggr": self = .bggr
        case "grbg": self = .grbg
        case "gbrg": self = .gbrg
        case "xtrans", "x-trans": self = .xTrans
        default: return nil
        }
    }
}
