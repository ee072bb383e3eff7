import PTP
import Testing
import WireFormat

@Suite struct PTPStringTests {
    private func encode(_ string: String) -> [UInt8] {
        var writer = WireWriter(byteOrder: .little)
        PTPString.write(string, into: &writer)
        return writer.bytes
    }

    private func decode(_ bytes: [UInt8], quirks: PTPQuirks = []) throws(WireError) -> String {
        var reader = WireReader(bytes, byteOrder: .little)
        let string = try PTPString.read(from: &reader, quirks: quirks)
        try reader.expectEnd("string")
        return string
    }

    @Test func emptyStringIsOneZeroByte() throws {
        #expect(encode("") == [0x00])
        #expect(try decode([0x00]) == "")
        // Some devices write the empty string as one NUL unit; it decodes to "" too.
        #expect(try decode([0x01, 0x00, 0x00]) == "")
    }

    @Test func countIncludesTheTerminatingNul() throws {
        let bytes = hexBytes("03 61 00 62 00 00 00  // 3 units: 'a', 'b', NUL")
        #expect(encode("ab") == bytes)
        #expect(try decode(bytes) == "ab")
    }

    @Test func surrogatePairsRoundTrip() throws {
        // U+1F4F7 CAMERA is the pair D83D DCF7.
        let bytes = hexBytes("04 41 00 3d d8 f7 dc 00 00")
        #expect(encode("A📷") == bytes)
        #expect(try decode(bytes) == "A📷")
    }

    @Test func invalidUTF16DecodesWithReplacement() throws {
        // A lone high surrogate, then 'x'.
        #expect(try decode(hexBytes("03 00 d8 78 00 00 00")) == "\u{FFFD}x")
        // A lone low surrogate at the end.
        #expect(try decode(hexBytes("02 00 dc 00 00")) == "\u{FFFD}")
    }

    @Test func missingNulIsAnErrorUnlessTheQuirkIsChosen() throws {
        let bytes = hexBytes("02 61 00 62 00")
        #expect(throws: WireError(.invalidValue)) { try decode(bytes) }
        #expect(try decode(bytes, quirks: .unterminatedStrings) == "ab")
    }

    @Test func textAfterAnEmbeddedNulIsDropped() throws {
        #expect(try decode(hexBytes("04 61 00 00 00 62 00 00 00")) == "a")
    }

    @Test func longStringsAreCutAtACharacterBoundary() throws {
        let long = String(repeating: "x", count: 300)
        let bytes = encode(long)
        #expect(bytes[0] == 255)
        #expect(bytes.count == 1 + 255 * 2)
        #expect(try decode(bytes) == String(repeating: "x", count: 254))
        #expect(!PTPString.fits(long))
        // 253 'x' then a pair: the pair does not fit in the one unit left, so it is dropped whole.
        let pairAtEnd = String(repeating: "x", count: 253) + "📷"
        #expect(try decode(encode(pairAtEnd)) == String(repeating: "x", count: 253))
        #expect(PTPString.fits(String(repeating: "y", count: 254)))
    }

    @Test func everyTruncationThrows() {
        let bytes = encode("Canon")
        for length in 0..<bytes.count {
            #expect(throws: WireError(.truncated), "prefix of \(length) bytes") {
                var reader = WireReader(Array(bytes.prefix(length)), byteOrder: .little)
                _ = try PTPString.read(from: &reader)
            }
        }
    }
}
