import RawDecoders
import RawImage
import TestSupport
import Testing

@Suite struct TIFFRawReaderTests {
    static let bitDepths = [8, 10, 12, 14, 16]

    @Test(arguments: bitDepths, [true, false])
    func readsPackedStripsInEitherByteOrder(bits: Int, littleEndian: Bool) throws {
        var file = TestRawFile(bitsPerSample: bits, littleEndian: littleEndian)
        let bytes = file.build()
        let decoded = try TIFFRawReader.decode(bytes[...])
        let frame = try #require(decoded.frame)
        #expect(frame.width == 40 && frame.height == 30)
        #expect(frame.bitsPerSample == bits)
        #expect(frame.samples == file.samples)
        #expect(frame.cfa == .rggb)
        #expect(frame.whiteLevel == (1 << bits) - 1)
        #expect(decoded.storedBitsPerSample == bits)
        #expect(decoded.info.byteOrder == (littleEndian ? .little : .big))
        #expect(decoded.info.container == .dng(version: "1.4.0.0", backwardVersion: "1.1.0.0"))
        #expect(decoded.info.storage.path == "IFD0/SubIFD0")
        #expect(decoded.info.storage.layout == "5 strips of 7 rows")
        #expect(decoded.info.warnings.isEmpty, "libtiff said: \(decoded.info.warnings)")
    }

    @Test(arguments: [12, 16])
    func readsTilesAndCropsTheEdgeTiles(bits: Int) throws {
        var file = TestRawFile(width: 70, height: 50, bitsPerSample: bits, storage: .tiles(width: 32, height: 16))
        let decoded = try TIFFRawReader.decode(file.build()[...])
        #expect(decoded.frame?.samples == file.samples)
        #expect(decoded.info.storage.layout == "12 tiles of 32×16")
    }

    @Test func reportsTheSignificantBitsOfDataInWiderContainers() throws {
        var file = TestRawFile(bitsPerSample: 16)
        file.samples = TestRawFile.pseudoRandomSamples(count: 40 * 30, bits: 12, seed: 9)
        file.rawTags = [50717: .long([4095])]
        let decoded = try TIFFRawReader.decode(file.build()[...])
        #expect(decoded.frame?.bitsPerSample == 12)
        #expect(decoded.storedBitsPerSample == 16)
        #expect(decoded.frame?.samples == file.samples)
    }

    @Test func readsTheRawImageFromIFD0() throws {
        var file = TestRawFile(placement: .ifd0)
        let decoded = try TIFFRawReader.decode(file.build()[...])
        #expect(decoded.frame?.samples == file.samples)
        #expect(decoded.info.storage.path == "IFD0")
        #expect(decoded.info.previews.isEmpty)
    }

    @Test func reportsThePreviews() throws {
        var file = TestRawFile()
        let decoded = try TIFFRawReader.decode(file.build()[...])
        #expect(decoded.info.previews.count == 1)
        let preview = try #require(decoded.info.previews.first)
        #expect(preview.path == "IFD0" && preview.width == 4 && preview.height == 2 && preview.kind == .rgb)
        #expect(preview.byteCount == 24)
    }

    @Test func readsLevelsGeometryAndPatternRelativeToTheActiveArea() throws {
        var file = TestRawFile(width: 48, height: 40, bitsPerSample: 14)
        file.pattern = [1, 0, 2, 1]  // GRBG
        file.rawTags = [
            50829: .long([2, 4, 38, 44]),  // ActiveArea top, left, bottom, right
            50713: .short([2, 2]),
            50714: .rational([(512, 1), (513, 1), (514, 1), (1031, 2)]),
            50717: .long([15000]),
            50719: .rational([(8, 1), (6, 1)]),
            50720: .rational([(20, 1), (24, 1)]),
        ]
        let frame = try #require(try TIFFRawReader.decode(file.build()[...]).frame)
        #expect(frame.cfa == .grbg)
        #expect(frame.activeArea == PixelRect(x: 4, y: 2, width: 40, height: 36))
        #expect(frame.blackLevels == [512, 513, 514, 515.5])
        #expect(frame.whiteLevel == 15000)
        #expect(frame.defaultCrop == PixelRect(x: 8, y: 6, width: 20, height: 24))
        #expect(frame.color(row: 2, column: 4) == .green)
        #expect(frame.color(row: 2, column: 5) == .red)
    }

    @Test func expandsASingleBlackLevelToEveryPatternPosition() throws {
        var file = TestRawFile()
        file.rawTags = [50714: .short([256])]
        let frame = try #require(try TIFFRawReader.decode(file.build()[...]).frame)
        #expect(frame.blackLevels == [256, 256, 256, 256])
        // No DefaultCrop: a margin for demosaicing (8 pixels on a side of 32 or more, 2 below), not DNG's whole
        // area, so that the DNG rawcap writes passes Adobe's validator without a padding warning (issue 17).
        #expect(frame.defaultCrop == PixelRect(x: 8, y: 2, width: 24, height: 26))
    }

