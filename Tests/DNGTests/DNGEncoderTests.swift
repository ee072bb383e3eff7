import DNG
import JPEG
import RawImage
import TIFFVocabulary
import Testing
import WireFormat

/// What the encoder puts in a plan, checked on the plan itself (no files).
@Suite struct DNGEncoderTests {
    static let patterns: [CFAPattern] = CFAPattern.bayerPatterns + [.xTrans]

    @Test(arguments: patterns) func cfaTagsDescribeThePattern(cfa: CFAPattern) throws {
        let frame = try TestImages.frame(width: 48, height: 44, bitsPerSample: 12, cfa: cfa)
        let plan = try DNGEncoder().plan(for: frame, previews: try TestImages.previews(of: frame))
        let raw = try #require(plan.rawDirectory)
        #expect(raw[.cfaRepeatPatternDim] == .shorts([UInt16(cfa.height), UInt16(cfa.width)]))
        #expect(raw[.cfaPattern] == .bytes(cfa.colors.map(\.rawValue)))
        #expect(raw[.blackLevelRepeatDim] == .shorts([UInt16(cfa.height), UInt16(cfa.width)]))
        #expect(raw[.blackLevel] == .rationals(frame.blackLevels))
        #expect(raw[.photometricInterpretation] == .short(32803))
        #expect(raw[.cfaPlaneColor] == .bytes([0, 1, 2]))
        #expect(raw[.whiteLevel] == .longs([4095]))
        // The frame's active area starts at (4, 2): ActiveArea is top, left, bottom, right.
        #expect(raw[.activeArea] == .longs([2, 4, 42, 46]))
        #expect(raw[.defaultCropOrigin] == .rationals([8, 8]))
        #expect(raw[.defaultCropSize] == .rationals([26, 24]))
        #expect((raw[.bayerGreenSplit] != nil) == cfa.isBayer)
    }

    @Test func ifd0IsTheThumbnailWithTheDNGTags() throws {
        let frame = try TestImages.frame(width: 40, height: 40, bitsPerSample: 14, cfa: .rggb)
        let previews = try TestImages.previews(of: frame)
        let plan = try DNGEncoder().plan(for: frame, previews: previews)
        let root = plan.root
        #expect(root[.newSubfileType] == .long(1))
        #expect(root[.imageWidth] == .long(UInt32(previews.thumbnail.width)))
        #expect(root[.photometricInterpretation] == .short(2))
        #expect(root[.dngVersion] == .bytes([1, 4, 0, 0]))
        #expect(root[.dngBackwardVersion] == .bytes([1, 1, 0, 0]))
        #expect(root[.uniqueCameraModel] == .ascii("Acme Test Body Mk II"))
        #expect(root[.make] == .ascii("Acme"))
        #expect(root[.colorMatrix1] == .srationals(frame.color.colorMatrix1.values))
        #expect(root[.forwardMatrix2] == .srationals(try #require(frame.color.forwardMatrix2).values))
        #expect(root[.calibrationIlluminant1] == .short(17))
        #expect(root[.calibrationIlluminant2] == .short(21))
        #expect(root[.asShotNeutral] == .rationals([0.4711, 1, 0.6525]))
        #expect(root[.baselineExposure] == .srational(-0.25))
        #expect(root[.profileName] == .ascii("Embedded"))
        #expect(root[.orientation] == .short(1))
        #expect(root.image?.chunks.first?.fileBytes == previews.thumbnail.pixels)
        #expect(root.subDirectories.count == 2)
        #expect(root.subDirectories[1][.compression] == .short(7))
        #expect(root.subDirectories[1][.photometricInterpretation] == .short(6))
        #expect(root.subDirectories[1][.yCbCrSubSampling] == .shorts([2, 2]))
        #expect(root.subDirectories[1].image?.chunks.first?.fileBytes == previews.preview?.bytes)
    }

