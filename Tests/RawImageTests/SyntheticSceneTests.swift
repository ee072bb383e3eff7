import RawImage
import SceneSynthesis
import Testing

/// Statistics over the photosites of one filter colour inside a rectangle of a frame, black level subtracted.
struct PhotositeStats {
    var count = 0
    var sum = 0.0
    var sumOfSquares = 0.0
    var mean: Double { count > 0 ? sum / Double(count) : 0 }
    var standardDeviation: Double {
        guard count > 1 else { return 0 }
        return ((sumOfSquares - sum * sum / Double(count)) / Double(count - 1)).squareRoot()
    }

    init(_ frame: RawFrame, _ rect: PixelRect, color: CFAColor) {
        for row in rect.y..<rect.bottom {
            for column in rect.x..<rect.right where frame.color(row: row, column: column) == color {
                let value = Double(frame.sample(row: row, column: column)) - frame.blackLevel(row: row, column: column)
                count += 1
                sum += value
                sumOfSquares += value * value
            }
        }
    }
}

/// FNV-1a over the samples: enough to tell two sample arrays apart in a test.
func digest(_ samples: [UInt16]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for sample in samples {
        hash = (hash ^ UInt64(sample & 0xFF)) &* 0x100_0000_01b3
        hash = (hash ^ UInt64(sample >> 8)) &* 0x100_0000_01b3
    }
    return hash
}

