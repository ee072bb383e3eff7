import RawDecoders
import RawImage
import TestSupport
import Testing

/// LibRaw reads DNG too, which makes it an oracle for rawcap's own reader: the same file must give the same
/// samples, pattern, geometry and levels through both.
@Suite struct LibRawDecoderTests {
    static let matrix: [(Int32, Int32)] = [
        (6988, 10000), (-1384, 10000), (-714, 10000), (-5631, 10000), (13410, 10000), (2447, 10000),
        (-1485, 10000), (2204, 10000), (7318, 10000),
    ]

    static func oracleFile(bits: Int, littleEndian: Bool, placement: TestRawFile.Placement) -> TestRawFile {
        var file = TestRawFile(
            width: 64, height: 48, bitsPerSample: bits, littleEndian: littleEndian, placement: placement,
            storage: .strips(rowsPerStrip: 16))
        file.pattern = [1, 2, 0, 1]  // GBRG
        file.rawTags = [
            50829: .long([2, 4, 46, 62]),
            50713: .short([2, 2]),
            50714: .short([60, 61, 62, 63]),
            50717: .long([UInt32((1 << bits) - 100)]),
        ]
        file.ifd0Tags = [50721: .srational(matrix), 50778: .short([21]), 50728: .rational([(1, 2), (1, 1), (2, 3)])]
        return file
    }

    @Test(arguments: [10, 12, 14, 16], [TestRawFile.Placement.subIFD, .ifd0])
    func agreesWithTheTIFFReaderOnADNG(bits: Int, placement: TestRawFile.Placement) throws {
        for littleEndian in [true, false] {
            var file = Self.oracleFile(bits: bits, littleEndian: littleEndian, placement: placement)
            let bytes = file.build()
            let ours = try #require(try TIFFRawReader.decode(bytes[...]).frame)
            let decoded = try LibRawDecoder.decode(bytes[...])
            let libraw = try #require(decoded.frame)
            #expect(libraw.width == ours.width && libraw.height == ours.height)
            #expect(libraw.samples == ours.samples, "\(bits)-bit \(littleEndian ? "II" : "MM")")
            #expect(libraw.activeArea == ours.activeArea)
            #expect(libraw.cfa == ours.cfa)
            #expect(libraw.blackLevels == ours.blackLevels)
            #expect(libraw.whiteLevel == ours.whiteLevel)
            #expect(libraw.metadata.make == "rawcap")
            #expect(libraw.metadata.model == "Test Sensor")
            // A DNG read by LibRaw is still named a DNG; which decoder read it is in the storage line.
            #expect(decoded.info.container.description == "DNG", "\(decoded.info.container)")
            #expect(decoded.info.storage.layout.contains("LibRaw "), "\(decoded.info.storage.layout)")
        }
    }

    @Test func normalisesTheColourMatrixAsDNGReadersDo() throws {
        var file = Self.oracleFile(bits: 12, littleEndian: true, placement: .subIFD)
        let frame = try #require(try LibRawDecoder.decode(file.build()[...]).frame)
        let white = frame.color.colorMatrix1.apply((0.9642, 1.0, 0.8249))
        #expect(abs(max(white.0, white.1, white.2) - 1) < 1e-6)
        // Same direction as the file's ColorMatrix1 (LibRaw may scale it).
        let scale = frame.color.colorMatrix1[0, 0] / 0.6988
        #expect(abs(frame.color.colorMatrix1[1, 1] / scale - 1.341) < 1e-3)
        #expect(frame.color.asShotNeutral.map { ($0 * 1000).rounded() / 1000 } == [0.5, 1, 0.667])
    }

    @Test func refusesAlreadyLinearData() throws {
        var file = TestRawFile(bitsPerSample: 16, samplesPerPixel: 3, photometric: 34892)
        file.ifd0Tags = [50721: .srational(Self.matrix)]
        #expect(throws: DecodeError(.unsupported)) { try LibRawDecoder.decode(file.build()[...]) }
    }

    @Test func namesLibRawsErrorForUnknownFormats() {
        let garbage = [UInt8](repeating: 0x5A, count: 4096)
        #expect(throws: DecodeError(.unsupported)) { try LibRawDecoder.decode(garbage[...]) }
        do {
            _ = try LibRawDecoder.decode(garbage[...])
        } catch {
            #expect(error.libRawStatus == .fileUnsupported)
            #expect(error.description.contains("LIBRAW_FILE_UNSUPPORTED"))
        }
    }

    @Test func truncatedFilesThrow() throws {
        var file = Self.oracleFile(bits: 12, littleEndian: true, placement: .ifd0)
        let bytes = file.build()
        for length in stride(from: 0, to: bytes.count, by: 97) {
            #expect(throws: DecodeError.self, "prefix of \(length)") { try LibRawDecoder.decode(bytes.prefix(length)) }
        }
    }

    /// LibRaw sees damaged TIFFs when a flipped bit hides DNGVersion from the format detection; it must fail
    /// cleanly too (3000 runs were clean during development; 300 here keep the suite quick).
    @Test func bitFlipsThroughLibRawNeverTrap() throws {
        var file = Self.oracleFile(bits: 12, littleEndian: true, placement: .subIFD)
        let bytes = file.build()
        var state: UInt64 = 0x1234_5678
        for _ in 0..<300 {
            var damaged = bytes
            for _ in 0..<3 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                damaged[Int(state >> 33) % damaged.count] ^= UInt8(truncatingIfNeeded: state >> 20) | 1
            }
            _ = try? LibRawDecoder.decode(damaged[...])
        }
    }
}
