/// Synthetic sensor data for benchmarks: what a real raw frame looks like to a predictor.
enum SyntheticFrame {
    /// An RGGB mosaic of smooth gradients and broad shapes (per-channel gains like a daylight scene), plus noise of
    /// a few DN that grows with the signal, as photon shot noise does. Differences between same-colour neighbours
    /// are mostly categories 3…6, as in real 14-bit raw files.
    static func bayer(width: Int, height: Int, bitsPerSample: Int, seed: UInt64) -> [UInt16] {
        var generator = SplitMix64(seed: seed)
        let white = Double((1 << bitsPerSample) - 1)
        let black = white / 16  // 1023 at 14 bits, between Nikon's 600 and Canon's 2048
        let gains = [0.55, 1.0, 1.0, 0.42]  // R, G1, G2, B
        var samples = [UInt16](repeating: 0, count: width * height)
        for y in 0..<height {
            let v = Double(y) / Double(height)
            for x in 0..<width {
                let u = Double(x) / Double(width)
                // Gradients plus a few soft "objects": smooth at the scale of neighbouring pixels.
                var scene = 0.15 + 0.45 * u * (0.6 + 0.4 * v)
                let dx = u - 0.35
                let dy = v - 0.55
                scene += 0.35 * max(0, 1 - (dx * dx + dy * dy) * 18)
                scene += 0.08 * Double((x / 700 + y / 500) % 3)
                let channel = (y & 1) * 2 + (x & 1)
                let signal = black + scene * gains[channel] * (white - black) * 0.9
                // Noise: roughly Gaussian (sum of three uniforms), sigma ≈ 2 DN + shot noise.
                let sigma = 2 + (signal / 16).squareRoot()
                let uniform =
                    Double(generator.next() % 2048) + Double(generator.next() % 2048)
                    + Double(generator.next() % 2048) - 3069
                let value = signal + uniform / 1773 * sigma * 1.0
                samples[y * width + x] = UInt16(min(max(value.rounded(), 0), white))
            }
        }
        return samples
    }
}

/// SplitMix64: a small, fast, reproducible generator.
struct SplitMix64 {
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
