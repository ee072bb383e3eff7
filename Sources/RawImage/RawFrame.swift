/// One raw sensor readout: a colour-filter-array mosaic of 16-bit samples and everything needed to interpret it.
///
/// The samples are stored row by row, one per photosite, in the low ``bitsPerSample`` bits of each `UInt16`.
/// ``activeArea`` marks the photosites that see light (the rest are masked borders); the ``cfa`` pattern and
/// ``blackLevels`` are counted from the active area's top-left pixel, and ``defaultCrop`` is relative to the active
/// area, exactly as in DNG (DNG 1.7 §ActiveArea, §DefaultCropOrigin), so a frame maps onto DNG tags one to one.
public struct RawFrame: Sendable {
    /// Largest width or height accepted (TIFF's SHORT-sized dimension fields stop at 65535; real sensors are
    /// under 20000 pixels wide).
    public static let maxDimension = 65535

    /// Columns of photosites.
    public let width: Int
    /// Rows of photosites.
    public let height: Int
    /// Significant bits in each sample, 8…16.
    public let bitsPerSample: Int
    /// `width × height` samples, row-major.
    public var samples: [UInt16]
    /// The colour filter layout, counted from the top-left of ``activeArea``.
    public let cfa: CFAPattern
    /// Black level for each position of the CFA pattern, row-major within the pattern (`cfa.width × cfa.height`
    /// entries): the sample value that means no light (DNG BlackLevel with BlackLevelRepeatDim = the CFA size).
    public let blackLevels: [Double]
    /// The sample value at which the sensor saturates (DNG WhiteLevel).
    public let whiteLevel: Int
    /// The photosites that see light (DNG ActiveArea).
    public let activeArea: PixelRect
    /// The part of the active area meant for display, relative to the active area's top-left
    /// (DNG DefaultCropOrigin/DefaultCropSize).
    public let defaultCrop: PixelRect
    /// How many times wider than tall one photosite is (LibRaw's `pixel_aspect`, DNG DefaultScale's horizontal over
    /// vertical factor): 1 for square pixels, which nearly every sensor has; a Kodak DC120's are 1.535, a Nikon
    /// D1X's 0.5. Readers stretch the picture by it to show the scene at its shape.
    public var pixelAspectRatio: Double = 1

    /// The pixel aspect ratios readers accept from a file; anything outside is treated as a damaged value.
    public static let pixelAspectRatioRange = 0.0625...16.0
    /// How the sensor's colours relate to XYZ and the white balance at capture.
    public var color: ColorCalibration
    /// Camera, lens, exposure and time of the shot.
    public var metadata: CaptureMetadata