    @Test func aLinearRawImageWithoutACropKeepsTheWholeArea() throws {
        var file = TestRawFile(bitsPerSample: 16, samplesPerPixel: 3, photometric: 34892)
        let image = try #require(try TIFFRawReader.decode(file.build()[...]).linearImage)
        #expect(image.defaultCrop == PixelRect(width: 40, height: 30))
    }

    @Test(arguments: [
        ([(UInt32(1535), UInt32(1000)), (1, 1)], 1.535), ([(1, 2), (1, 1)], 0.5), ([(2, 1), (2, 1)], 1.0),
    ])
    func readsDefaultScaleAsThePixelAspectRatio(scale: [(UInt32, UInt32)], ratio: Double) throws {
        var file = TestRawFile()
        file.rawTags = [50718: .rational(scale)]
        let frame = try #require(try TIFFRawReader.decode(file.build()[...]).frame)
        #expect(abs(frame.pixelAspectRatio - ratio) < 1e-9)
    }

    @Test func readsDefaultScaleOfALinearRawImage() throws {
        var file = TestRawFile(bitsPerSample: 16, samplesPerPixel: 3, photometric: 34892)
        file.rawTags = [50718: .rational([(1535, 1000), (1, 1)])]
        let image = try #require(try TIFFRawReader.decode(file.build()[...]).linearImage)
        #expect(abs(image.pixelAspectRatio - 1.535) < 1e-9)
    }

    @Test(arguments: [[(UInt32(0), UInt32(1)), (1, 1)], [(1, 1), (0, 0)], [(1000, 1), (1, 1)]])
    func aMalformedDefaultScaleMeansSquarePixels(scale: [(UInt32, UInt32)]) throws {
        var file = TestRawFile()
        file.rawTags = [50718: .rational(scale)]
        let decoded = try TIFFRawReader.decode(file.build()[...])
        #expect(decoded.frame?.pixelAspectRatio == 1)
        #expect(decoded.info.warnings.contains { $0.hasPrefix("DefaultScale") })
    }

    @Test func averagesABlackLevelRepeatThatDoesNotFollowThePattern() throws {
        var file = TestRawFile()
        file.rawTags = [50713: .short([1, 4]), 50714: .short([100, 200, 300, 400])]
        let decoded = try TIFFRawReader.decode(file.build()[...])
        #expect(decoded.frame?.blackLevels == [200, 300, 200, 300])
        #expect(decoded.info.warnings.contains { $0.contains("BlackLevel repeat") })
    }

    @Test func readsColourTagsIncludingTheOnesLibTIFFDoesNotKnow() throws {
        var file = TestRawFile()
        let matrix: [(Int32, Int32)] = [
            (6988, 10000), (-1384, 10000), (-714, 10000), (-5631, 10000), (13410, 10000), (2447, 10000),
            (-1485, 10000), (2204, 10000), (7318, 10000),
        ]
        file.ifd0Tags = [
            50721: .srational(matrix),
            50722: .srational(matrix.map { ($0.0 / 2, $0.1) }),
            50778: .short([17]),
            50779: .short([21]),
            50964: .srational(matrix.map { ($0.0, 20000) }),  // ForwardMatrix1: registered through the extender
            50728: .rational([(4, 10), (1, 1), (6, 10)]),
            50730: .srational([(-1, 2)]),
            50735: .ascii("SN-0042"),
        ]
        let frame = try #require(try TIFFRawReader.decode(file.build()[...]).frame)
        // Exact, not libtiff's float: the rationals are read from the file.
        #expect(frame.color.colorMatrix1[0, 0] == 6988.0 / 10000.0)
        #expect(frame.color.colorMatrix1[2, 2] == 7318.0 / 10000.0)
        #expect(frame.color.illuminant1 == .standardA)
        #expect(frame.color.illuminant2 == .d65)
        #expect(abs((frame.color.colorMatrix2?[1, 1] ?? 0) - 0.6705) < 1e-6)
        #expect(frame.color.forwardMatrix1?[0, 0] == 6988.0 / 20000.0)
        #expect(frame.color.asShotNeutral == [4.0 / 10.0, 1, 6.0 / 10.0])
        #expect(frame.color.baselineExposure == -0.5)
        #expect(frame.metadata.serialNumber == "SN-0042")
        #expect(frame.metadata.make == "rawcap" && frame.metadata.model == "Test Sensor")
        #expect(frame.metadata.uniqueCameraModel == "rawcap Test Sensor")
    }

