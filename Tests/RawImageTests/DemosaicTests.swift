import Foundation
import RawImage
import SceneSynthesis
import Testing

@Suite struct DemosaicTests {
    /// A frame whose every photosite of one colour reads the same value: a flat colour field.
    static func flatField(cfa: CFAPattern, width: Int = 40, height: Int = 36) throws -> (
        RawFrame, (Float, Float, Float)
    ) {
        let levels: [CFAColor: UInt16] = [.red: 3000, .green: 9000, .blue: 5000]
        // Different black levels per pattern position, to check they are subtracted per position.
        let blacks = (0..<(cfa.width * cfa.height)).map { Double(500 + 7 * ($0 % 5)) }
        let active = PixelRect(x: 2, y: 4, width: width - 2, height: height - 4)
        var samples = [UInt16](repeating: 0, count: width * height)
        let probe = try RawFrame(
            width: width, height: height, bitsPerSample: 14, samples: samples, cfa: cfa, blackLevels: blacks,
            whiteLevel: 15000, activeArea: active)
        for row in 0..<height {
            for column in 0..<width {
                let black = probe.blackLevel(row: row, column: column)
                samples[row * width + column] =
                    levels[probe.color(row: row, column: column), default: 0] + UInt16(black)
            }
        }
        let frame = try probe.withSamples(samples)
        // Black-subtracted and scaled by (white − black) of each position; positions of one colour differ in
        // black, so the expected value is per position, and this helper returns the first position's.
        let expected = (
            Float(levels[.red, default: 0]), Float(levels[.green, default: 0]), Float(levels[.blue, default: 0])
        )
        return (frame, expected)
    }

    @Test(arguments: CFAPattern.bayerPatterns + [.xTrans], DemosaicAlgorithm.allCases)
    func flatColourFieldReconstructsExactly(cfa: CFAPattern, algorithm: DemosaicAlgorithm) throws {
        let (frame, levels) = try Self.flatField(cfa: cfa)
        let image = try frame.demosaiced(algorithm)
        #expect(image.width == frame.activeArea.width && image.height == frame.activeArea.height)
        // Every position of one colour has the same signal; scales differ by (15000 − black), so compare in
        // signal units: value × (15000 − black of that pixel's own position) for its own channel, and for the
        // interpolated channels against the mean scale (blacks differ by at most 28, i.e. 0.2 %).
        var worst: Float = 0
        for row in 0..<image.height {
            for column in 0..<image.width {
                let pixel = image.pixel(row: row, column: column)
                let black = Float(frame.blackLevel(row: row + frame.activeArea.y, column: column + frame.activeArea.x))
                let scale = 15000 - black
                for (value, level) in [(pixel.0, levels.0), (pixel.1, levels.1), (pixel.2, levels.2)] {
                    worst = max(worst, abs(value * scale - level) / level)
                }
            }
        }
        #expect(worst < 0.003, "largest relative error \(worst)")
    }

    @Test(arguments: CFAPattern.bayerPatterns + [.xTrans])
    func flatFieldWithOneBlackLevelIsExactToRounding(cfa: CFAPattern) throws {
        let (frame, levels) = try Self.flatField(cfa: cfa)
        let uniform = try RawFrame(
            width: frame.width, height: frame.height, bitsPerSample: 14,
            samples: frame.samples.enumerated().map { index, value in
                let row = index / frame.width
                let column = index % frame.width
                return value - UInt16(frame.blackLevel(row: row, column: column)) + 512
            }, cfa: cfa, blackLevels: [Double](repeating: 512, count: cfa.width * cfa.height), whiteLevel: 15000,
            activeArea: frame.activeArea)
        for algorithm in DemosaicAlgorithm.allCases {
            let image = try uniform.demosaiced(algorithm)
            let scale: Float = 15000 - 512
            for value in stride(from: 0, to: image.pixels.count, by: 3) {
                #expect(abs(image.pixels[value] * scale - levels.0) < 0.01)
                #expect(abs(image.pixels[value + 1] * scale - levels.1) < 0.01)
                #expect(abs(image.pixels[value + 2] * scale - levels.2) < 0.01)
            }
        }
    }

