/// A CIE 1931 xy chromaticity: the colour of a light or white point without its brightness.
public struct Chromaticity: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The x coordinate.
    public var x: Double
    /// The y coordinate.
    public var y: Double

    /// Creates a chromaticity.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The chromaticity of an XYZ colour; `nil` when X + Y + Z is not positive or a coordinate is not finite.
    public init?(xyz: (Double, Double, Double)) {
        let sum = xyz.0 + xyz.1 + xyz.2
        guard sum > 0, sum.isFinite else { return nil }
        let x = xyz.0 / sum
        let y = xyz.1 / sum
        guard x.isFinite, y.isFinite, y > 0 else { return nil }
        self.init(x: x, y: y)
    }

    /// The XYZ colour with this chromaticity and a luminance Y of 1.
    public var xyz: (Double, Double, Double) {
        (x / y, 1, (1 - x - y) / y)
    }

    /// CIE standard illuminant D65 (CIE 15:2004 Table T.3, 2° observer).
    public static let d65 = Chromaticity(x: 0.31271, y: 0.32902)
    /// CIE standard illuminant D50, the ICC and DNG profile connection white (CIE 15:2004 Table T.3).
    public static let d50 = Chromaticity(x: 0.34567, y: 0.35850)
    /// CIE standard illuminant D55 (CIE 15:2004 Table T.3).
    public static let d55 = Chromaticity(x: 0.33242, y: 0.34743)
    /// CIE standard illuminant D75 (CIE 15:2004 Table T.3).
    public static let d75 = Chromaticity(x: 0.29902, y: 0.31485)
    /// CIE standard illuminant A, tungsten at 2856 K (CIE 15:2004 Table T.3).
    public static let standardA = Chromaticity(x: 0.44757, y: 0.40745)

    /// The correlated colour temperature in kelvin, by McCamy's cubic ("Correlated color temperature as an
    /// explicit function of chromaticity coordinates", Color Res. Appl. 17, 1992), clamped to 1000…50000 K.
    ///
    /// McCamy's formula is within a few kelvin of Robertson's method between 2000 K and 12500 K, the range
    /// camera calibration illuminants span (A gives 2857 K, D65 6504 K), which is all DNG's matrix
    /// interpolation needs: it weights by inverse temperature, where a few kelvin are far below a mired.
    public var correlatedColorTemperature: Double {
        let denominator = 0.1858 - y
        guard abs(denominator) > 1e-9 else { return 50_000 }
        let n = (x - 0.3320) / denominator
        let cct = ((449 * n + 3525) * n + 6823.3) * n + 5520.33
        guard cct.isFinite else { return 50_000 }
        return min(max(cct, 1000), 50_000)
    }

    public var description: String {
        "(\((x * 10000).rounded() / 10000), \((y * 10000).rounded() / 10000))"
    }
}