    @Test func uncompressedDataIsOneStripOf16BitContainers() throws {
        let frame = try TestImages.frame(width: 37, height: 23, bitsPerSample: 14, cfa: .gbrg)
        let raw = try #require(
            try DNGEncoder().plan(for: frame, previews: try TestImages.previews(of: frame)).rawDirectory)
        #expect(raw[.bitsPerSample] == .shorts([16]))
        #expect(raw[.rowsPerStrip] == .long(23))
        let chunks = try #require(raw.image?.chunks)
        #expect(chunks.count == 1)
        #expect(chunks[0].fileBytes == frame.samples.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
    }

    @Test func eightBitDataIsStoredInBytes() throws {
        let frame = try TestImages.frame(width: 17, height: 9, bitsPerSample: 8, cfa: .bggr)
        let raw = try #require(
            try DNGEncoder().plan(for: frame, previews: try TestImages.previews(of: frame)).rawDirectory)
        #expect(raw[.bitsPerSample] == .shorts([8]))
        #expect(raw.image?.chunks.first?.fileBytes == frame.samples.map { UInt8($0) })
    }

    @Test func theSameInputGivesTheSamePlan() throws {
        let frame = try TestImages.frame(width: 64, height: 48, bitsPerSample: 12, cfa: .grbg)
        let previews = try TestImages.previews(of: frame)
        let first = try DNGEncoder().plan(for: frame, previews: previews)
        let second = try DNGEncoder(options: DNGOptions(threadCount: 1)).plan(for: frame, previews: previews)
        #expect(first.description == second.description)
        #expect(
            first.rawDirectory?.image?.chunks.map(\.fileBytes) == second.rawDirectory?.image?.chunks.map(\.fileBytes))
    }

    @Test func aSampleAboveTheBitDepthThrows() throws {
        var samples = TestImages.samples(count: 16 * 16, maximum: 1023, seed: 3)
        samples[77] = 1024
        let frame = try RawFrame(
            width: 16, height: 16, bitsPerSample: 10, samples: samples, cfa: .rggb, blackLevels: [64, 64, 64, 64],
            whiteLevel: 1023)
        let previews = try TestImages.previews(of: frame)
        #expect(throws: DNGError(.sampleOutOfRange)) { try DNGEncoder().plan(for: frame, previews: previews) }
        // Lossless leaves the range check to the encoder's first pass, and must still name the sample.
        let lossless = DNGEncoder(options: DNGOptions(compression: .lossless))
        #expect(throws: DNGError(.sampleOutOfRange)) { try lossless.plan(for: frame, previews: previews) }
    }

    @Test func aNonRGBPatternThrows() throws {
        let cygm = try CFAPattern(
            width: 2, height: 2,
            colors: [CFAColor(rawValue: 3), CFAColor(rawValue: 5), .green, CFAColor(rawValue: 4)])
        let frame = try RawFrame(
            width: 4, height: 4, bitsPerSample: 12, samples: [UInt16](repeating: 9, count: 16), cfa: cygm,
            blackLevels: [0, 0, 0, 0], whiteLevel: 4095)
        let previews = try TestImages.previews(of: frame)
        #expect(throws: DNGError(.invalidInput)) { try DNGEncoder().plan(for: frame, previews: previews) }
    }

    @Test func aPreviewThatIsNotAJPEGThrows() throws {
        let frame = try TestImages.frame(width: 16, height: 16, bitsPerSample: 12, cfa: .rggb)
        var previews = try TestImages.previews(of: frame)
        let good = try #require(previews.preview)
        previews.preview = JPEGImage(bytes: [0x89, 0x50, 0x4E, 0x47], width: 4, height: 4)
        #expect(throws: DNGError(.invalidInput)) { try DNGEncoder().plan(for: frame, previews: previews) }
        previews.preview = JPEGImage(bytes: Array(good.bytes.prefix(30)), width: good.width, height: good.height)
        #expect(throws: DNGError(.invalidInput)) { try DNGEncoder().plan(for: frame, previews: previews) }
        previews.preview = JPEGImage(bytes: good.bytes, width: good.width + 1, height: good.height)
        #expect(throws: DNGError(.invalidInput)) { try DNGEncoder().plan(for: frame, previews: previews) }
    }

    @Test func isoAbove65535GoesToRecommendedExposureIndex() throws {
        var frame = try TestImages.frame(width: 16, height: 16, bitsPerSample: 12, cfa: .rggb)
        frame.metadata.iso = 204_800
        let exif = try #require(
            try DNGEncoder().plan(for: frame, previews: try TestImages.previews(of: frame)).root.exif)
        let values = Dictionary(uniqueKeysWithValues: exif.entries.map { ($0.tag.rawValue, $0.value) })
        #expect(values[TIFFTag.photographicSensitivity.rawValue] == .shorts([65535]))
        #expect(values[TIFFTag.sensitivityType.rawValue] == .short(2))
        #expect(values[TIFFTag.recommendedExposureIndex.rawValue] == .long(204_800))
    }

    @Test func cameraStringsAreMadeASCII() throws {
        var frame = try TestImages.frame(width: 16, height: 16, bitsPerSample: 12, cfa: .rggb)
        frame.metadata.model = "Caméra\u{1} X "
        frame.metadata.uniqueCameraModel = nil
        let plan = try DNGEncoder().plan(for: frame, previews: try TestImages.previews(of: frame))
        #expect(plan.root[.model] == .ascii("Cam?ra? X"))
        #expect(plan.root[.uniqueCameraModel] == .ascii("Acme Cam?ra? X"))
    }

    @Test func digestsCanBeLeftOut() throws {
        let frame = try TestImages.frame(width: 16, height: 16, bitsPerSample: 12, cfa: .rggb)
        let previews = try TestImages.previews(of: frame)
        let with = try DNGEncoder().plan(for: frame, previews: previews)
        let without = try DNGEncoder(options: DNGOptions(writesRawDigest: false)).plan(for: frame, previews: previews)
        #expect(with.root[.newRawImageDigest] != nil && with.root[.rawDataUniqueID] != nil)
        #expect(without.root[.newRawImageDigest] == nil && without.root[.rawDataUniqueID] == nil)
    }

    @Test func rawDataUniqueIDFollowsTheCaptureNotJustThePixels() throws {
        let frame = try TestImages.frame(width: 16, height: 16, bitsPerSample: 12, cfa: .rggb)
        var later = frame
        later.metadata.captureTime?.second += 1
        let previews = try TestImages.previews(of: frame)
        let encoder = DNGEncoder()
        let first = try encoder.plan(for: frame, previews: previews).root
        let again = try encoder.plan(for: frame, previews: previews).root
        let second = try encoder.plan(for: later, previews: previews).root
        #expect(first[.rawDataUniqueID] == again[.rawDataUniqueID])
        #expect(first[.newRawImageDigest] == second[.newRawImageDigest])
        #expect(first[.rawDataUniqueID] != second[.rawDataUniqueID])
    }

    @Test(arguments: [0, 17, 8192]) func badTileSizesThrow(tileSize: Int) throws {
        let frame = try TestImages.frame(width: 16, height: 16, bitsPerSample: 12, cfa: .rggb)
        let encoder = DNGEncoder(options: DNGOptions(compression: .lossless, tileSize: tileSize))
        let previews = try TestImages.previews(of: frame)
        #expect(throws: DNGError(.invalidInput)) { try encoder.plan(for: frame, previews: previews) }
    }

    @Test func linearImagesAreLinearRawWithPerSampleLevels() throws {
        let table = (0..<4096).map { UInt16(min(65535, ($0 * $0) / 256)) }
        let image = try LinearImage(
            width: 20, height: 12, bitsPerSample: 12,
            samples: TestImages.samples(count: 20 * 12 * 3, maximum: 4095, seed: 9), blackLevels: [256, 260, 264],
            whiteLevels: [65535, 65000, 64000], linearizationTable: table, color: try TestImages.calibration(),
            metadata: try TestImages.metadata(), profileToneCurve: [(0, 0), (0.25, 0.4), (1, 1)])
        let thumbnail = try RGBImage8(width: 5, height: 3, pixels: [UInt8](repeating: 100, count: 45))
        let plan = try DNGEncoder().plan(for: image, previews: DNGPreviews(thumbnail: thumbnail, preview: nil))
        let raw = try #require(plan.rawDirectory)
        #expect(raw[.photometricInterpretation] == .short(34892))
        #expect(raw[.samplesPerPixel] == .short(3))
        #expect(raw[.bitsPerSample] == .shorts([16, 16, 16]))
        #expect(raw[.blackLevelRepeatDim] == .shorts([1, 1]))
        #expect(raw[.blackLevel] == .rationals([256, 260, 264]))
        #expect(raw[.whiteLevel] == .longs([65535, 65000, 64000]))
        #expect(raw[.linearizationTable] == .shorts(table))
        #expect(raw[.cfaPattern] == nil && raw[.activeArea] == nil)
        #expect(plan.root[.profileToneCurve] == .floats([0, 0, 0.25, 0.4, 1, 1]))
        #expect(plan.root.subDirectories.count == 1)
    }
}

