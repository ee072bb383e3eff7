import LosslessJPEG

/// A small deterministic generator (SplitMix64), so failures reproduce.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Sample patterns for round trips.
enum TestData {
    /// Uniform random samples below 2^precision: every category, long codes, little compression.
    static func random(count: Int, precision: Int, seed: UInt64) -> [UInt16] {
        var generator = SplitMix64(seed: seed)
        let mask = UInt64((1 << precision) - 1)
        return (0..<count).map { _ in UInt16(generator.next() & mask) }
    }

    /// Sensor-like data: a smooth 2-D gradient plus a little noise, per component offset; mostly small differences.
    static func smooth(width: Int, height: Int, components: Int, precision: Int, seed: UInt64) -> [UInt16] {
        var generator = SplitMix64(seed: seed)
        let maximum = Double((1 << precision) - 1)
        var samples: [UInt16] = []
        samples.reserveCapacity(width * height * components)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<components {
                    let base = 0.2 + 0.5 * Double(x) / Double(max(width, 1)) + 0.2 * Double(y) / Double(max(height, 1))
                    let noise = Double(generator.next() % 17) - 8
                    let value = (base + 0.05 * Double(c)) * maximum * 0.9 + noise
                    samples.append(UInt16(min(max(value, 0), maximum)))
                }
            }
        }
        return samples
    }

    /// Samples alternating between `low` and `high`. At 16 bits, 0 and 65535 give differences ±65535, which are
    /// ±1 modulo 2^16, while the first sample (predicted as 32768) differs by −32768: category 16 (T.81 H.1.2.2).
    /// 0 and 32768 make every difference ±32768, all category 16.
    static func alternating(count: Int, _ low: UInt16, _ high: UInt16) -> [UInt16] {
        (0..<count).map { $0 % 2 == 0 ? low : high }
    }
}

extension LJ92Encoder {
    /// Encodes contiguous rows, for tests.
    func encode(_ samples: [UInt16], width: Int) throws -> [UInt8] {
        try encode(samples, samplesPerRow: width * components)
    }
}
