import RawDecoders
import TestSupport
import Testing
import WireFormat

/// Truncated, bit-flipped, cyclic and oversized TIFF files: every one throws a ``DecodeError``, none traps or
/// allocates without bound ("exceptions are good, crashes are bad", STYLE.md §3.6).
@Suite struct HostileTIFFTests {
    /// A small but complete DNG: SubIFD raw image, EXIF IFD, colour tags, a black-level pattern.
    static let sample: [UInt8] = {
        var file = TestRawFile(width: 16, height: 12, bitsPerSample: 12, storage: .strips(rowsPerStrip: 5))
        file.rawTags = [50713: .short([2, 2]), 50714: .short([10, 11, 12, 13]), 50829: .long([0, 2, 12, 16])]
        file.ifd0Tags = [
            50721: .srational([(1, 1), (0, 1), (0, 1), (0, 1), (1, 1), (0, 1), (0, 1), (0, 1), (1, 1)]),
            50728: .rational([(1, 2), (1, 1), (1, 2)]),
        ]
        file.exifTags = [33434: .rational([(1, 100)]), 36867: .ascii("2024:01:01 00:00:00")]
        return file.build()
    }()

    @Test func theSampleDecodes() throws {
        #expect(try TIFFRawReader.decode(Self.sample[...]).frame?.width == 16)
    }