extension DNGEncoderTests {
    @Test func losslessTilesAreNeverWiderThanTheImage() throws {
        // LibRaw and dcraw wrap tile rows at the image width, so a 37-wide frame gets 32-wide tiles (2 across).
        let frame = try TestImages.frame(width: 37, height: 23, bitsPerSample: 14, cfa: .rggb)
        let plan = try DNGEncoder(options: DNGOptions(compression: .lossless))
            .plan(for: frame, previews: try TestImages.previews(of: frame))
        let raw = try #require(plan.rawDirectory)
        #expect(raw[.compression] == .short(7))
        #expect(raw[.bitsPerSample] == .shorts([14]))
        #expect(raw[.tileWidth] == .long(32) && raw[.tileLength] == .long(32))
        #expect(raw[.rowsPerStrip] == nil)
        #expect(raw.image?.chunks.count == 2)
    }

    @Test func largeFramesUse256Tiles() throws {
        let frame = try TestImages.frame(width: 600, height: 300, bitsPerSample: 12, cfa: .xTrans)
        let plan = try DNGEncoder(options: DNGOptions(compression: .lossless, threadCount: 2))
            .plan(for: frame, previews: try TestImages.previews(of: frame))
        let raw = try #require(plan.rawDirectory)
        #expect(raw[.tileWidth] == .long(256) && raw[.tileLength] == .long(256))
        #expect(raw.image?.chunks.count == 3 * 2)
    }
}

