import RawImage

/// A deterministic test scene seen through an emulated camera: the "sensor" of rawcap's camera emulator, and the
/// source of every test frame that needs no camera.
///
/// The scene is a test chart (see ``SceneLayout`` for the picture): the 24 ColorChecker patches
/// (``ChartPatch/colorChecker``), a 16-step grey wedge, a smooth grey ramp, a hue sweep, line gratings down to
/// one-pixel lines, a Siemens star and a zone plate. It is lit by D65 or Standard A and photographed with
/// physically modelled exposure and noise (``SensorModel``):
///
/// - the signal of a surface is `reflectance × whiteLuminance × 0.65 · t · ISO · 2^bias / (78 · N²)` of the
///   clipping level, so one EV more light doubles the black-subtracted samples until they clip at
///   ``whiteLevel``. At ``ExposureSettings/standard`` and the default 5000 cd/m², an 18 % grey card sits at
///   9.4 % of the range, 3.4 EV below clipping, as in real raw files;
/// - noise is shot noise (Gaussian with the Poisson variance of the photoelectron count) plus read noise that
///   grows with ISO, drawn from a counter-based generator keyed by `seed`, so the same inputs give the same
///   samples bit for bit, on any number of threads;
/// - colour goes through the emulated camera's matrices, and the frame's ``ColorCalibration`` (ColorMatrix1/2
///   for Standard A and D65, ForwardMatrix1/2, AsShotNeutral of the scene's light) describes exactly that, so a
///   DNG renderer maps the patches back to their reference colours;
/// - masked columns at the left and masked rows at the top hold only black level and read noise, and the rest is
///   declared as the active area (DNG ActiveArea), with the CFA pattern anchored at its top-left.
///
/// `width` and `height` are the full readout, masked margin included.
public struct SyntheticScene: Sendable {
    /// Most pixels a synthetic frame may have: 400 million, the same bound rawcap applies to decoded images
    /// (`WireLimits.maxImagePixels`), so an emulated camera cannot be asked for more than a real one may send.
    public static let maxPixelCount = 400_000_000

    /// Columns of the readout, masked columns included.
    public let width: Int
    /// Rows of the readout, masked rows included.
    public let height: Int
    /// The colour filter layout, from the active area's top-left.
    public let cfa: CFAPattern
    /// Bits per sample, 8…16.
    public let bitsPerSample: Int
    /// The photosites that see light; the columns to its left and rows above it are masked.
    public let activeArea: PixelRect
    /// The light on the scene; decides the pixels' colour balance and the frame's AsShotNeutral.
    public var illuminant: SceneIlluminant = .d65
    /// Luminance of a perfect white diffuser in the scene, cd/m² (bright overcast daylight by default).
    public var whiteLuminance: Double = 5000
    /// Noise and full well.
    public var sensor: SensorModel = .typical
    /// DNG BaselineExposure recorded in the frame's calibration, in EV.
    public var baselineExposure: Double = 0
    /// The lens's focus on a tilted, patterned chart (``SceneLens``), or `nil` for the flat chart in focus
    /// everywhere.
    public var lens: SceneLens?
    /// Camera identity and orientation copied into every frame's metadata; exposure fields and capture time are
    /// filled per shot.
    public var identity: CaptureMetadata = CaptureMetadata(
        make: "rawcap", model: "Emulated Camera", uniqueCameraModel: "rawcap Emulated Camera",
        serialNumber: "RC0000001", lensModel: "rawcap Synthetic 50mm F1.8")

    /// Creates a scene for a sensor of the given size, pattern and depth.
    ///
    /// - Parameter maskedMargin: masked columns on the left and rows on the top. Defaults to an even number
    ///   that grows with the sensor (2 for tiny frames, 64 for 6000-pixel ones), or none below 8 pixels.
    /// - Throws: ``RawImageError`` for a size outside 1…65535 per side or above ``maxPixelCount``, a depth
    ///   outside 8…16, a pattern with colours other than red, green and blue, or a margin that leaves no
    ///   active pixels.
    public init(width: Int, height: Int, cfa: CFAPattern, bitsPerSample: Int, maskedMargin: Int? = nil)
        throws(RawImageError)
    {
        guard (1...RawFrame.maxDimension).contains(width), (1...RawFrame.maxDimension).contains(height) else {
            throw RawImageError(.invalidSize, "\(width)×\(height) is outside 1…\(RawFrame.maxDimension) per side")
        }
        guard width * height <= Self.maxPixelCount else {
            throw RawImageError(.invalidSize, "\(width)×\(height) is above \(Self.maxPixelCount) pixels")
        }
        guard (8...16).contains(bitsPerSample) else {
            throw RawImageError(.unsupportedBitDepth, "\(bitsPerSample) bits per sample; rawcap handles 8 to 16")
        }
        guard cfa.colors.allSatisfy({ $0.rawValue <= 2 }) else {
            throw RawImageError(.invalidPattern, "the emulated sensor has only red, green and blue filters")
        }
        let margin = maskedMargin ?? Self.defaultMaskedMargin(width: width, height: height)
        guard margin >= 0, margin < width, margin < height else {
            throw RawImageError(
                .invalidGeometry, "masked margin \(margin) leaves no active pixels in \(width)×\(height)")
        }
        self.width = width
        self.height = height
        self.cfa = cfa
        self.bitsPerSample = bitsPerSample
        activeArea = PixelRect(x: margin, y: margin, width: width - margin, height: height - margin)
    }

