import Testing
import WireFormat

/// One table of (bit fields → bytes) cases, checked in both directions: `BitWriter` must produce the bytes, and
/// `BitReader` must read the fields back from them, then find only 1-bit padding (T.81 B.1.1.5, F.1.2.3).
struct BitCase: Sendable, CustomTestStringConvertible {
    let name: String
    let fields: [(value: UInt32, count: Int)]
    let bytes: [UInt8]
    var testDescription: String { name }

    static let all: [BitCase] = [
        BitCase(name: "nothing", fields: [], bytes: []),
        BitCase(name: "one 0-bit, padded with seven 1-bits", fields: [(0, 1)], bytes: [0x7F]),
        BitCase(name: "one 1-bit pads to 0xFF, which is stuffed", fields: [(1, 1)], bytes: [0xFF, 0x00]),
        BitCase(name: "a whole byte", fields: [(0xAB, 8)], bytes: [0xAB]),
        BitCase(name: "0xFF is stuffed", fields: [(0xFF, 8)], bytes: [0xFF, 0x00]),
        BitCase(name: "two 0xFF bytes", fields: [(0xFFFF, 16)], bytes: [0xFF, 0x00, 0xFF, 0x00]),
        BitCase(name: "fields across a byte, then padding", fields: [(0b11, 2), (0b000, 3)], bytes: [0xC7]),
        BitCase(name: "32 bits at once", fields: [(0x1234_5678, 32)], bytes: [0x12, 0x34, 0x56, 0x78]),
        BitCase(
            name: "0xFF assembled from two fields", fields: [(0x7F, 7), (1, 1), (0, 8)], bytes: [0xFF, 0x00, 0x00]),
        BitCase(
            name: "nine 1-bits: data 0xFF and padding 0xFF", fields: [(0x1FF, 9)], bytes: [0xFF, 0x00, 0xFF, 0x00]),
        BitCase(name: "zeros then a 1-bit", fields: [(0, 16), (1, 1)], bytes: [0x00, 0x00, 0xFF, 0x00]),
        BitCase(
            name: "32 1-bits after 3 bits", fields: [(0b101, 3), (0xFFFF_FFFF, 32)],
            bytes: [0xBF, 0xFF, 0x00, 0xFF, 0x00, 0xFF, 0x00, 0xFF, 0x00]),
        BitCase(name: "zero-width fields write nothing", fields: [(0, 0), (0x5, 4), (0, 0), (0xA, 4)], bytes: [0x5A]),
        BitCase(
            name: "a DC-style code then extra bits", fields: [(0b110, 3), (0b1_0110, 5), (0b01, 2), (0b1, 1)],
            bytes: [0xD6, 0x7F]),
        BitCase(name: "bits above count are ignored", fields: [(0xFFFF_FF00, 4), (0xF0, 4)], bytes: [0x00]),
    ]
}

@Suite struct BitCodingTests {
    @Test(arguments: BitCase.all) func writerProducesTheBytes(_ testCase: BitCase) {
        var writer = BitWriter()
        for field in testCase.fields { writer.write(field.value, count: field.count) }
        writer.padToByteBoundary()
        #expect(writer.bytes == testCase.bytes)
        #expect(writer.isByteAligned)
    }

    @Test(arguments: BitCase.all) func readerRecoversTheFields(_ testCase: BitCase) throws {
        var reader = BitReader(testCase.bytes)
        for field in testCase.fields {
            let mask: UInt64 = (1 << UInt64(field.count)) - 1
            #expect(try reader.read(count: field.count) == UInt32(UInt64(field.value) & mask))
        }
        let padding = reader.paddingBits
        #expect(padding.value == (1 << UInt32(padding.count)) - 1, "padding must be 1-bits")
        reader.alignToByte()
        #expect(reader.offset == testCase.bytes.count)
        #expect(throws: WireError(.truncated)) { try reader.read(count: 1) }
    }

    @Test func readerStopsAtAMarkerAndNamesIt() throws {
        var reader = BitReader([0xAB, 0xFF, 0x00, 0xFF, 0xD9])
        #expect(try reader.read(count: 16) == 0xABFF)
        let error = #expect(throws: WireError(.truncated)) { try reader.read(count: 1) }
        #expect(error?.offset == 3)
        #expect(reader.marker == 0xD9)
    }

    @Test func fillBytesBeforeAMarkerAreNotData() throws {
        var reader = BitReader([0x12, 0xFF, 0xFF, 0xFF, 0xD0])
        #expect(try reader.read(count: 8) == 0x12)
        #expect(throws: WireError(.truncated)) { try reader.read(count: 8) }
        #expect(reader.marker == 0xFF)
    }

    @Test func loneTrailingFFIsTruncation() {
        var reader = BitReader([0xFF])
        #expect(throws: WireError(.truncated)) { try reader.read(count: 4) }
        #expect(reader.marker == nil)
    }

    @Test func keepsAbsoluteOffsetsInASlice() throws {
        let bytes: [UInt8] = [0xEE, 0xEE, 0x80, 0xFF, 0xD9]
        var reader = BitReader(bytes[2...])
        #expect(reader.offset == 2)
        #expect(try reader.read(count: 1) == 1)
        reader.alignToByte()
        #expect(reader.offset == 3)
    }

    @Test func rejectsABitCountOver32() {
        var reader = BitReader([0x00, 0x00, 0x00, 0x00, 0x00])
        #expect(throws: WireError(.invalidValue)) { try reader.read(count: 33) }
    }

    /// Random field sequences: whatever the writer produces, the reader returns.
    @Test func randomFieldsRoundTrip() throws {
        var generator = SplitMix64(seed: 0x5EED)
        for _ in 0..<200 {
            var writer = BitWriter()
            var fields: [(UInt32, Int)] = []
            for _ in 0..<Int(generator.next() % 64) {
                let count = Int(generator.next() % 33)
                // Bias towards 1-bits so that 0xFF bytes and stuffing are common.
                let value = UInt32(truncatingIfNeeded: generator.next() | generator.next())
                fields.append((value, count))
                writer.write(value, count: count)
            }
            writer.padToByteBoundary()
            var reader = BitReader(writer.bytes)
            for (value, count) in fields {
                let expected = count == 32 ? value : value & ((1 << UInt32(count)) - 1)
                #expect(try reader.read(count: count) == expected)
            }
            reader.alignToByte()
            #expect(reader.offset == writer.bytes.count)
        }
    }
}

/// A small deterministic generator (Steele, Lea & Flood's SplitMix64), so failures reproduce.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
