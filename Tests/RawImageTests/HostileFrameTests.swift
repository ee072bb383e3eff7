import RawImage
import SceneSynthesis
import Testing

/// Frames straight from a camera or a file can hold anything their types allow: the renderers must throw or
/// produce an image, never trap.
@Suite struct HostileFrameTests {
    static func randomFrame(cfa: CFAPattern, seed: UInt64) throws -> RawFrame {
        var state = seed
        let samples = (0..<(48 * 40)).map { _ -> UInt16 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt16(truncatingIfNeeded: state >> 48)
        }
        // Samples above the white level and black levels close to it.
        return try RawFrame(
            width: 48, height: 40, bitsPerSample: 16, samples: samples, cfa: cfa,
            blackLevels: [Double](repeating: 60000, count: cfa.width * cfa.height), whiteLevel: 60001)
    }

    @Test(arguments: [CFAPattern.rggb, .xTrans])
    func randomSamplesRenderWithoutTrapping(cfa: CFAPattern) throws {
        for seed in 1...4 {
            let frame = try Self.randomFrame(cfa: cfa, seed: UInt64(seed))
            for method in RenderOptions.Method.allCases {
                let image = try frame.renderRGB8(RenderOptions(longSide: 20, method: method))
                #expect(image.pixels.count == image.width * image.height * 3)
            }
            _ = try frame.renderRGB16()
            let linear = try LinearImage(demosaicing: frame, encoding: .companded12)
            #expect(linear.samples.allSatisfy { $0 < 4096 })
        }
    }

    /// Black levels are doubles from a file: any finite value is refused with a typed error, none traps (issue 17:
    /// 1e300 trapped converting to Int).
    @Test(arguments: [1e300, 1.7e308, Double(Int.max), 9.3e18, 4095.5, 4096])
    func absurdBlackLevelsAreTypedErrors(black: Double) throws {
        #expect(throws: RawImageError(.invalidLevels)) {
            try RawFrame(
                width: 16, height: 16, bitsPerSample: 12, samples: [UInt16](repeating: 0, count: 256), cfa: .rggb,
                blackLevels: [0, black, 0, 0], whiteLevel: 4095)
        }
    }

    @Test(arguments: [[0.0, 1, 1], [1, 1], [.nan, 1, 1], [1, .infinity, 1], [1e-300, 1, 1]])
    func unusableNeutralsAreTypedErrors(neutral: [Double]) throws {
        var frame = try SyntheticScene(width: 40, height: 40, cfa: .rggb, bitsPerSample: 12).render()
        frame.color.asShotNeutral = neutral
        #expect(throws: RawImageError(.invalidColor)) { try frame.renderRGB8() }
        #expect(throws: RawImageError(.invalidColor)) { try frame.renderRGB8(RenderOptions(longSide: 8)) }
        #expect(throws: RawImageError(.invalidColor)) { try frame.demosaiced() }
        #expect(throws: RawImageError(.invalidColor)) { try LinearImage(demosaicing: frame) }
    }

    @Test func patternsWithoutRedGreenAndBlueAreTypedErrors() throws {
        let cmy = try CFAPattern(
            width: 2, height: 2, colors: [CFAColor(rawValue: 3), CFAColor(rawValue: 4), CFAColor(rawValue: 5), .green])
        let frame = try RawFrame(
            width: 16, height: 16, bitsPerSample: 12, samples: [UInt16](repeating: 100, count: 256), cfa: cmy,
            blackLevels: [0, 0, 0, 0], whiteLevel: 4000)
        #expect(throws: RawImageError(.invalidPattern)) { try frame.demosaiced() }
        #expect(throws: RawImageError(.invalidPattern)) { try frame.renderRGB8(RenderOptions(longSide: 4)) }
    }

    @Test func extremeExposureAdjustmentsAreTypedErrors() throws {
        let frame = try SyntheticScene(width: 40, height: 40, cfa: .rggb, bitsPerSample: 12).render()
        #expect(throws: RawImageError(.invalidSettings)) {
            try frame.renderRGB8(RenderOptions(exposureAdjustment: .infinity))
        }
        #expect(throws: RawImageError(.invalidSettings)) {
            try frame.renderRGB8(RenderOptions(exposureAdjustment: 100))
        }
        // Large but sane adjustments saturate or blacken, without trapping (noise below black stays black).
        let bright = try frame.renderRGB8(RenderOptions(exposureAdjustment: 30)).pixels
        #expect(bright.filter { $0 == 255 }.count > bright.count * 9 / 10)
        #expect(try frame.renderRGB8(RenderOptions(exposureAdjustment: -30)).pixels.allSatisfy { $0 <= 1 })
    }
}
