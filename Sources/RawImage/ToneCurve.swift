#if canImport(Glibc)
    import Glibc
#endif

/// A monotone tone curve on 0…1, from (0, 0) to (1, 1): linear scene values in, linear display values out,
/// applied after exposure and before the sRGB transfer curve. It is DNG's ProfileToneCurve (DNG 1.7
/// §ProfileToneCurve, tag 50940), and rawcap's previews use the same curve, so a DNG reader that honours the tag
/// renders a LinearRaw file the way rawcap's own preview looks.
public struct ToneCurve: Hashable, Sendable {
    /// The curve's points, x strictly increasing, first (0, 0), last (1, 1); evaluated by linear interpolation.
    public let points: [Point]

    /// One (input, output) pair of a tone curve.
    public struct Point: Hashable, Sendable {
        /// Input, linear 0…1.
        public var x: Double
        /// Output, linear 0…1.
        public var y: Double
        /// Creates a point.
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// Creates a curve; throws unless it starts at (0, 0), ends at (1, 1), x strictly increases and y never
    /// decreases (DNG 1.7 §ProfileToneCurve requires the end points; monotony keeps tones in order).
    public init(points: [Point]) throws(RawImageError) {
        guard points.count >= 2, points.first == Point(x: 0, y: 0), points.last == Point(x: 1, y: 1) else {
            throw RawImageError(.invalidColor, "a tone curve must run from (0, 0) to (1, 1)")
        }
        for (a, b) in zip(points, points.dropFirst()) where !(b.x > a.x && b.y >= a.y && b.y.isFinite) {
            throw RawImageError(.invalidColor, "tone curve points must increase: (\(a.x), \(a.y)) → (\(b.x), \(b.y))")
        }
        self.points = points
    }

    private init(trusted points: [Point]) { self.points = points }

    /// The identity: output equals input.
    public static let linear = ToneCurve(trusted: [Point(x: 0, y: 0), Point(x: 1, y: 1)])

    /// rawcap's default "camera look": a gentle filmic curve with a slight toe and a long shoulder,
    /// `f(x) = (1 + a)·xᵖ / (xᵖ + a)` with `a` = ``filmicShoulder`` and `p` = ``filmicToe``.
    ///
    /// It lifts mid-tones by about 1 EV (a raw value of 0.094, where the synthetic camera puts an 18 % grey card
    /// at the metered exposure, comes out at 0.186, sRGB 120), keeps the ColorChecker's black patch near its
    /// reference (0.018 → 0.030, sRGB 48) and rolls highlights off into white instead of clipping them (the white
    /// patch, 1.1 EV below clipping, at sRGB 219), much as a camera's JPEG engine does. Sampled at 257 points, denser near black where the
    /// curve bends most, so DNG readers that interpolate the points reproduce it within 0.1 %.
    public static let filmic: ToneCurve = {
        var points = [Point(x: 0, y: 0)]
        for index in 1...256 {
            let x = Double(index * index) / (256 * 256)
            points.append(Point(x: x, y: filmicValue(x)))
        }
        points[points.count - 1] = Point(x: 1, y: 1)
        return ToneCurve(trusted: points)
    }()

    /// The shoulder parameter `a` of ``filmic``: smaller values lift the mid-tones more.
    public static let filmicShoulder = 0.40
    /// The toe exponent `p` of ``filmic``: above 1 deepens the shadows slightly.
    public static let filmicToe = 1.18

    static func filmicValue(_ x: Double) -> Double {
        guard x > 0 else { return 0 }
        let powered = pow(min(x, 1), filmicToe)
        return (1 + filmicShoulder) * powered / (powered + filmicShoulder)
    }

    /// The curve at `x` (clamped to 0…1), by linear interpolation between the points.
    public func callAsFunction(_ x: Double) -> Double {
        guard x > 0 else { return 0 }
        guard x < 1 else { return 1 }
        var low = 0
        var high = points.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if points[middle].x <= x { low = middle } else { high = middle }
        }
        let a = points[low]
        let b = points[high]
        return a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x)
    }

    /// The points as DNG ProfileToneCurve pairs, the form ``LinearImage/profileToneCurve`` holds.
    public var dngPairs: [(x: Double, y: Double)] { points.map { (x: $0.x, y: $0.y) } }
}