    /// Creates a frame after checking that every part fits together.
    ///
    /// - Parameters:
    ///   - activeArea: defaults to the whole frame.
    ///   - defaultCrop: defaults to the active area less an 8-pixel margin on every side (demosaicing needs
    ///     neighbours at the crop edge; Adobe's validator warns about less), or the whole active area when it is
    ///     too small for a margin.
    /// - Throws: ``RawImageError`` naming the first thing that does not fit.
    // Swift 6.3.1 miscompiles this initializer at -O (the caller receives a garbage error, or crashes in
    // swift_release, although no guard fails: `swift build -c release` and any RawFrame(...) call reproduce it;
    // removing any two guards hides it). Keeping it unoptimised costs nothing measurable: it runs once per frame.
    @_optimize(none)
    public init(
        width: Int,
        height: Int,
        bitsPerSample: Int,
        samples: [UInt16],
        cfa: CFAPattern,
        blackLevels: [Double],
        whiteLevel: Int,
        activeArea: PixelRect? = nil,
        defaultCrop: PixelRect? = nil,
        color: ColorCalibration = .uncalibrated,
        metadata: CaptureMetadata = CaptureMetadata()
    ) throws(RawImageError) {
        guard (1...Self.maxDimension).contains(width), (1...Self.maxDimension).contains(height) else {
            throw RawImageError(.invalidSize, "\(width)×\(height) is outside 1…\(Self.maxDimension) per side")
        }
        guard (8...16).contains(bitsPerSample) else {
            throw RawImageError(.unsupportedBitDepth, "\(bitsPerSample) bits per sample; rawcap handles 8 to 16")
        }
        guard samples.count == width * height else {
            throw RawImageError(.sampleCountMismatch, "\(samples.count) samples for \(width)×\(height)")
        }
        let maxValue = (1 << bitsPerSample) - 1
        guard blackLevels.count == cfa.width * cfa.height else {
            throw RawImageError(
                .invalidLevels, "\(blackLevels.count) black levels for a \(cfa.width)×\(cfa.height) pattern")
        }
        // Compared as doubles: a black level from a file can be any finite double (1e300), which converting to Int
        // would trap on.
        guard blackLevels.allSatisfy({ $0.isFinite && $0 >= 0 }), let maxBlack = blackLevels.max(),
            maxBlack.rounded(.up) < Double(whiteLevel), whiteLevel <= maxValue
        else {
            throw RawImageError(
                .invalidLevels,
                "black \(blackLevels) and white \(whiteLevel) must satisfy 0 ≤ black < white ≤ \(maxValue)")
        }
        let active = activeArea ?? PixelRect(width: width, height: height)
        guard active.width > 0, active.height > 0, PixelRect(width: width, height: height).contains(active) else {
            throw RawImageError(.invalidGeometry, "active area \(active) is outside the \(width)×\(height) frame")
        }
        let crop = defaultCrop ?? Self.defaultCrop(forActiveArea: active)
        guard crop.width > 0, crop.height > 0,
            PixelRect(width: active.width, height: active.height).contains(crop)
        else {
            throw RawImageError(.invalidGeometry, "default crop \(crop) is outside the active area \(active)")
        }
        self.width = width
        self.height = height
        self.bitsPerSample = bitsPerSample
        self.samples = samples
        self.cfa = cfa
        self.blackLevels = blackLevels
        self.whiteLevel = whiteLevel
        self.activeArea = active
        self.defaultCrop = crop
        self.color = color
        self.metadata = metadata
    }

    /// The crop rawcap uses when none is given: the active area less a margin on each side, so demosaicing has
    /// neighbours at the crop's edge. The DNG SDK's validator warns ("Too little padding … of CFA image") below
    /// 1.9 pixels on any side; Adobe's converter keeps a few pixels. The margin is 8 pixels on a side of 32 or more,
    /// 2 on a side of 8 to 31, and none on a smaller side; it is even, so the crop starts on a boundary of a 2×2
    /// pattern.
    public static func defaultCrop(forActiveArea active: PixelRect) -> PixelRect {
        func margin(_ extent: Int) -> Int { extent >= 32 ? 8 : extent >= 8 ? 2 : 0 }
        let (x, y) = (margin(active.width), margin(active.height))
        return PixelRect(x: x, y: y, width: active.width - 2 * x, height: active.height - 2 * y)
    }

    /// The sample at `row`, `column` (absolute frame coordinates).
    @inline(__always)
    public func sample(row: Int, column: Int) -> UInt16 { samples[row * width + column] }

    /// The CFA colour at absolute frame coordinates (the pattern is anchored at the active area's top-left).
    @inline(__always)
    public func color(row: Int, column: Int) -> CFAColor {
        cfa.colors[patternIndex(row: row, column: column)]
    }

    /// The black level at absolute frame coordinates.
    @inline(__always)
    public func blackLevel(row: Int, column: Int) -> Double {
        blackLevels[patternIndex(row: row, column: column)]
    }

    /// The index into ``CFAPattern/colors`` and ``blackLevels`` for absolute frame coordinates; pixels in the
    /// masked border above or left of the active area wrap around the pattern.
    @inline(__always)
    public func patternIndex(row: Int, column: Int) -> Int {
        var patternRow = (row - activeArea.y) % cfa.height
        if patternRow < 0 { patternRow += cfa.height }
        var patternColumn = (column - activeArea.x) % cfa.width
        if patternColumn < 0 { patternColumn += cfa.width }
        return patternRow * cfa.width + patternColumn
    }

    /// The largest value a sample can hold at this bit depth.
    public var maxSampleValue: Int { (1 << bitsPerSample) - 1 }
}

extension RawFrame {
    /// The same frame with different samples (same size), e.g. after a round trip through a codec.
    public func withSamples(_ newSamples: [UInt16]) throws(RawImageError) -> RawFrame {
        guard newSamples.count == samples.count else {
            throw RawImageError(.sampleCountMismatch, "\(newSamples.count) samples for \(width)×\(height)")
        }
        var copy = self
        copy.samples = newSamples
        return copy
    }
}