    /// Mean squared error against the noise-free scene, over the default crop (8 pixels in from the edges).
    static func error(of image: CameraRGBImage, against truth: CameraRGBImage, crop: PixelRect) -> Double {
        var sum = 0.0
        var count = 0
        for row in crop.y..<crop.bottom {
            for column in crop.x..<crop.right {
                let a = image.pixel(row: row, column: column)
                let b = truth.pixel(row: row, column: column)
                for (x, y) in [(a.0, b.0), (a.1, b.1), (a.2, b.2)] {
                    let d = Double(min(x, 1) - min(y, 1))
                    sum += d * d
                    count += 1
                }
            }
        }
        return sum / Double(count)
    }

    @Test(arguments: CFAPattern.bayerPatterns + [.xTrans])
    func highQualityBeatsBilinearOnTheTestChart(cfa: CFAPattern) throws {
        var scene = try SyntheticScene(width: 480, height: 320, cfa: cfa, bitsPerSample: 16)
        scene.sensor = .noiseless
        let settings = try exposure(bias: 1)
        let truth = try scene.cameraResponse(exposure: settings)
        let frame = try scene.render(exposure: settings)
        let bilinearImage = try frame.demosaiced(.bilinear)
        let qualityImage = try frame.demosaiced(.highQuality)
        func gain(_ rect: PixelRect) -> Double {
            let bilinear = Self.error(of: bilinearImage, against: truth, crop: rect)
            let quality = Self.error(of: qualityImage, against: truth, crop: rect)
            return 10 * log10(bilinear / quality)
        }
        // The whole chart includes 1-pixel gratings and a zone plate up to Nyquist, which alias for every
        // linear method, so the margin there is smaller than Malvar et al.'s 5.5 dB on photographs; the Siemens
        // star (upper right, 65–95 % across, 6–45 % down) has edges at every angle but no aliasing.
        let active = frame.activeArea
        let star = PixelRect(
            x: active.width * 65 / 100, y: active.height * 6 / 100, width: active.width * 30 / 100,
            height: active.height * 39 / 100)
        let whole = gain(frame.defaultCrop)
        let edges = gain(star)
        #expect(whole > (cfa.isBayer ? 1.8 : 0.4), "PSNR gain on the whole chart \(whole) dB")
        #expect(edges > (cfa.isBayer ? 2.5 : 2.0), "PSNR gain on the Siemens star \(edges) dB")
    }

    @Test func regionSelectsPartOfTheActiveArea() throws {
        let scene = try SyntheticScene(width: 64, height: 64, cfa: .rggb, bitsPerSample: 12)
        let frame = try scene.render()
        let whole = try frame.demosaiced()
        let part = try frame.demosaiced(region: PixelRect(x: 10, y: 12, width: 20, height: 8))
        #expect(part.width == 20 && part.height == 8)
        for row in 0..<8 {
            for column in 0..<20 {
                let a = part.pixel(row: row, column: column)
                let b = whole.pixel(row: row + 12, column: column + 10)
                #expect(a == b)
            }
        }
        #expect(throws: RawImageError(.invalidGeometry)) {
            try frame.demosaiced(region: PixelRect(x: 50, y: 0, width: 20, height: 8))
        }
    }

    @Test(arguments: [(1, 1), (2, 3), (5, 4), (9, 7)])
    func tinyFramesDoNotTrap(width: Int, height: Int) throws {
        for cfa in [CFAPattern.rggb, .xTrans] {
            let scene = try SyntheticScene(width: width, height: height, cfa: cfa, bitsPerSample: 12)
            for algorithm in DemosaicAlgorithm.allCases {
                let image = try scene.render().demosaiced(algorithm)
                #expect(image.pixels.allSatisfy { $0.isFinite })
            }
        }
    }
}
