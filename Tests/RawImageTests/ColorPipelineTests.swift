import Foundation
import RawImage
import SceneSynthesis
import Testing

/// CIE L*a*b* (D65 white) of an 8-bit sRGB colour, for ΔE comparisons.
func lab(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double) {
    func linear(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
    let (lr, lg, lb) = (linear(r / 255), linear(g / 255), linear(b / 255))
    let x = (0.4124564 * lr + 0.3575761 * lg + 0.1804375 * lb) / 0.95047
    let y = 0.2126729 * lr + 0.7151522 * lg + 0.0721750 * lb
    let z = (0.0193339 * lr + 0.1191920 * lg + 0.9503041 * lb) / 1.08883
    func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
}

/// CIE 1976 colour difference.
func deltaE(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> Double {
    ((a.0 - b.0) * (a.0 - b.0) + (a.1 - b.1) * (a.1 - b.1) + (a.2 - b.2) * (a.2 - b.2)).squareRoot()
}

/// Mean colour of an 8-bit image over a rectangle.
func mean(_ image: RGBImage8, _ rect: PixelRect) -> (Double, Double, Double) {
    var sums = (0.0, 0.0, 0.0)
    for row in rect.y..<rect.bottom {
        for column in rect.x..<rect.right {
            let index = (row * image.width + column) * 3
            sums.0 += Double(image.pixels[index])
            sums.1 += Double(image.pixels[index + 1])
            sums.2 += Double(image.pixels[index + 2])
        }
    }
    let count = Double(rect.width * rect.height)
    return (sums.0 / count, sums.1 / count, sums.2 / count)
}

@Suite struct ColorPipelineTests {
    /// The inside of a patch in the coordinates of a full-size render of the default crop, with a margin so
    /// that demosaicing at the patch edges does not count.
    static func renderedRect(_ scene: SyntheticScene, _ frame: RawFrame, patch: Int) -> PixelRect {
        let rect = scene.patchRect(patch)
        let x = rect.x - frame.activeArea.x - frame.defaultCrop.x
        let y = rect.y - frame.activeArea.y - frame.defaultCrop.y
        return PixelRect(x: x, y: y, width: rect.width, height: rect.height).inset(by: 3)
    }

    @Test func whitePointAndTemperatureComeFromTheNeutral() throws {
        var scene = try SyntheticScene(width: 32, height: 32, cfa: .rggb, bitsPerSample: 14)
        let daylight = try CameraColorTransform(try scene.colorCalibration())
        #expect(abs(daylight.whitePoint.x - Chromaticity.d65.x) < 1e-3)
        #expect(abs(daylight.whitePoint.y - Chromaticity.d65.y) < 1e-3)
        #expect(abs(daylight.correlatedColorTemperature - 6504) < 30)
        #expect(daylight.calibrationWeight < 0.01)  // all ColorMatrix2 (D65)
        scene.illuminant = .standardA
        let tungsten = try CameraColorTransform(try scene.colorCalibration())
        #expect(abs(tungsten.correlatedColorTemperature - 2856) < 20)
        #expect(tungsten.calibrationWeight > 0.99)
        // Both map a white-balanced neutral to sRGB white.
        for transform in [daylight, tungsten] {
            let white = transform.cameraToSRGB.apply((1, 1, 1))
            #expect(abs(white.0 - 1) < 1e-3 && abs(white.1 - 1) < 1e-3 && abs(white.2 - 1) < 1e-3)
        }
    }

    @Test func anIntermediateLightInterpolatesInMireds() throws {
        let scene = try SyntheticScene(width: 32, height: 32, cfa: .rggb, bitsPerSample: 14)
        var calibration = try scene.colorCalibration()
        // The neutral of a light halfway (in mireds) between A and D65 is roughly halfway between their neutrals.
        var tungsten = scene
        tungsten.illuminant = .standardA
        let a = try tungsten.colorCalibration().asShotNeutral
        let d = calibration.asShotNeutral
        let mixed = zip(a, d).map { ($0 + $1) / 2 }
        calibration.asShotNeutral = mixed.map { $0 / (mixed.max() ?? 1) }
        let transform = try CameraColorTransform(calibration)
        #expect((0.2...0.8).contains(transform.calibrationWeight), "\(transform.calibrationWeight)")
        #expect((3200...5200).contains(transform.correlatedColorTemperature))
    }

    @Test(arguments: SceneIlluminant.allCases, [CFAPattern.rggb, .xTrans])
    func neutralPatchesRenderGrey(illuminant: SceneIlluminant, cfa: CFAPattern) throws {
        var scene = try SyntheticScene(width: 720, height: 480, cfa: cfa, bitsPerSample: 14)
        scene.illuminant = illuminant
        let frame = try scene.render(seed: 5)
        let image = try frame.renderRGB8(RenderOptions(method: .quality))
        for patch in 18..<24 {
            let (r, g, b) = mean(image, Self.renderedRect(scene, frame, patch: patch))
            #expect(abs(r - g) < 1.5 && abs(b - g) < 1.5, "\(ChartPatch.colorChecker[patch]): \(r), \(g), \(b)")
        }
        // The 18 % grey surround of the default exposure lands near the middle of the 8-bit range.
        let surround = mean(image, PixelRect(x: 2, y: 2, width: 8, height: 8))
        #expect((105...130).contains(surround.1), "surround \(surround)")
    }

    /// Every chart patch renders as its reference sRGB value when the exposure maps reflectance 1 to 1 and no
    /// tone curve is applied: within ΔE*ab 1.5 (the noise of a 14-bit frame and 8-bit rounding; the colour
    /// model itself is exact), under both lights, through ForwardMatrix or through ColorMatrix alone.
    ///
    /// "Reflectance 1 to 1" is measured from the frame: the camera answers a tungsten-lit white with 0.9 of
    /// the green signal of a daylit white of the same luminance, as real sensors do, so the exposure that
    /// normalises it differs by light.
    @Test(arguments: SceneIlluminant.allCases, [true, false])
    func chartPatchesMapToTheirReferenceColours(illuminant: SceneIlluminant, forwardMatrices: Bool) throws {
        var scene = try SyntheticScene(width: 720, height: 480, cfa: .grbg, bitsPerSample: 14)
        scene.illuminant = illuminant
        var frame = try scene.render(seed: 9)
        if !forwardMatrices {
            frame.color.forwardMatrix1 = nil
            frame.color.forwardMatrix2 = nil
        }
        let grey = ChartPatch.colorChecker[21]
        let greenPerReflectance =
            PhotositeStats(frame, scene.patchRect(21), color: .green).mean
            / Double(scene.whiteLevel - scene.blackLevel) / grey.xyzD65.1
        let toReflectance = -log2(greenPerReflectance)
        let image = try frame.renderRGB8(
            RenderOptions(method: .quality, toneCurve: .linear, exposureAdjustment: toReflectance))
        var worst = 0.0
        for (index, patch) in ChartPatch.colorChecker.enumerated() {
            let measured = mean(image, Self.renderedRect(scene, frame, patch: index))
            let reference = (Double(patch.sRGB[0]), Double(patch.sRGB[1]), Double(patch.sRGB[2]))
            let difference = deltaE(lab(measured.0, measured.1, measured.2), lab(reference.0, reference.1, reference.2))
            worst = max(worst, difference)
            #expect(difference < 1.5, "\(patch): rendered \(measured), reference \(reference), ΔE \(difference)")
        }
        #expect(worst > 0)
    }

    @Test func clippedHighlightsStayNeutral() throws {
        let scene = try SyntheticScene(width: 480, height: 320, cfa: .rggb, bitsPerSample: 12)
        // +2.5 EV: the white patch saturates green (and soon every channel); the grey surround does not.
        for bias in [Rational(5, 2), Rational(4, 1)] {
            let settings = try ExposureSettings(
                exposureTime: try #require(Rational(1, 125)), fNumber: 8, iso: 100,
                exposureBias: try #require(bias))
            let frame = try scene.render(exposure: settings)
            let image = try frame.renderRGB8(RenderOptions(method: .quality))
            let white = mean(image, Self.renderedRect(scene, frame, patch: 18))
            #expect(abs(white.0 - white.1) < 1 && abs(white.2 - white.1) < 1, "white patch \(white)")
            #expect(white.1 > 250)
        }
    }

    /// At +2 EV the light bars of the Siemens star clip in green and blue but not in red; the fast path's blocks
    /// mix them with unclipped dark bars. The star must still come out grey, not pink.
    @Test(arguments: [CFAPattern.rggb, .xTrans])
    func partlyClippedBlocksStayNeutral(cfa: CFAPattern) throws {
        let scene = try SyntheticScene(width: 1800, height: 1200, cfa: cfa, bitsPerSample: 14)
        let frame = try scene.render(exposure: try exposure(bias: 2))
        let image = try frame.renderRGB8(RenderOptions(longSide: 300, method: .fast))
        // The star's middle: 80 % across, 25 % down.
        let star = PixelRect(
            x: image.width * 76 / 100, y: image.height * 20 / 100, width: image.width * 8 / 100,
            height: image.height * 10 / 100)
        let (r, g, b) = mean(image, star)
        #expect(abs(r - g) < 3 && abs(b - g) < 3, "star \(r), \(g), \(b)")
    }

    @Test func baselineExposureScalesLinearLight() throws {
        var scene = try SyntheticScene(width: 320, height: 240, cfa: .rggb, bitsPerSample: 14)
        let options = RenderOptions(method: .quality, toneCurve: .linear)
        let plain = try scene.render().renderRGB16(options)
        scene.baselineExposure = 1
        let brighter = try scene.render().renderRGB16(options)
        func linearGreen(_ image: RGBImage16) -> Double {
            // The grey surround at the top left.
            var sum = 0.0
            for row in 2..<10 {
                for column in 2..<10 {
                    let encoded = Double(image.pixels[(row * image.width + column) * 3 + 1]) / 65535
                    sum += encoded <= 0.04045 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4)
                }
            }
            return sum / 64
        }
        #expect(abs(linearGreen(brighter) / linearGreen(plain) - 2) < 0.02)
    }

    @Test func eightAndSixteenBitRenderingsAgree() throws {
        let scene = try SyntheticScene(width: 200, height: 150, cfa: .bggr, bitsPerSample: 14)
        let frame = try scene.render()
        let eight = try frame.renderRGB8(RenderOptions(longSide: 100))
        let sixteen = try frame.renderRGB16(RenderOptions(longSide: 100))
        #expect(eight.width == sixteen.width && eight.height == sixteen.height)
        for (a, b) in zip(eight.pixels, sixteen.pixels) {
            #expect(abs(Int(a) - Int((Double(b) / 257).rounded())) <= 1)
        }
    }

    @Test func fastAndQualityPathsAgreeOnFlatAreas() throws {
        for cfa in [CFAPattern.rggb, .xTrans] {
            let scene = try SyntheticScene(width: 1200, height: 800, cfa: cfa, bitsPerSample: 14)
            let frame = try scene.render()
            let fast = try frame.renderRGB8(RenderOptions(longSide: 300, method: .fast))
            let quality = try frame.renderRGB8(RenderOptions(longSide: 300, method: .quality))
            #expect(fast.width == quality.width && fast.height == quality.height)
            let scale = Double(fast.width) / Double(frame.defaultCrop.width)
            for patch in [0, 7, 14, 18, 21, 23] {
                let full = Self.renderedRect(scene, frame, patch: patch)
                let rect = PixelRect(
                    x: Int(Double(full.x) * scale) + 1, y: Int(Double(full.y) * scale) + 1,
                    width: Int(Double(full.width) * scale) - 2, height: Int(Double(full.height) * scale) - 2)
                let a = mean(fast, rect)
                let b = mean(quality, rect)
                #expect(abs(a.0 - b.0) < 1.5 && abs(a.1 - b.1) < 1.5 && abs(a.2 - b.2) < 1.5, "\(cfa) patch \(patch)")
            }
        }
    }

    /// The fast path sums per colour when every position of a colour shares one black level, and per position
    /// otherwise: the same light with per-position offsets in samples and black levels must render the same.
    @Test(arguments: [CFAPattern.gbrg, .xTrans])
    func perPositionBlackLevelsBinLikeUniformOnes(cfa: CFAPattern) throws {
        let frame = try SyntheticScene(width: 900, height: 600, cfa: cfa, bitsPerSample: 14).render()
        let offsets = (0..<(cfa.width * cfa.height)).map { 3 * ($0 % 7) }
        var samples = frame.samples
        for row in 0..<frame.height {
            for column in 0..<frame.width {
                let index = row * frame.width + column
                samples[index] = min(
                    samples[index] + UInt16(offsets[frame.patternIndex(row: row, column: column)]), 16383)
            }
        }
        let shifted = try RawFrame(
            width: frame.width, height: frame.height, bitsPerSample: 14, samples: samples, cfa: cfa,
            blackLevels: zip(frame.blackLevels, offsets).map { $0 + Double($1) },
            whiteLevel: frame.whiteLevel + 18, activeArea: frame.activeArea, color: frame.color)
        let options = RenderOptions(longSide: 200, method: .fast, toneCurve: .linear)
        let a = try frame.renderRGB8(options)
        let b = try shifted.renderRGB8(options)
        #expect(a.width == b.width && a.height == b.height)
        var worst = 0
        for (x, y) in zip(a.pixels, b.pixels) { worst = max(worst, abs(Int(x) - Int(y))) }
        #expect(worst <= 1)
    }

    @Test func uncalibratedFramesStillRender() throws {
        let frame = try RawFrame(
            width: 16, height: 16, bitsPerSample: 12, samples: [UInt16](repeating: 1000, count: 256), cfa: .rggb,
            blackLevels: [64, 64, 64, 64], whiteLevel: 4000)
        let image = try frame.renderRGB8()
        // The default crop: 2 pixels of margin on a side under 32 (issue 17).
        #expect(image.width == 12 && image.height == 12)
        #expect(Set(image.pixels).count == 1)  // flat grey in, flat grey out
    }

    @Test func singularColourMatricesAreTypedErrors() throws {
        var frame = try SyntheticScene(width: 32, height: 32, cfa: .rggb, bitsPerSample: 12).render()
        frame.color = try ColorCalibration(
            colorMatrix1: try Matrix3([1, 2, 3, 2, 4, 6, 0, 0, 1]), illuminant1: .d65, asShotNeutral: [1, 1, 1])
        #expect(throws: RawImageError(.invalidColor)) { try frame.renderRGB8() }
        #expect(throws: RawImageError(.invalidSettings)) { try frame.renderRGB8(RenderOptions(longSide: 0)) }
    }
}