    @Test func readsTheEXIFIFD() throws {
        var file = TestRawFile()
        file.ifd0Tags = [274: .short([6])]
        file.exifTags = [
            33434: .rational([(1, 250)]),
            33437: .rational([(56, 10)]),
            34855: .short([800]),
            36867: .ascii("2024:05:17 14:03:59"),
            37521: .ascii("042"),
            36881: .ascii("+02:00"),
            37380: .srational([(-2, 3)]),
            37386: .rational([(35, 1)]),
            42036: .ascii("Test Lens 35mm"),
            42033: .ascii("BODY-7"),
        ]
        let metadata = try #require(try TIFFRawReader.decode(file.build()[...]).frame).metadata
        #expect(metadata.exposureTime == Rational(1, 250))
        #expect(metadata.fNumber == 5.6)
        #expect(metadata.iso == 800)
        #expect(metadata.exposureBias == Rational(-2, 3))
        #expect(metadata.focalLength == 35)
        #expect(metadata.lensModel == "Test Lens 35mm")
        #expect(metadata.serialNumber == "BODY-7")
        #expect(metadata.orientation == .rotate90)
        #expect(metadata.captureTime?.description == "2024:05:17 14:03:59.042+02:00")
    }

    @Test func readsATIFFEPFileWithExposureFieldsInIFD0() throws {
        var file = TestRawFile(placement: .ifd0, isDNG: false)
        file.ifd0Tags = [33434: .rational([(1, 3)]), 34855: .short([100]), 36867: .ascii("2023:01:02 03:04:05")]
        let decoded = try TIFFRawReader.decode(file.build()[...])
        #expect(decoded.info.container == .tiffEP)
        let metadata = try #require(decoded.frame).metadata
        #expect(metadata.exposureTime == Rational(1, 3))
        #expect(metadata.iso == 100)
        #expect(metadata.captureTime?.year == 2023)
    }

    @Test func readsTheEXIFStyleCFAPattern() throws {
        var file = TestRawFile(placement: .ifd0, isDNG: false)
        file.rawTags = [33421: .short([]), 33422: .byte([])]
        file.patternDims = []
        file.exifTags = [41730: .undefined([2, 0, 2, 0, 2, 1, 1, 0])]  // 2 columns, 2 rows: BGGR
        var tags = file.rawIFDTags()
        tags[33421] = nil
        tags[33422] = nil
        let bytes = TIFFBuilder(
            chain: [TIFFBuilder.IFD(tags: tags, data: file.imageData(), exif: file.exifTags)]
        ).build()
        #expect(try TIFFRawReader.decode(bytes[...]).frame?.cfa == .bggr)
    }

    @Test func returnsTheLinearizationTableInsteadOfApplyingIt() throws {
        var file = TestRawFile(bitsPerSample: 8)
        let table = (0..<256).map { UInt16($0 * $0 / 4) }  // a companding curve to 14 bits
        file.rawTags = [50712: .short(table), 50717: .long([16256])]
        let decoded = try TIFFRawReader.decode(file.build()[...])
        let frame = try #require(decoded.frame)
        #expect(frame.samples == file.samples)
        #expect(decoded.linearizationTable == table)
        #expect(decoded.storedBitsPerSample == 8)
        #expect(frame.bitsPerSample == 14)
        #expect(frame.whiteLevel == 16256)
        let linear = try #require(try decoded.applyingLinearization().frame)
        #expect(linear.samples == file.samples.map { table[Int($0)] })
        #expect(try decoded.applyingLinearization().linearizationTable == nil)
    }

    @Test func readsLinearRawIntoALinearImage() throws {
        var file = TestRawFile(bitsPerSample: 16, samplesPerPixel: 3, photometric: 34892)
        file.rawTags = [50714: .short([64, 65, 66]), 50717: .short([60000, 61000, 62000])]
        let decoded = try TIFFRawReader.decode(file.build()[...])
        let image = try #require(decoded.linearImage)
        #expect(image.samples == file.samples)
        #expect(image.blackLevels == [64, 65, 66])
        #expect(image.whiteLevels == [60000, 61000, 62000])
    }

    @Test func picksTheLargestFullResolutionImage() throws {
        var small = TestRawFile(width: 8, height: 8, placement: .ifd0)
        var large = TestRawFile(width: 24, height: 16)
        let chain = [
            TIFFBuilder.IFD(tags: small.rawIFDTags(), data: small.imageData()),
            TIFFBuilder.IFD(tags: large.rawIFDTags(), data: large.imageData()),
        ]
        let decoded = try TIFFRawReader.decode(TIFFBuilder(chain: chain).build()[...])
        #expect(decoded.frame?.samples == large.samples)
        #expect(decoded.info.storage.path == "IFD1")
    }

    @Test func rejectsAFileWithoutARawImage() throws {
        var file = TestRawFile(photometric: 2)
        #expect(throws: DecodeError(.unsupported)) { try TIFFRawReader.decode(file.build()[...]) }
    }

    @Test func rejectsCompressionsItDoesNotRead() throws {
        var file = TestRawFile()
        file.rawTags = [259: .short([8])]
        #expect(throws: DecodeError(.unsupported)) { try TIFFRawReader.decode(file.build()[...]) }
    }

    @Test func rejectsNonRGBSensors() throws {
        var file = TestRawFile()
        file.pattern = [3, 4, 5, 1]  // cyan, magenta, yellow, green
        file.rawTags = [50710: .byte([3, 4, 5])]
        #expect(throws: DecodeError(.unsupported)) { try TIFFRawReader.decode(file.build()[...]) }
    }
}
