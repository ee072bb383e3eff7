import RawDecoders
import Testing
import WireFormat

@Suite struct TIFFHeaderTests {
    /// TIFF 6.0 §2, little-endian: "II", 42, IFD0 at 8; then an IFD with one entry (Orientation = 6) and no next IFD.
    static let classic: [UInt8] = [
        0x49, 0x49,  // byte order II
        0x2A, 0x00,  // 42
        0x08, 0x00, 0x00, 0x00,  // IFD0 at 8
        0x01, 0x00,  // 1 entry
        0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00,  // 274 SHORT ×1 = 6
        0x00, 0x00, 0x00, 0x00,  // no next IFD
    ]

    /// BigTIFF (TIFF Technical Note, 2007), big-endian: "MM", 43, offset size 8, 0, IFD0 at 16.
    static let bigTIFF: [UInt8] = [
        0x4D, 0x4D, 0x00, 0x2B, 0x00, 0x08, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,
    ]

    @Test func parsesAClassicHeaderAndItsIFD() throws {
        let header = try TIFFHeader(Self.classic[...])
        #expect(header.byteOrder == .little && !header.isBigTIFF && header.firstIFDOffset == 8)
        let (entries, next) = try header.directory(at: 8, in: Self.classic[...])
        #expect(next == 0)
        #expect(entries.map(\.tag) == [.orientation])
        #expect(entries.first.flatMap(header.inlineInteger) == 6)
    }

    @Test func parsesABigTIFFHeader() throws {
        let header = try TIFFHeader(Self.bigTIFF[...])
        #expect(header.byteOrder == .big && header.isBigTIFF && header.firstIFDOffset == 16)
    }

    @Test func everyPrefixOfTheIFDFails() throws {
        let header = try TIFFHeader(Self.classic[...])
        for length in 0..<Self.classic.count {
            #expect(throws: WireError.self, "prefix of \(length) bytes") {
                _ = try TIFFHeader(Self.classic.prefix(length))
                _ = try header.directory(at: 8, in: Self.classic.prefix(length))
            }
        }
    }

    @Test func rejectsOtherMagicNumbersAndMarks() {
        #expect(throws: WireError(.invalidValue)) { try TIFFHeader([0x49, 0x49, 0x55, 0x00, 8, 0, 0, 0][...]) }
        #expect(throws: WireError(.invalidValue)) { try TIFFHeader([0x49, 0x4D, 0x2A, 0x00, 8, 0, 0, 0][...]) }
        #expect(!TIFFHeader.looksLikeTIFF([0xFF, 0xD8, 0xFF, 0xE1, 0, 0, 0, 0][...]))
    }

    @Test func refusesAnIFDWithTooManyEntries() throws {
        var bytes = Self.classic
        bytes[8] = 0xFF
        bytes[9] = 0xFF
        let header = try TIFFHeader(bytes[...])
        #expect(throws: WireError(.limitExceeded)) { try header.directory(at: 8, in: bytes[...]) }
    }

    @Test func readsRationalsExactly() throws {
        var bytes = Self.classic
        // Replace the entry with SRATIONAL ×2 at offset 26: -1/3, 19549/10000.
        bytes.replaceSubrange(10..<22, with: [0x21, 0xC6, 0x0A, 0x00, 0x02, 0x00, 0x00, 0x00, 0x1A, 0x00, 0x00, 0x00])
        bytes += [0xFF, 0xFF, 0xFF, 0xFF, 0x03, 0x00, 0x00, 0x00, 0x5D, 0x4C, 0x00, 0x00, 0x10, 0x27, 0x00, 0x00]
        let header = try TIFFHeader(bytes[...])
        let entry = try #require(try header.directory(at: 8, in: bytes[...]).entries.first)
        #expect(header.rationals(entry, in: bytes[...]) == [-1.0 / 3.0, 19549.0 / 10000.0])
        #expect(header.rationals(entry, in: bytes.prefix(40)) == nil)
    }
}