extension DNGEncoderTests {
    /// A preview JPEG may come straight from the camera: every truncation and every single-byte corruption of its
    /// header is an error or a valid header, never a trap (STYLE §3.6).
    @Test func damagedPreviewHeadersThrowAndNeverTrap() throws {
        let frame = try TestImages.frame(width: 64, height: 48, bitsPerSample: 12, cfa: .rggb)
        let good = try #require(try TestImages.previews(of: frame).preview)
        let header = try JPEGFrameHeader(parsing: good.bytes)
        #expect(header.marker == 0xC0 && header.width == good.width && header.height == good.height)
        #expect(header.samplingFactors.map(\.horizontal) == [2, 1, 1])
        // The frame header sits within the first few hundred bytes; cut and flip everything up to the scan.
        let scanStart = try #require(zip(good.bytes, good.bytes.dropFirst()).enumerated().first { $1 == (0xFF, 0xDA) })
        let frameStart = try #require(zip(good.bytes, good.bytes.dropFirst()).enumerated().first { $1 == (0xFF, 0xC0) })
        let frameEnd =
            frameStart.offset + 2 + Int(good.bytes[frameStart.offset + 2]) << 8
            + Int(good.bytes[frameStart.offset + 3])
        for length in 0..<frameEnd {
            #expect(throws: WireError.self) { try JPEGFrameHeader(parsing: Array(good.bytes.prefix(length))) }
        }
        // A file cut anywhere, even after its headers, has no EOI and is refused.
        for length in [frameEnd, scanStart.offset, good.bytes.count - 1] {
            let previews = DNGPreviews(
                thumbnail: try TestImages.thumbnail(of: frame),
                preview: JPEGImage(bytes: Array(good.bytes.prefix(length)), width: good.width, height: good.height))
            #expect(throws: DNGError(.invalidInput)) {
                try DNGEncoder(options: DNGOptions(writesRawDigest: false)).plan(for: frame, previews: previews)
            }
        }
        for index in 0..<scanStart.offset {
            var damaged = good.bytes
            damaged[index] ^= 0xA5
            _ = try? JPEGFrameHeader(parsing: damaged)
            let previews = DNGPreviews(
                thumbnail: try TestImages.thumbnail(of: frame),
                preview: JPEGImage(bytes: damaged, width: good.width, height: good.height))
            do {
                _ = try DNGEncoder(options: DNGOptions(writesRawDigest: false)).plan(for: frame, previews: previews)
            } catch {
                #expect(error.code == .invalidInput, "byte \(index): \(error)")
            }
        }
    }
}

