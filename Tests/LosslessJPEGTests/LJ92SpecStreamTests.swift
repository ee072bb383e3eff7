import LosslessJPEG
import Testing

/// A stream assembled by hand from T.81 B.2 and H.1, annotated so a reviewer can check every byte.
///
/// Samples (P = 8, 3 × 2, one component, predictor 1):
///
///     row 0: 128 129 127      predictions 128 (= 2^(P−1)) 128 129 → differences  0 +1 −2
///     row 1: 130 130 131      predictions 128 (Rb) 130 130         → differences +2  0 +1
///
/// Table: category 0 → `0`, 1 → `10`, 2 → `110`. Extra bits (T.81 F.1.2.1.1): +1 → `1`, −2 → −3 in 2 bits = `01`,
/// +2 → `10`. Bits: `0 | 10 1 | 110 01 | 110 10 | 0 | 10 1` = 0101_1100 1110_1001 01 + six 1-bits of padding.
@Suite struct LJ92SpecStreamTests {
    static let samples: [UInt16] = [128, 129, 127, 130, 130, 131]

    static func table() throws -> LJ92HuffmanTable {
        try LJ92HuffmanTable(codeCounts: [1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], values: [0, 1, 2])
    }

    static let bytes: [UInt8] = [
        0xFF, 0xD8,  // SOI
        0xFF, 0xC3, 0x00, 0x0B,  // SOF3, Lf = 8 + 3 × 1
        0x08,  // P = 8
        0x00, 0x02,  // Y = 2 lines
        0x00, 0x03,  // X = 3 samples per line
        0x01,  // Nf = 1
        0x00, 0x11, 0x00,  // C1 = 0, H1/V1 = 1/1, Tq1 = 0
        0xFF, 0xC4, 0x00, 0x16,  // DHT, Lh = 2 + 1 + 16 + 3
        0x00,  // Tc = 0 (lossless/DC), Th = 0
        0x01, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,  // L1…L8: one code each of lengths 1, 2, 3
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // L9…L16
        0x00, 0x01, 0x02,  // HUFFVAL: categories 0, 1, 2
        0xFF, 0xDA, 0x00, 0x08,  // SOS, Ls = 6 + 2 × 1
        0x01,  // Ns = 1
        0x00, 0x00,  // Cs1 = 0, Td1/Ta1 = 0/0
        0x01,  // Ss = predictor 1
        0x00,  // Se = 0
        0x00,  // Ah/Al = 0/0 (no point transform)
        0x5C, 0xE9, 0x7F,  // entropy-coded data (see above)
        0xFF, 0xD9,  // EOI
    ]

    @Test func decodesToTheAnnotatedSamples() throws {
        let image = try LJ92Decoder.decode(Self.bytes)
        #expect(image.frame == LJ92FrameHeader(precision: 8, width: 3, height: 2, componentIDs: [0]))
        #expect(image.samples == Self.samples)
    }

    @Test func encoderReproducesTheStreamByteForByte() throws {
        let encoder = try LJ92Encoder(precision: 8, components: 1, predictor: .left, tables: .fixed([try Self.table()]))
        #expect(try encoder.encode(Self.samples, samplesPerRow: 3) == Self.bytes)
    }

    @Test func frameHeaderIsReadWithoutDecoding() throws {
        let frame = try LJ92Decoder.frameHeader(of: Self.bytes)
        #expect(frame.width == 3 && frame.height == 2 && frame.components == 1 && frame.precision == 8)
        #expect(frame.sampleCount == 6)
    }

    @Test func rejectsEveryTruncation() {
        for length in 0..<Self.bytes.count {
            #expect(throws: LJ92Error.self, "prefix of \(length) bytes") {
                try LJ92Decoder.decode(Array(Self.bytes.prefix(length)))
            }
        }
    }

    /// The same stream with the optional parts T.81 allows: APP0 and COM segments, a DQT, fill bytes before
    /// markers, and the table split over two DHT segments with an unused second table in the first one.
    @Test func skipsOptionalSegmentsAndFillBytes() throws {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, 0xE0, 0x00, 0x06, 0x4A, 0x46, 0x49, 0x46]  // APP0 "JFIF"
        bytes += [0xFF, 0xFF, 0xFE, 0x00, 0x05, 0x68, 0x69, 0x21]  // fill byte, COM "hi!"
        bytes += Array(Self.bytes[2..<15])  // SOF3
        bytes += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)  // DQT, ignored
        // DHT with table 1 (a 1-bit code for category 0) then a class 1 (AC) table, which lossless ignores.
        bytes += [0xFF, 0xC4, 0x00, 0x26, 0x01, 0x01] + [UInt8](repeating: 0, count: 15) + [0x00]
        bytes += [0x10, 0x01] + [UInt8](repeating: 0, count: 15) + [0x00]
        bytes += [0xFF, 0xFF, 0xFF] + Array(Self.bytes[15..<39])  // fill bytes, then the DHT with table 0
        bytes += Array(Self.bytes[39...])  // SOS, data, EOI
        #expect(try LJ92Decoder.decode(bytes).samples == Self.samples)
    }

    @Test func twoTablesInOneSegmentServeTwoComponents() throws {
        let samples: [UInt16] = [10, 200, 11, 198, 9, 201, 12, 199]
        let encoder = try LJ92Encoder(precision: 8, components: 2)
        let separate = try encoder.encode(samples, samplesPerRow: 4)
        // Merge the two single-table DHT segments into one segment.
        let first = try #require(segmentRange(of: 0xC4, in: separate))
        let second = try #require(segmentRange(of: 0xC4, in: separate, after: first.upperBound))
        var merged = Array(separate[..<first.lowerBound])
        let bodies =
            Array(separate[(first.lowerBound + 4)..<first.upperBound])
            + Array(separate[(second.lowerBound + 4)..<second.upperBound])
        merged += [0xFF, 0xC4, UInt8((bodies.count + 2) >> 8), UInt8((bodies.count + 2) & 0xFF)] + bodies
        merged += Array(separate[second.upperBound...])
        #expect(try LJ92Decoder.decode(merged).samples == samples)
    }

    /// The range of the first segment with marker `code` at or after `start` (marker through its last byte).
    func segmentRange(of code: UInt8, in bytes: [UInt8], after start: Int = 0) -> Range<Int>? {
        var index = start
        while index + 3 < bytes.count {
            if bytes[index] == 0xFF && bytes[index + 1] == code {
                let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
                return index..<(index + 2 + length)
            }
            index += 1
        }
        return nil
    }
}
