import RawImage
import Testing

@testable import DNG
import TIFFVocabulary

/// The plan's own rules, checked without writing anything.
@Suite struct DNGPlanTests {
    static var width: DNGEntry { get throws { try DNGEntry(.imageWidth, .long(4)) } }
    static var height: DNGEntry { get throws { try DNGEntry(.imageLength, .long(2)) } }

    @Test func entriesAreSortedByTag() throws {
        let directory = try DNGDirectory(entries: [
            try DNGEntry(.make, .ascii("Acme")), try DNGEntry(.newSubfileType, .long(0)), try Self.width,
        ])
        #expect(directory.entries.map(\.tag.rawValue) == [254, 256, 271])
    }

    @Test func emptyDirectoryThrows() {
        #expect(throws: DNGError(.invalidPlan)) { try DNGDirectory(entries: []) }
        #expect(throws: DNGError(.invalidPlan)) { try DNGDirectory.EXIFDirectory(entries: []) }
    }

    @Test func duplicateTagThrows() {
        #expect(throws: DNGError(.invalidPlan)) {
            try DNGDirectory(entries: [
                try DNGEntry(.dngVersion, .bytes([1, 4, 0, 0])), try DNGEntry(.dngVersion, .bytes([1, 1, 0, 0])),
            ])
        }
    }

    @Test func writerManagedTagsAreRejected() {
        #expect(throws: DNGError(.invalidPlan)) {
            try DNGDirectory(entries: [try DNGEntry(.stripOffsets, .long(8))])
        }
    }

    @Test func valueOfTheWrongTypeThrows() {
        #expect(throws: DNGError(.invalidPlan)) { try DNGEntry(.whiteLevel, .shorts([4095])) }
        #expect(throws: DNGError(.invalidPlan)) { try DNGEntry(.make, .bytes([65])) }
    }

    @Test func wrongCountThrows() {
        #expect(throws: DNGError(.invalidPlan)) { try DNGEntry(.dngVersion, .bytes([1, 4, 0])) }
        #expect(throws: DNGError(.invalidPlan)) { try DNGEntry(.activeArea, .longs([0, 0, 10])) }
        #expect(throws: DNGError(.invalidPlan)) { try DNGEntry(.colorMatrix1, .srationals([])) }
    }

    @Test func valuesThatDoNotFitTheirTypeThrow() {
        #expect(throws: DNGError(.doesNotFit)) { try DNGEntry(.asShotNeutral, .rationals([-1, 1, 1])) }
        #expect(throws: DNGError(.doesNotFit)) { try DNGEntry(.baselineExposure, .srational(3e9)) }
        #expect(throws: DNGError(.doesNotFit)) { try DNGEntry(.baselineExposure, .srational(.nan)) }
        #expect(throws: DNGError(.doesNotFit)) { try DNGEntry(.profileToneCurve, .floats([0, .infinity])) }
        #expect(throws: DNGError(.invalidPlan)) { try DNGEntry(.make, .ascii("Ac\u{0}me")) }
        #expect(throws: DNGError(.invalidPlan)) { try DNGEntry(.make, .ascii("Caméra")) }
    }

    @Test func chunkCountMustMatchTheLayout() throws {
        let entries = [
            try Self.width, try Self.height, try DNGEntry(.compression, .short(7)),
            try DNGEntry(.rowsPerStrip, .long(1)),
        ]
        #expect(throws: DNGError(.invalidPlan)) {
            try DNGDirectory(
                entries: entries,
                image: DNGImageData(layout: .strips(rowsPerStrip: 1), chunks: [DNGImageChunk(bytes: [1])]))
        }
        let two = [DNGImageChunk(bytes: [1]), DNGImageChunk(bytes: [2])]
        _ = try DNGDirectory(entries: entries, image: DNGImageData(layout: .strips(rowsPerStrip: 1), chunks: two))
    }

    @Test func uncompressedStripMustHoldExactlyItsPixels() throws {
        let entries = [
            try Self.width, try Self.height, try DNGEntry(.compression, .short(1)),
            try DNGEntry(.rowsPerStrip, .long(2)),
            try DNGEntry(.bitsPerSample, .shorts([16])), try DNGEntry(.samplesPerPixel, .short(1)),
        ]
        #expect(throws: DNGError(.invalidPlan)) {
            try DNGDirectory(
                entries: entries,
                image: DNGImageData(
                    layout: .strips(rowsPerStrip: 2), chunks: [DNGImageChunk(littleEndianSamples: [1, 2, 3][...])]))
        }
        let full = DNGImageChunk(littleEndianSamples: [1, 2, 3, 4, 5, 6, 7, 8][...])
        _ = try DNGDirectory(entries: entries, image: DNGImageData(layout: .strips(rowsPerStrip: 2), chunks: [full]))
    }

    @Test func tilesMustBeMultiplesOf16() throws {
        let entries = [
            try Self.width, try Self.height, try DNGEntry(.compression, .short(7)), try DNGEntry(.tileWidth, .long(8)),
            try DNGEntry(.tileLength, .long(8)),
        ]
        #expect(throws: DNGError(.invalidPlan)) {
            try DNGDirectory(
                entries: entries,
                image: DNGImageData(layout: .tiles(width: 8, height: 8), chunks: [DNGImageChunk(bytes: [1])]))
        }
    }

    @Test func subIFDsCannotNest() throws {
        let leaf = try DNGDirectory(entries: [try Self.width])
        let middle = try DNGDirectory(entries: [try Self.width], subDirectories: [leaf])
        #expect(throws: DNGError(.invalidPlan)) {
            try DNGDirectory(entries: [try Self.width], subDirectories: [middle])
        }
    }

    @Test func littleEndianSamplesAreWrittenLowByteFirst() {
        #expect(DNGImageChunk(littleEndianSamples: [0x1234, 0xABCD][...]).fileBytes == [0x34, 0x12, 0xCD, 0xAB])
    }

    @Test func unknownTagsPrintTheirNumber() {
        #expect(TIFFTag(rawValue: 0xC61D, type: .long).name == "WhiteLevel")
        #expect(TIFFTag(rawValue: 0xFDE8, type: .short).name == "Unknown(0xFDE8)")
        #expect(TIFFType(rawValue: 99).description == "Unknown(99)")
    }

    @Test func numbersReadFromAFileTakeTheCatalogsTypeAndCount() {
        // The reader makes its tags from numbers; they must equal the writer's named tags.
        #expect(TIFFTag(rawValue: 50717) == .whiteLevel)
        #expect(TIFFTag(rawValue: 51111).count == 16)
        #expect(TIFFTag(rawValue: 34855) == .photographicSensitivity)
        #expect(TIFFTag(rawValue: 0xFDE8).type == .undefined)
        #expect(TIFFTag(rawValue: 0xFDE8).description == "Unknown(0xFDE8)")
        #expect(TIFFTag(rawValue: 0xFDE8) != TIFFTag(rawValue: 0xFDE8, type: .short))
    }

    @Test func catalogIsSortedAndUnique() {
        let ids = TIFFTag.catalog.map(\.rawValue)
        #expect(ids == ids.sorted())
        #expect(Set(ids).count == ids.count)
    }
}

extension DNGPlanTests {
    @Test func pixelDataBeyondFourGibibytesDoesNotFit() throws {
        try DNGPlan.checkFits(imageByteCount: 48_000_000)
        #expect(throws: DNGError(.doesNotFit)) { try DNGPlan.checkFits(imageByteCount: Int(UInt32.max)) }
        #expect(throws: DNGError(.doesNotFit)) { try DNGPlan.checkFits(imageByteCount: Int.max) }
    }
}