/// What Adobe's `dng_validate` (DNG SDK 1.7) asks of a CFA image beyond the specification, checked on the plan:
/// its `dng_ifd::IsValidDNG` warns "Too little padding on left/top/right/bottom edge of CFA image" when the default
/// crop leaves less than 1.9 pixels of the active area on a side, and fails with "Overflow in Round_int32" on an
/// 8-bit white level with a 2×2 BlackLevel repeat (issue 17).
extension DNGEncoderTests {
    /// The validator's padding sides that are too thin, for a CFA raw directory.
    static func thinPaddingSides(_ raw: DNGDirectory) -> [String] {
        guard case .rationals(let origin)? = raw[.defaultCropOrigin], case .rationals(let size)? = raw[.defaultCropSize],
            case .longs(let area)? = raw[.activeArea], origin.count == 2, size.count == 2, area.count == 4
        else { return ["crop or active area missing"] }
        let (width, height) = (Double(area[3]) - Double(area[1]), Double(area[2]) - Double(area[0]))
        let minimumPadding = 1.9
        var sides: [String] = []
        if origin[0] < minimumPadding { sides.append("left") }
        if origin[1] < minimumPadding { sides.append("top") }
        if origin[0] + size[0] > width - minimumPadding { sides.append("right") }
        if origin[1] + size[1] > height - minimumPadding { sides.append("bottom") }
        return sides
    }

    @Test(arguments: [(48, 44), (64, 48), (33, 31), (20, 16), (8, 8), (4000, 3000)])
    func theDefaultCropLeavesPaddingForDemosaicing(width: Int, height: Int) throws {
        let frame = try RawFrame(
            width: width, height: height, bitsPerSample: 12,
            samples: TestImages.samples(count: width * height, maximum: 4095, seed: 3), cfa: .rggb,
            blackLevels: [64, 64, 64, 64], whiteLevel: 4095)
        let plan = try DNGEncoder(options: DNGOptions(writesRawDigest: false))
            .plan(for: frame, previews: try TestImages.previews(of: frame))
        let raw = try #require(plan.rawDirectory)
        #expect(Self.thinPaddingSides(raw).isEmpty, "\(width)×\(height): crop \(frame.defaultCrop)")
        // Even offsets: the crop starts on a 2×2 pattern boundary.
        #expect(frame.defaultCrop.x % 2 == 0 && frame.defaultCrop.y % 2 == 0)
    }

