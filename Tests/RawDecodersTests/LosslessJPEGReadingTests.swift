import RawDecoders
import RawImage
import TestSupport
import Testing

/// Compression 7 raw data in every layout DNG writers use, read back exactly, and checked against LibRaw.
@Suite struct LosslessJPEGReadingTests {
    @Test(arguments: [12, 14, 16], [TestRawFile.LosslessLayout.twoComponents, .oneComponent])
    func readsTilesIncludingEdgeTiles(bits: Int, layout: TestRawFile.LosslessLayout) throws {
        var file = TestRawFile(width: 100, height: 70, bitsPerSample: bits, storage: .tiles(width: 32, height: 32))
        file.lossless = layout
        let decoded = try TIFFRawReader.decode(file.build()[...])
        #expect(decoded.frame?.samples == file.samples)
        #expect(decoded.info.storage.compression == .jpeg)
        #expect(decoded.info.storage.layout == "12 tiles of 32×32")
    }

    @Test func readsStripsWithTwoSensorRowsPerJPEGRow() throws {
        var file = TestRawFile(width: 40, height: 32, bitsPerSample: 14, storage: .strips(rowsPerStrip: 8))
        file.lossless = .twoRowsPerJPEGRow
        #expect(try TIFFRawReader.decode(file.build()[...]).frame?.samples == file.samples)
    }

    @Test func readsLosslessLinearRaw() throws {
        var file = TestRawFile(
            width: 48, height: 32, bitsPerSample: 16, storage: .tiles(width: 16, height: 16), samplesPerPixel: 3,
            photometric: 34892)
        file.lossless = .oneComponent
        #expect(try TIFFRawReader.decode(file.build()[...]).linearImage?.samples == file.samples)
    }

    @Test(arguments: [TestRawFile.LosslessLayout.twoComponents, .oneComponent])
    func agreesWithLibRaw(layout: TestRawFile.LosslessLayout) throws {
        var file = TestRawFile(width: 96, height: 64, bitsPerSample: 14, storage: .tiles(width: 32, height: 32))
        file.lossless = layout
        let bytes = file.build()
        let libraw = try #require(try LibRawDecoder.decode(bytes[...]).frame)
        let ours = try #require(try TIFFRawReader.decode(bytes[...]).frame)
        #expect(libraw.samples == ours.samples)
        #expect(ours.samples == file.samples)
    }

    @Test func aJPEGFrameOfTheWrongSizeIsCorrupt() throws {
        var file = TestRawFile(width: 64, height: 32, bitsPerSample: 12, storage: .tiles(width: 32, height: 32))
        file.lossless = .oneComponent
        var tags = file.rawIFDTags()
        tags[256] = .long([64])
        var ifd = TIFFBuilder.IFD(tags: tags, data: file.imageData())
        ifd.tags[322] = nil
        ifd.data = file.imageData()
        // Declare 16×32 tiles: each 32×32 JPEG now holds twice the samples of its tile.
        if case .tiles(_, let height, let tiles)? = ifd.data {
            ifd.data = .tiles(width: 16, height: height, tiles + tiles)
        }
        #expect(throws: DecodeError(.corrupt)) { try TIFFRawReader.decode(TIFFBuilder(chain: [ifd]).build()[...]) }
    }

    @Test func damagedStreamsThrow() throws {
        var file = TestRawFile(width: 64, height: 64, bitsPerSample: 14, storage: .tiles(width: 32, height: 32))
        file.lossless = .twoComponents
        let bytes = file.build()
        var state: UInt64 = 12345
        for _ in 0..<500 {
            var damaged = bytes
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let position = Int(state >> 33) % damaged.count
            damaged[position] ^= UInt8(truncatingIfNeeded: state >> 20) | 1
            // Typed throws: any error is a DecodeError; the point is that none of these traps.
            _ = try? TIFFRawReader.decode(damaged[...])
        }
        for length in stride(from: 0, to: bytes.count, by: 53) {
            #expect(throws: DecodeError.self) { try TIFFRawReader.decode(bytes.prefix(length)) }
        }
    }
}