    @Test func everyTruncationThrows() {
        for length in 0..<Self.sample.count {
            #expect(throws: DecodeError.self, "prefix of \(length) bytes") {
                try TIFFRawReader.decode(Self.sample.prefix(length))
            }
        }
    }

    @Test func bitFlipsNeverTrap() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(truncatingIfNeeded: state >> 1)
        }
        var failures = 0
        for _ in 0..<3000 {
            var bytes = Self.sample
            for _ in 0..<(1 + next() % 4) {
                bytes[next() % bytes.count] ^= UInt8(1 << (next() % 8))
            }
            // decode(_:) throws only DecodeError (typed throws); reaching the next iteration means no trap.
            do {
                _ = try TIFFRawReader.decode(bytes[...])
            } catch {
                failures += 1
            }
        }
        // Most flips land in sample data and still decode; some must hit the structure.
        #expect(failures > 0)
    }

    @Test func aSubIFDPointingBackToIFD0IsACycle() throws {
        var file = TestRawFile(placement: .ifd0)
        var ifd = TIFFBuilder.IFD(tags: file.rawIFDTags(), data: file.imageData())
        ifd.subIFDOffsetOverride = [8]  // placeholder, patched to IFD0's own offset below
        let first = TIFFBuilder(chain: [ifd]).buildWithLayout()
        ifd.subIFDOffsetOverride = [first.layout.chainOffsets[0]]
        let bytes = TIFFBuilder(chain: [ifd]).build()
        #expect(throws: DecodeError(.corrupt)) { try TIFFRawReader.decode(bytes[...]) }
    }

    @Test func aChainPointingToItselfIsACycle() throws {
        var file = TestRawFile(placement: .ifd0)
        let ifd = TIFFBuilder.IFD(tags: file.rawIFDTags(), data: file.imageData())
        let layout = TIFFBuilder(chain: [ifd, ifd]).buildWithLayout().layout
        var looping = [ifd, ifd]
        looping[1].nextIFDOverride = layout.chainOffsets[0]
        let bytes = TIFFBuilder(chain: looping).build()
        #expect(throws: DecodeError(.corrupt)) { try TIFFRawReader.decode(bytes[...]) }
    }

    @Test func subIFDsNestedTooDeeplyAreRefused() throws {
        var file = TestRawFile(placement: .ifd0)
        var ifd = TIFFBuilder.IFD(tags: file.rawIFDTags(), data: file.imageData())
        for _ in 0..<(WireLimits.maxIFDDepth + 1) {
            ifd = TIFFBuilder.IFD(tags: file.rawIFDTags(), data: file.imageData(), subIFDs: [ifd])
        }
        #expect(throws: DecodeError(.tooLarge)) { try TIFFRawReader.decode(TIFFBuilder(chain: [ifd]).build()[...]) }
    }

    @Test func tooManyIFDsAreRefused() throws {
        var file = TestRawFile(width: 4, height: 4, placement: .ifd0)
        let ifd = TIFFBuilder.IFD(tags: file.rawIFDTags(), data: file.imageData())
        let chain = [TIFFBuilder.IFD](repeating: ifd, count: WireLimits.maxIFDCount + 1)
        #expect(throws: DecodeError(.tooLarge)) { try TIFFRawReader.decode(TIFFBuilder(chain: chain).build()[...]) }
    }

    @Test(arguments: [
        (UInt32(1_000_000), UInt32(1_000_000)), (UInt32.max, UInt32(2)), (UInt32(40_000), UInt32(4)),
        (UInt32(20_000), UInt32(30_000)),
    ])
    func absurdDimensionsAreRefusedBeforeAllocating(width: UInt32, height: UInt32) throws {
        var file = TestRawFile(placement: .ifd0)
        file.rawTags = [256: .long([width]), 257: .long([height])]
        #expect(throws: DecodeError.self) { try TIFFRawReader.decode(file.build()[...]) }
    }

    @Test func dimensionsAboveTheLimitAreTooLarge() throws {
        var file = TestRawFile(placement: .ifd0)
        file.rawTags = [256: .long([40_000]), 257: .long([30]), 278: .long([30])]
        #expect(throws: DecodeError(.tooLarge)) { try TIFFRawReader.decode(file.build()[...]) }
    }

    @Test func aStripBeyondTheEndOfTheFileIsTruncation() throws {
        var file = TestRawFile(placement: .ifd0, storage: .strips(rowsPerStrip: 30))
        var ifd = TIFFBuilder.IFD(tags: file.rawIFDTags(), data: file.imageData())
        ifd.tags[279] = .long([1_000_000])
        ifd.data = nil
        ifd.tags[273] = .long([8])
        ifd.tags[278] = .long([30])
        #expect(throws: DecodeError(.truncated)) { try TIFFRawReader.decode(TIFFBuilder(chain: [ifd]).build()[...]) }
    }

    @Test func aShortStripIsTruncation() throws {
        var file = TestRawFile(placement: .ifd0, storage: .strips(rowsPerStrip: 30))
        var ifd = TIFFBuilder.IFD(tags: file.rawIFDTags(), data: file.imageData())
        if case .strips(let rows, let strips)? = ifd.data {
            ifd.data = .strips(rowsPerStrip: rows, [Array(strips[0].dropLast(10))])
        }
        #expect(throws: DecodeError(.truncated)) { try TIFFRawReader.decode(TIFFBuilder(chain: [ifd]).build()[...]) }
    }

    @Test func absurdTagCountsDoNotAllocate() throws {
        var bytes = Self.sample
        // Rewrite every entry's count field in the raw IFD to 0x7FFFFFFF: each value now claims ~gigabytes.
        let header = try TIFFHeader(bytes[...])
        let structure = try TIFFRawReader.structure(of: bytes[...])
        let raw = try TIFFRawReader.rawDirectory(in: structure)
        let entries = try header.directory(at: raw.offset, in: bytes[...]).entries
        for index in entries.indices {
            let countOffset = Int(raw.offset) + 2 + index * 12 + 4
            bytes.replaceSubrange(countOffset..<countOffset + 4, with: [0xFF, 0xFF, 0xFF, 0x7F])
        }
        #expect(throws: DecodeError.self) { try TIFFRawReader.decode(bytes[...]) }
    }

    @Test func badLevelsAreCorrupt() throws {
        var file = TestRawFile()
        file.rawTags = [50714: .short([5000]), 50717: .long([4000])]
        #expect(throws: DecodeError(.corrupt)) { try TIFFRawReader.decode(file.build()[...]) }
    }

    @Test func anActiveAreaOutsideTheImageIsCorrupt() throws {
        var file = TestRawFile()
        file.rawTags = [50829: .long([0, 0, 31, 40])]
        #expect(throws: DecodeError(.corrupt)) { try TIFFRawReader.decode(file.build()[...]) }
    }

    @Test func aPatternNamingAMissingPlaneIsCorrupt() throws {
        var file = TestRawFile()
        file.pattern = [0, 1, 1, 9]
        #expect(throws: DecodeError(.corrupt)) { try TIFFRawReader.decode(file.build()[...]) }
    }

    /// A finite but absurd black level (one DOUBLE of 1e300, directly or through BlackLevelDeltaV) once trapped
    /// converting to Int in RawFrame (issue 17): it must be a typed error.
    @Test(arguments: [
        [UInt16(50714): TIFFBuilder.Value.double([1e300])],
        [50714: .double([1e300, 0, 0, 0]), 50713: .short([2, 2])],
        [50716: .double([Double](repeating: 1e300, count: 30))],
        [50715: .double([Double](repeating: 1e300, count: 40))],
        [50716: .double([Double](repeating: 1.7e308, count: 30))],
    ])
    func hugeBlackLevelsAreCorrupt(tags: [UInt16: TIFFBuilder.Value]) throws {
        var file = TestRawFile()
        file.rawTags = tags
        #expect(throws: DecodeError(.corrupt)) { try TIFFRawReader.decode(file.build()[...]) }
    }

    @Test func notATIFFIsRejected() {
        #expect(throws: DecodeError.self) { try TIFFRawReader.decode([0xFF, 0xD8, 0xFF, 0xE0, 0, 0, 0, 0][...]) }
    }
}