    /// The default masked margin: `2 · clamp(min(width, height) / 128, 1, 32)`, or 0 below 8 pixels.
    public static func defaultMaskedMargin(width: Int, height: Int) -> Int {
        let side = min(width, height)
        guard side >= 8 else { return 0 }
        return 2 * min(max(side / 128, 1), 32)
    }

    /// The black level: 512 at 14 bits, scaled with the depth (8 at 8 bits, 2048 at 16).
    public var blackLevel: Int { 1 << (bitsPerSample - 5) }

    /// The white (clipping) level: 15/16 of the range, below the largest code as on real sensors
    /// (15359 at 14 bits).
    public var whiteLevel: Int { (1 << bitsPerSample) * 15 / 16 - 1 }

    /// The colour tags of a frame of this scene (both calibrations, forward matrices, the neutral of
    /// ``illuminant`` and ``baselineExposure``).
    public func colorCalibration() throws(RawImageError) -> ColorCalibration {
        guard baselineExposure.isFinite else { throw RawImageError(.invalidSettings, "baseline exposure") }
        return try EmulatedCameraColor.calibration(for: illuminant, baselineExposure: baselineExposure)
    }

    /// The inside of chart patch `index` (0…23, in ``ChartPatch/colorChecker`` order) in frame coordinates,
    /// black frame excluded; empty when the frame is too small to show it.
    public func patchRect(_ index: Int) -> PixelRect {
        guard (0..<24).contains(index) else { return PixelRect(width: 0, height: 0) }
        return toFrame(SceneLayout(width: activeArea.width, height: activeArea.height).patchRect(index))
    }

    /// Step `index` (0…15, brightest first, half a stop apart from reflectance 0.9) of the grey wedge, in frame
    /// coordinates.
    public func wedgeRect(_ index: Int) -> PixelRect {
        guard (0..<SceneLayout.wedgeSteps).contains(index) else { return PixelRect(width: 0, height: 0) }
        return toFrame(SceneLayout(width: activeArea.width, height: activeArea.height).wedgeRect(index))
    }

    /// The reflectance of grey wedge step `index`.
    public static func wedgeReflectance(_ index: Int) -> Double { SceneLayout.wedgeReflectance(index) }

    private func toFrame(_ rect: PixelRect) -> PixelRect {
        PixelRect(x: rect.x + activeArea.x, y: rect.y + activeArea.y, width: rect.width, height: rect.height)
    }

    /// The signal, as a fraction of the clipping level, that a surface of reflectance 1 gives at `exposure`.
    public func whiteSignalFraction(_ exposure: ExposureSettings) -> Double {
        SensorModel.signalFraction(luminance: whiteLuminance, exposure: exposure)
    }

    /// Linear sRGB reflectance → camera response under ``illuminant`` (Bradford-adapted from D65, then the
    /// camera's XYZ → camera matrix for that light).
    ///
    /// The chart's reflectances are known only as colours under D65 (no spectra), so its look under Standard A
    /// is the Bradford-adapted colour: the documented simplification that stands in for spectral rendering.
    private var reflectanceToCamera: Matrix3 {
        EmulatedCameraColor.xyzToCamera(illuminant) * Matrix3.bradford(from: .d65, to: illuminant.chromaticity)
            * Matrix3.sRGBToXYZ
    }

    private func evaluator(_ exposure: ExposureSettings) throws(RawImageError) -> SceneEvaluator {
        guard whiteLuminance.isFinite, whiteLuminance >= 0 else {
            throw RawImageError(.invalidSettings, "white luminance \(whiteLuminance) cd/m²")
        }
        return SceneEvaluator(
            layout: SceneLayout(width: activeArea.width, height: activeArea.height),
            reflectanceToCamera: reflectanceToCamera, scale: whiteSignalFraction(exposure))
    }

    /// The noise-free, unclipped camera response over the active area at `exposure`, as fractions of the
    /// clipping level: the full-colour image the mosaic samples, for measuring demosaicing error (through
    /// ``lens`` when it is set).
    public func cameraResponse(exposure: ExposureSettings = .standard) throws(RawImageError) -> CameraRGBImage {
        let evaluator = try evaluator(exposure)
        let count = activeArea.width * activeArea.height * 3
        let rowLength = activeArea.width * 3
        let pixels = [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            let output = UnsafeSendablePointer(base)
            Parallel.forEachChunk(of: activeArea.height) { rows in
                for row in rows { evaluator.fill(row: row, into: output.base + row * rowLength) }
            }
            initialized = count
        }
        guard let lens else {
            return try CameraRGBImage(width: activeArea.width, height: activeArea.height, pixels: pixels)
        }
        var blurred = pixels
        lens.apply(to: &blurred, width: activeArea.width, height: activeArea.height)
        return try CameraRGBImage(width: activeArea.width, height: activeArea.height, pixels: blurred)
    }