func exposure(bias: Int32 = 0, time: Rational? = Rational(1, 125), fNumber: Double = 8, iso: Int = 100) throws
    -> ExposureSettings
{
    try ExposureSettings(
        exposureTime: try #require(time), fNumber: fNumber, iso: iso, exposureBias: try #require(Rational(bias, 1)))
}

@Suite struct SyntheticSceneTests {
    static let neutral5 = 21  // "neutral 5": 18 % grey

    @Test func sameInputsGiveTheSameSamplesBitForBit() throws {
        let scene = try SyntheticScene(width: 320, height: 240, cfa: .rggb, bitsPerSample: 14)
        let first = try scene.render(seed: 42)
        let second = try scene.render(seed: 42)
        #expect(digest(first.samples) == digest(second.samples))
        #expect(first.samples == second.samples)
        let other = try scene.render(seed: 43)
        #expect(digest(other.samples) != digest(first.samples))
        // Different noise, same scene: the means agree closely.
        let rect = scene.patchRect(Self.neutral5)
        let a = PhotositeStats(first, rect, color: .green).mean
        let b = PhotositeStats(other, rect, color: .green).mean
        #expect(abs(a - b) / a < 0.05)
    }

    @Test func bracketOfTwoEVStepsQuadruplesTheSignal() throws {
        let scene = try SyntheticScene(width: 600, height: 400, cfa: .rggb, bitsPerSample: 14)
        let rect = scene.patchRect(Self.neutral5)
        let means = try [-2, 0, 2].map { bias in
            PhotositeStats(try scene.render(exposure: try exposure(bias: Int32(bias))), rect, color: .green).mean
        }
        #expect(abs(means[1] / means[0] - 4) < 0.15, "\(means)")
        #expect(abs(means[2] / means[1] - 4) < 0.15, "\(means)")
        // At the metered exposure an 18 % grey sits about 3.4 EV below clipping.
        let range = Double(scene.whiteLevel - scene.blackLevel)
        #expect((0.07...0.12).contains(means[1] / range), "\(means[1] / range)")
    }

    @Test func shutterApertureAndISOScaleThePixelsPredictably() throws {
        let scene = try SyntheticScene(width: 600, height: 400, cfa: .gbrg, bitsPerSample: 12)
        let rect = scene.patchRect(Self.neutral5)
        func mean(_ settings: ExposureSettings) throws -> Double {
            PhotositeStats(try scene.render(exposure: settings), rect, color: .green).mean
        }
        let base = try mean(try exposure())
        #expect(abs(try mean(try exposure(time: Rational(1, 60))) / base - 125.0 / 60) < 0.08)
        #expect(abs(try mean(try exposure(fNumber: 5.6)) / base - 64 / 31.36) < 0.08)
        #expect(abs(try mean(try exposure(iso: 200)) / base - 2) < 0.08)
        let expected = scene.whiteSignalFraction(.standard) * ChartPatch.colorChecker[Self.neutral5].xyzD65.1
        #expect(abs(base / Double(scene.whiteLevel - scene.blackLevel) / expected - 1) < 0.03)
    }

    @Test func overexposureClipsAtTheWhiteLevel() throws {
        let scene = try SyntheticScene(width: 300, height: 200, cfa: .rggb, bitsPerSample: 14)
        let frame = try scene.render(exposure: try exposure(bias: 5))
        let rect = scene.patchRect(18)  // white
        for row in rect.y..<rect.bottom {
            for column in rect.x..<rect.right {
                #expect(Int(frame.sample(row: row, column: column)) == scene.whiteLevel)
            }
        }
        #expect(frame.samples.allSatisfy { Int($0) <= scene.whiteLevel })
    }

    @Test func noiseGrowsWithISOAsModelled() throws {
        let scene = try SyntheticScene(width: 1200, height: 800, cfa: .rggb, bitsPerSample: 14)
        let rect = scene.patchRect(Self.neutral5)
        let range = Double(scene.whiteLevel - scene.blackLevel)
        var sigmas: [Double] = []
        // Same light on the sensor at every ISO (the shutter shortens as ISO rises), so only the gain changes.
        for (iso, denominator) in [(100, 125), (1600, 2000), (6400, 8000)] {
            let settings = try exposure(time: Rational(1, Int32(denominator)), iso: iso)
            let stats = PhotositeStats(try scene.render(exposure: settings, seed: 7), rect, color: .green)
            let modelled = scene.sensor.noiseSigma(
                fraction: stats.mean / range, range: range, iso: iso, bitsPerSample: 14)
            #expect(
                abs(stats.standardDeviation / modelled - 1) < 0.1,
                "ISO \(iso): \(stats.standardDeviation) vs \(modelled)")
            sigmas.append(stats.standardDeviation)
        }
        #expect(sigmas[0] < sigmas[1] && sigmas[1] < sigmas[2])
        // Masked pixels: black level plus read noise.
        let frame = try scene.render(exposure: try exposure(iso: 3200), seed: 1)
        let masked = PixelRect(x: 0, y: scene.activeArea.y, width: scene.activeArea.x, height: 200)
        var sum = 0.0
        var sumOfSquares = 0.0
        for row in masked.y..<masked.bottom {
            for column in masked.x..<masked.right {
                let value = Double(frame.sample(row: row, column: column))
                sum += value
                sumOfSquares += value * value
            }
        }
        let count = Double(masked.width * masked.height)
        let mean = sum / count
        let sigma = ((sumOfSquares - sum * sum / count) / (count - 1)).squareRoot()
        #expect(abs(mean - Double(scene.blackLevel)) < 1)
        let readSigma = scene.sensor.readVariance(range: range, iso: 3200, bitsPerSample: 14).squareRoot()
        #expect(abs(sigma / readSigma - 1) < 0.1, "\(sigma) vs \(readSigma)")
    }

    @Test(arguments: CFAPattern.bayerPatterns + [.xTrans])
    func chartColoursLandOnTheRightPhotosites(cfa: CFAPattern) throws {
        let scene = try SyntheticScene(width: 480, height: 360, cfa: cfa, bitsPerSample: 14)
        let frame = try scene.render()
        func stats(_ patch: Int) -> (Double, Double, Double) {
            let rect = scene.patchRect(patch)
            return (
                PhotositeStats(frame, rect, color: .red).mean, PhotositeStats(frame, rect, color: .green).mean,
                PhotositeStats(frame, rect, color: .blue).mean
            )
        }
        let red = stats(14)
        #expect(red.0 > 3 * red.2 && red.0 > red.1, "red patch \(red)")
        let green = stats(13)
        #expect(green.1 > 2 * green.0 && green.1 > 1.5 * green.2, "green patch \(green)")
        let blue = stats(12)
        #expect(blue.2 > 2 * blue.0, "blue patch \(blue)")
        // A grey under D65 gives the camera's daylight neutral (0.47, 1, 0.66).
        let grey = stats(Self.neutral5)
        let neutral = frame.color.asShotNeutral
        #expect(abs(grey.0 / grey.1 - neutral[0]) < 0.03 && abs(grey.2 / grey.1 - neutral[2]) < 0.03)
    }

    @Test func standardALightShiftsTheBalanceTowardRed() throws {
        var scene = try SyntheticScene(width: 480, height: 360, cfa: .bggr, bitsPerSample: 14)
        scene.illuminant = .standardA
        let frame = try scene.render()
        let rect = scene.patchRect(Self.neutral5)
        let r = PhotositeStats(frame, rect, color: .red).mean
        let g = PhotositeStats(frame, rect, color: .green).mean
        let b = PhotositeStats(frame, rect, color: .blue).mean
        let neutral = frame.color.asShotNeutral
        #expect(abs(r / g - neutral[0]) < 0.03 && abs(b / g - neutral[2]) < 0.03, "\(r / g), \(b / g) vs \(neutral)")
        #expect(neutral[2] < 0.5 && neutral[0] > 0.7)
        #expect(frame.color.illuminant1 == .standardA && frame.color.illuminant2 == .d65)
    }

    @Test func colourTagsAreInvertibleAndNormalisedAsDNGExpects() throws {
        let scene = try SyntheticScene(width: 64, height: 64, cfa: .rggb, bitsPerSample: 14)
        let color = try scene.colorCalibration()
        for matrix in [color.colorMatrix1, try #require(color.colorMatrix2)] {
            #expect(matrix.inverse != nil)
            // DNG SDK normalisation: D50 white maps to a camera value whose largest entry is 1.
            let d50 = matrix.apply((0.96422, 1, 0.82521))
            #expect(abs(max(d50.0, d50.1, d50.2) - 1) < 1e-3)
        }
        for forward in [try #require(color.forwardMatrix1), try #require(color.forwardMatrix2)] {
            let white = forward.apply((1, 1, 1))  // must be D50 white
            #expect(abs(white.0 - 0.96422) < 2e-3 && abs(white.1 - 1) < 1e-9 && abs(white.2 - 0.82521) < 2e-3)
        }
        #expect(color.asShotNeutral.max() == 1)
    }

    @Test(arguments: [8, 10, 12, 14, 16])
    func everyDepthHasRealisticLevels(bits: Int) throws {
        let scene = try SyntheticScene(width: 64, height: 48, cfa: .grbg, bitsPerSample: bits)
        let frame = try scene.render(exposure: try exposure(bias: 3))
        #expect(frame.bitsPerSample == bits)
        // 512 at 14 bits, scaled with the depth.
        #expect(frame.blackLevels.allSatisfy { $0 * 16384 == 512 * Double(1 << bits) })
        #expect(scene.whiteLevel < frame.maxSampleValue && scene.whiteLevel > frame.maxSampleValue * 9 / 10)
        #expect(frame.samples.allSatisfy { Int($0) <= scene.whiteLevel })
        #expect(frame.samples.contains { Int($0) == scene.whiteLevel })
    }

    @Test(arguments: [(16, 16), (1, 1), (7, 3), (33, 17), (100, 4000)])
    func anySizeRenders(width: Int, height: Int) throws {
        for cfa in [CFAPattern.rggb, .xTrans] {
            let scene = try SyntheticScene(width: width, height: height, cfa: cfa, bitsPerSample: 14)
            let frame = try scene.render()
            #expect(frame.width == width && frame.height == height)
            #expect(frame.activeArea == scene.activeArea)
        }
    }

    @Test func metadataComesFromTheParametersAndTheCaller() throws {
        var scene = try SyntheticScene(width: 64, height: 64, cfa: .rggb, bitsPerSample: 14)
        scene.identity.serialNumber = "EMU42"
        scene.identity.orientation = .rotate90
        let time = try CaptureTime(year: 2024, month: 5, day: 6, hour: 7, minute: 8, second: 9, subSeconds: "250")
        let settings = try ExposureSettings(
            exposureTime: try #require(Rational(1, 250)), fNumber: 4, iso: 400,
            exposureBias: try #require(Rational(-2, 3)), focalLength: 35)
        let frame = try scene.render(exposure: settings, seed: 3, captureTime: time)
        #expect(frame.metadata.make == "rawcap")
        #expect(frame.metadata.model == "Emulated Camera")
        #expect(frame.metadata.serialNumber == "EMU42")
        #expect(frame.metadata.lensModel != nil)
        #expect(frame.metadata.exposureTime == Rational(1, 250))
        #expect(frame.metadata.fNumber == 4 && frame.metadata.iso == 400 && frame.metadata.focalLength == 35)
        #expect(frame.metadata.exposureBias == Rational(-2, 3))
        #expect(frame.metadata.captureTime == time)
        #expect(frame.metadata.orientation == .rotate90)
        #expect(frame.activeArea.x == 2 && frame.activeArea.y == 2)
    }

    @Test func rejectsUnusableParameters() throws {
        #expect(throws: RawImageError(.invalidSize)) {
            try SyntheticScene(width: 0, height: 10, cfa: .rggb, bitsPerSample: 14)
        }
        #expect(throws: RawImageError(.invalidSize)) {
            try SyntheticScene(width: 65535, height: 65535, cfa: .rggb, bitsPerSample: 14)
        }
        #expect(throws: RawImageError(.unsupportedBitDepth)) {
            try SyntheticScene(width: 10, height: 10, cfa: .rggb, bitsPerSample: 17)
        }
        let cyan = try CFAPattern(width: 1, height: 1, colors: [CFAColor(rawValue: 3)])
        #expect(throws: RawImageError(.invalidPattern)) {
            try SyntheticScene(width: 10, height: 10, cfa: cyan, bitsPerSample: 12)
        }
        #expect(throws: RawImageError(.invalidGeometry)) {
            try SyntheticScene(width: 10, height: 10, cfa: .rggb, bitsPerSample: 12, maskedMargin: 10)
        }
        #expect(throws: RawImageError(.invalidSettings)) {
            try ExposureSettings(exposureTime: try #require(Rational(0, 1)), fNumber: 8, iso: 100)
        }
        #expect(throws: RawImageError(.invalidSettings)) {
            try ExposureSettings(exposureTime: try #require(Rational(1, 100)), fNumber: 0, iso: 100)
        }
        var scene = try SyntheticScene(width: 10, height: 10, cfa: .rggb, bitsPerSample: 12)
        scene.whiteLuminance = .nan
        #expect(throws: RawImageError(.invalidSettings)) { try scene.render() }
    }
}
