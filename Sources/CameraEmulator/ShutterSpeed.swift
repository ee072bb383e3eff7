import RawImage

/// One shutter speed the emulated camera offers: the nominal time photographers read (1/60 s) and the value the
/// ExposureTime property (0x500D) carries for it.
///
/// PTP counts exposure time in units of 1/10000 s (ISO 15740 §13.5.13, `UINT32`), so nominal speeds such as 1/60 s
/// have no exact PTP value; the camera sends the nearest unit (167) and exposes, and records in EXIF, the nominal
/// time, as real cameras do (their 1/60 s is 1/64 s in the sensor's terms).
public struct ShutterSpeed: Hashable, Sendable, CustomStringConvertible {
    /// The nominal time in seconds, e.g. 1/60.
    public let nominal: Rational
    /// The ExposureTime property value: the nominal time in 1/10000 s, rounded to the nearest unit.
    public let propertyValue: UInt32

    /// Creates a shutter speed of `numerator/denominator` seconds; `nil` unless positive and at least 1/20000 s (a
    /// shorter time would round to 0 units).
    public init?(_ numerator: Int32, _ denominator: Int32) {
        guard numerator > 0, denominator > 0, let time = Rational(numerator, denominator) else { return nil }
        let units = (time.doubleValue * 10_000).rounded(.toNearestOrAwayFromZero)
        guard units >= 1, units <= Double(UInt32.max) else { return nil }
        nominal = time
        propertyValue = UInt32(units)
    }

    /// The speeds in third stops from 1/2000 s to 30 s: the fastest end is where 1/10000 s units still tell
    /// neighbouring thirds apart (1/3200 and 1/4000 s would both be 3).
    public static let thirdStops: [ShutterSpeed] = [
        (1, 2000), (1, 1600), (1, 1250), (1, 1000), (1, 800), (1, 640), (1, 500), (1, 400), (1, 320), (1, 250),
        (1, 200), (1, 160), (1, 125), (1, 100), (1, 80), (1, 60), (1, 50), (1, 40), (1, 30), (1, 25), (1, 20),
        (1, 15), (1, 13), (1, 10), (1, 8), (1, 6), (1, 5), (1, 4), (3, 10), (2, 5), (1, 2), (3, 5), (4, 5), (1, 1),
        (13, 10), (8, 5), (2, 1), (5, 2), (16, 5), (4, 1), (5, 1), (6, 1), (8, 1), (10, 1), (13, 1), (15, 1),
        (20, 1), (25, 1), (30, 1),
    ].compactMap { ShutterSpeed($0.0, $0.1) }

    /// `1/60 s` or `2 s`.
    public var description: String { "\(nominal) s" }
}
