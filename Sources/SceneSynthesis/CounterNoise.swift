import RawImage

/// A counter-based pseudo-random source: every photosite's random numbers come from hashing the seed with the
/// photosite's index, so rows can be generated in any order, on any number of threads, and still give the
/// same samples bit for bit.
///
/// The hash is SplitMix64's finaliser (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
/// OOPSLA 2014), which passes BigCrush when fed a counter. A normal deviate is the Irwin–Hall sum of the four
/// 16-bit quarters of one hash, rescaled to unit variance: bounded at ±3.46σ, which is plenty for sensor noise
/// and needs no logarithm or trigonometry per pixel.
struct CounterNoise: Sendable {
    private let key: UInt64

    init(seed: UInt64, stream: UInt64) {
        key = CounterNoise.mix(seed &+ 0x9E37_79B9_7F4A_7C15 &* (stream &+ 1))
    }

    @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// An approximately standard-normal deviate for the counter `index`.
    @inline(__always)
    func gaussian(_ index: Int) -> Float {
        let bits = CounterNoise.mix(key ^ UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03)
        let sum =
            UInt32(truncatingIfNeeded: bits & 0xFFFF) + UInt32(truncatingIfNeeded: (bits >> 16) & 0xFFFF)
            + UInt32(truncatingIfNeeded: (bits >> 32) & 0xFFFF) + UInt32(truncatingIfNeeded: bits >> 48)
        // Four uniforms on [0, 1) sum to mean 2 and variance 4/12; scale to variance 1.
        return (Float(sum) * (1 / 65536) - 2) * 1.732_050_8
    }
}