    /// Rounds to the nearest code and clamps to 0…white. Adding ½ and truncating is rounding for the
    /// non-negative values left after the clamp, and avoids a libm `roundf` call per sample (x86-64's baseline
    /// has no rounding instruction; it was a fifth of the generator's time).
    @inline(__always)
    static func quantize(_ value: Float, white: Float) -> UInt16 {
        let shifted = value + 0.5
        return shifted > 0 ? UInt16(truncatingIfNeeded: Int32(min(shifted, white + 0.5))) : 0
    }

    /// Photographs the scene: a raw frame with the exposure, noise, colour and metadata of one shot.
    ///
    /// - Parameters:
    ///   - exposure: shutter, aperture, ISO, bias and focal length.
    ///   - seed: selects the noise; the same scene, settings and seed give the same samples bit for bit.
    ///   - captureTime: recorded in the metadata; the generator never reads the clock.
    public func render(exposure: ExposureSettings = .standard, seed: UInt64 = 0, captureTime: CaptureTime? = nil)
        throws(RawImageError) -> RawFrame
    {
        let evaluator = try evaluator(exposure)
        let black = Float(blackLevel)
        let white = Float(whiteLevel)
        let range = Double(whiteLevel - blackLevel)
        let shotVariance = Float(sensor.shotVariancePerFraction(range: range, iso: exposure.iso))
        let readVariance = Float(sensor.readVariance(range: range, iso: exposure.iso, bitsPerSample: bitsPerSample))
        let readSigma = readVariance.squareRoot()
        let noise = CounterNoise(seed: seed, stream: 0)
        let (width, height, active, cfa) = (width, height, activeArea, cfa)
        let floatRange = Float(range)
        // With a lens, the whole response is computed first: the blur needs each pixel's neighbours.
        let defocused: [Float]? = lens.map { lens in
            var pixels = [Float](repeating: 0, count: active.width * active.height * 3)
            pixels.withUnsafeMutableBufferPointer { buffer in
                let output = UnsafeSendablePointer(buffer.baseAddress!)
                Parallel.forEachChunk(of: active.height) { rows in
                    for row in rows { evaluator.fill(row: row, into: output.base + row * active.width * 3) }
                }
            }
            lens.apply(to: &pixels, width: active.width, height: active.height)
            return pixels
        }

        // The filter colour (0 red, 1 green, 2 blue) of every active column, for each row of the pattern.
        let channels: [[UInt8]] = (0..<cfa.height).map { patternRow in
            (0..<active.width).map { cfa.color(row: patternRow, column: $0).rawValue }
        }

        let samples = [UInt16](unsafeUninitializedCapacity: width * height) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            let output = UnsafeSendablePointer(base)
            Parallel.forEachChunk(of: height) { rows in
                let response = UnsafeMutablePointer<Float>.allocate(capacity: max(active.width, 1) * 3)
                defer { response.deallocate() }
                for row in rows {
                    let line = output.base + row * width
                    let isActiveRow = row >= active.y && row < active.bottom
                    let masked = isActiveRow ? active.x : width
                    // Masked photosites: black level and read noise only.
                    for column in 0..<masked {
                        let value = black + readSigma * noise.gaussian(row * width + column)
                        line[column] = Self.quantize(value, white: white)
                    }
                    guard isActiveRow else { continue }
                    let activeRow = row - active.y
                    if let defocused {
                        defocused.withUnsafeBufferPointer { source in
                            response.update(from: source.baseAddress! + activeRow * active.width * 3, count: active.width * 3)
                        }
                    } else {
                        evaluator.fill(row: activeRow, into: response)
                    }
                    channels[activeRow % cfa.height].withUnsafeBufferPointer { channel in
                        for offset in 0..<active.width {
                            let fraction = response[offset * 3 + Int(channel[offset])]
                            let column = active.x + offset
                            guard fraction < 1 else {
                                // Saturated photosites read exactly the white level: no noise survives clipping.
                                line[column] = UInt16(white)
                                continue
                            }
                            let sigma = (fraction * shotVariance + readVariance).squareRoot()
                            let value = black + fraction * floatRange + sigma * noise.gaussian(row * width + column)
                            line[column] = Self.quantize(value, white: white)
                        }
                    }
                }
            }
            initialized = width * height
        }

        var metadata = identity
        metadata.exposureTime = exposure.exposureTime
        metadata.fNumber = exposure.fNumber
        metadata.iso = exposure.iso
        metadata.exposureBias = exposure.exposureBias
        metadata.focalLength = exposure.focalLength
        metadata.captureTime = captureTime
        return try RawFrame(
            width: width, height: height, bitsPerSample: bitsPerSample, samples: samples, cfa: cfa,
            blackLevels: [Double](repeating: Double(blackLevel), count: cfa.width * cfa.height),
            whiteLevel: whiteLevel, activeArea: active, color: try colorCalibration(), metadata: metadata)
    }
}