    @Test(arguments: [8, 12, 16])
    func equalBlackLevelsAreOneValueWithA1x1Repeat(bits: Int) throws {
        let white = bits == 8 ? 255 : (1 << bits) - 1
        let frame = try RawFrame(
            width: 40, height: 32, bitsPerSample: bits,
            samples: TestImages.samples(count: 40 * 32, maximum: white, seed: 5), cfa: .gbrg,
            blackLevels: [16, 16, 16, 16], whiteLevel: white)
        let raw = try #require(try DNGEncoder().plan(for: frame, previews: try TestImages.previews(of: frame)).rawDirectory)
        #expect(raw[.blackLevelRepeatDim] == .shorts([1, 1]))
        #expect(raw[.blackLevel] == .rationals([16]))
        #expect(raw[.whiteLevel] == .longs([UInt32(white)]))
    }

    @Test func unequalBlackLevelsKeepThePatternRepeat() throws {
        let frame = try RawFrame(
            width: 40, height: 32, bitsPerSample: 12,
            samples: TestImages.samples(count: 40 * 32, maximum: 4095, seed: 5), cfa: .rggb,
            blackLevels: [16, 16, 16, 17], whiteLevel: 4095)
        let raw = try #require(try DNGEncoder().plan(for: frame, previews: try TestImages.previews(of: frame)).rawDirectory)
        #expect(raw[.blackLevelRepeatDim] == .shorts([2, 2]))
        #expect(raw[.blackLevel] == .rationals([16, 16, 16, 17]))
    }

    @Test(arguments: [(1.0, 1.0), (1.535, 1.0), (0.5, 2.0)])
    func thePixelAspectRatioBecomesDefaultScale(ratio: Double, bestQuality: Double) throws {
        var frame = try TestImages.frame(width: 48, height: 44, bitsPerSample: 8, cfa: .rggb)
        frame.pixelAspectRatio = ratio
        let raw = try #require(try DNGEncoder().plan(for: frame, previews: try TestImages.previews(of: frame)).rawDirectory)
        #expect(raw[.defaultScale] == .rationals([ratio, 1]))
        #expect(raw[.bestQualityScale] == .rational(bestQuality))
    }

    /// A LinearRaw DNG demosaiced from a frame with non-square pixels keeps them (DefaultScale, DNG 1.7.1 p.30):
    /// `convert --linear` of a Kodak DC120 renders at its shape, not squeezed.
    @Test(arguments: [(1.0, 1.0), (1.535, 1.0), (0.5, 2.0)])
    func aLinearImageKeepsThePixelAspectRatioOfItsFrame(ratio: Double, bestQuality: Double) throws {
        var frame = try TestImages.frame(width: 48, height: 44, bitsPerSample: 12, cfa: .rggb)
        frame.pixelAspectRatio = ratio
        let image = try LinearImage(demosaicing: frame)
        #expect(image.pixelAspectRatio == ratio)
        let previews = DNGPreviews(thumbnail: try LinearTestImages.thumbnail(of: image), preview: nil)
        let raw = try #require(try DNGEncoder().plan(for: image, previews: previews).rawDirectory)
        #expect(raw[.defaultScale] == .rationals([ratio, 1]))
        #expect(raw[.bestQualityScale] == .rational(bestQuality))
    }

    @Test(arguments: [0.0, -1, .nan, .infinity])
    func anUnusablePixelAspectRatioIsRefused(ratio: Double) throws {
        var frame = try TestImages.frame(width: 48, height: 44, bitsPerSample: 8, cfa: .rggb)
        frame.pixelAspectRatio = ratio
        #expect(throws: DNGError(.invalidInput)) {
            try DNGEncoder().plan(for: frame, previews: try TestImages.previews(of: frame))
        }
    }
}
