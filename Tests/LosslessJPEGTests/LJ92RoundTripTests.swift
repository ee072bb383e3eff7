import LosslessJPEG
import Testing

@Suite struct LJ92RoundTripTests {
    static let widths = [1, 2, 3, 7, 16, 33]

    /// Every precision × component count × predictor, on random data of several odd widths and heights.
    @Test(arguments: 2...16, 1...4)
    func randomSamplesRoundTrip(precision: Int, components: Int) throws {
        for predictor in LJ92Predictor.allValid {
            for (index, width) in Self.widths.enumerated() {
                let height = [1, 2, 5][index % 3]
                let samples = TestData.random(
                    count: width * height * components, precision: precision,
                    seed: UInt64(precision * 1000 + components * 100 + Int(predictor.rawValue) * 10 + index))
                let encoder = try LJ92Encoder(precision: precision, components: components, predictor: predictor)
                let bytes = try encoder.encode(samples, width: width)
                let image = try LJ92Decoder.decode(bytes)
                #expect(
                    image.frame
                        == LJ92FrameHeader(
                            precision: precision, width: width, height: height,
                            componentIDs: (0..<components).map { UInt8($0) }))
                #expect(image.samples == samples, "P\(precision) C\(components) \(predictor) \(width)×\(height)")
            }
        }
    }

    /// Sensor-like data, the case the tables are optimised for, with every predictor.
    @Test(arguments: LJ92Predictor.allValid)
    func smoothSamplesRoundTrip(predictor: LJ92Predictor) throws {
        for components in 1...4 {
            for precision in [8, 12, 14, 16] {
                let samples = TestData.smooth(
                    width: 61, height: 19, components: components, precision: precision, seed: 7)
                let encoder = try LJ92Encoder(precision: precision, components: components, predictor: predictor)
                let bytes = try encoder.encode(samples, width: 61)
                #expect(try LJ92Decoder.decode(bytes).samples == samples)
                // Smooth data must actually compress.
                #expect(bytes.count < samples.count * 2 * precision / 16)
            }
        }
    }

    /// 16-bit extremes: differences of ±32768 are category 16, coded with no extra bits (T.81 H.1.2.2; DNG 1.7
    /// Appendix "Compatibility Issue 2").
    @Test(arguments: LJ92Predictor.allValid)
    func categorySixteenRoundTrips(predictor: LJ92Predictor) throws {
        let patterns: [[UInt16]] = [
            TestData.alternating(count: 96, 0, 65535),
            TestData.alternating(count: 96, 0, 32768),
            TestData.alternating(count: 96, 32767, 65535),
            [UInt16](repeating: 0, count: 96),
            [UInt16](repeating: 65535, count: 96),
        ]
        for components in 1...4 {
            for samples in patterns {
                let width = 24 / components
                let encoder = try LJ92Encoder(precision: 16, components: components, predictor: predictor)
                let bytes = try encoder.encode(samples, width: width)
                #expect(try LJ92Decoder.decode(bytes).samples == samples)
            }
        }
        // 0/32768 with predictor 1 is all category 16, so its table must code category 16.
        let encoder = try LJ92Encoder(precision: 16, components: 1, predictor: .left)
        let bytes = try encoder.encode(TestData.alternating(count: 64, 0, 32768), width: 64)
        #expect(try huffmanValues(in: bytes).contains(16))
    }

    @Test func everyTableChoiceRoundTrips() throws {
        let samples = TestData.smooth(width: 40, height: 9, components: 3, precision: 12, seed: 3)
        // A flat table that codes all 17 categories with 5-bit codes.
        let flat = try LJ92HuffmanTable(
            codeCounts: [0, 0, 0, 0, 17, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], values: (0...16).map { UInt8($0) })
        let choices: [LJ92Encoder.Tables] = [
            .optimalPerComponent, .optimalShared, .fixed([flat]),
            .fixed([flat, flat, flat]),
        ]
        for choice in choices {
            let encoder = try LJ92Encoder(precision: 12, components: 3, tables: choice)
            #expect(try LJ92Decoder.decode(try encoder.encode(samples, width: 40)).samples == samples)
        }
        let perComponent = try LJ92Encoder(precision: 12, components: 3).encode(samples, width: 40)
        let shared = try LJ92Encoder(precision: 12, components: 3, tables: .optimalShared).encode(samples, width: 40)
        #expect(try huffmanTableCount(in: perComponent) == 3)
        #expect(try huffmanTableCount(in: shared) == 1)
    }

    /// A table with codes of every length 1…16 (including the all-ones 16-bit code, which decoders must accept)
    /// drives the decoder's paths for codes longer than its lookup table.
    @Test func longCodesRoundTrip() throws {
        let long = try LJ92HuffmanTable(
            codeCounts: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2], values: (0...16).map { UInt8($0) })
        for precision in [12, 16] {
            let samples = TestData.random(count: 4000, precision: precision, seed: UInt64(precision))
            let encoder = try LJ92Encoder(precision: precision, components: 2, tables: .fixed([long]))
            #expect(try LJ92Decoder.decode(try encoder.encode(samples, width: 100)).samples == samples)
        }
    }

    @Test func fixedTableWithoutANeededCategoryIsRejected() throws {
        let small = try LJ92HuffmanTable(
            codeCounts: [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], values: [0, 1])
        let encoder = try LJ92Encoder(precision: 8, components: 1, tables: .fixed([small]))
        #expect(throws: LJ92Error(.invalidInput)) { try encoder.encode([0, 200, 3], width: 3) }
    }

    /// Restart intervals (DRI + RSTn) of 1…3 rows, with every predictor: the first row of each interval is
    /// predicted like the first row of the scan (T.81 H.1.2.1).
    @Test(arguments: LJ92Predictor.allValid)
    func restartIntervalsRoundTrip(predictor: LJ92Predictor) throws {
        for restartRows in 1...3 {
            for height in [1, 2, 3, 7, 12] {
                let samples = TestData.smooth(width: 10, height: height, components: 2, precision: 14, seed: 11)
                let encoder = try LJ92Encoder(
                    precision: 14, components: 2, predictor: predictor, restartRows: restartRows)
                let bytes = try encoder.encode(samples, width: 10)
                #expect(try LJ92Decoder.decode(bytes).samples == samples)
                let markers = (0..<(bytes.count - 1)).filter {
                    bytes[$0] == 0xFF && (0xD0...0xD7).contains(bytes[$0 + 1])
                }
                #expect(markers.count == (height - 1) / restartRows)
            }
        }
    }

    @Test func samplesAbovePrecisionAreRejected() throws {
        let encoder = try LJ92Encoder(precision: 12, components: 1)
        #expect(throws: LJ92Error(.invalidInput)) { try encoder.encode([0, 4096, 5], width: 3) }
    }

    @Test func invalidParametersAndGeometryAreRejected() throws {
        #expect(throws: LJ92Error(.invalidInput)) { try LJ92Encoder(precision: 1, components: 1) }
        #expect(throws: LJ92Error(.invalidInput)) { try LJ92Encoder(precision: 17, components: 1) }
        #expect(throws: LJ92Error(.invalidInput)) { try LJ92Encoder(precision: 8, components: 5) }
        #expect(throws: LJ92Error(.invalidInput)) {
            try LJ92Encoder(precision: 8, components: 1, predictor: LJ92Predictor(rawValue: 0))
        }
        let encoder = try LJ92Encoder(precision: 8, components: 2)
        #expect(throws: LJ92Error(.invalidInput)) { try encoder.encode([1, 2, 3], samplesPerRow: 3) }
        #expect(throws: LJ92Error(.invalidInput)) { try encoder.encode([1, 2, 3, 4, 5, 6], samplesPerRow: 4) }
        let samples = [UInt16](repeating: 1, count: 10)
        samples.withUnsafeBufferPointer { buffer in
            #expect(throws: LJ92Error(.invalidInput)) {
                try encoder.encode(buffer, samplesPerRow: 4, rowCount: 3, rowStride: 4)
            }
            #expect(throws: LJ92Error(.invalidInput)) {
                try encoder.encode(buffer, samplesPerRow: 4, rowCount: 2, rowStride: 3)
            }
        }
    }

    /// Encoding a window of a larger plane through the row stride, and decoding into a strided buffer.
    @Test func stridedEncodingAndDecoding() throws {
        let plane = TestData.random(count: 20 * 9, precision: 10, seed: 99)
        let encoder = try LJ92Encoder(precision: 10, components: 2)
        let bytes = try plane.withUnsafeBufferPointer { buffer in
            // Columns 4…15 of rows 1…8.
            try encoder.encode(
                UnsafeBufferPointer(rebasing: buffer[(20 + 4)...]), samplesPerRow: 12, rowCount: 8, rowStride: 20)
        }
        let window = (1...8).flatMap { row in plane[(row * 20 + 4)..<(row * 20 + 16)] }
        #expect(try LJ92Decoder.decode(bytes).samples == window)

        var destination = [UInt16](repeating: 0xABCD, count: 8 * 15)
        let frame = try destination.withUnsafeMutableBufferPointer { buffer in
            try LJ92Decoder.decode(bytes[...], into: buffer, rowStride: 15)
        }
        #expect(frame.samplesPerRow == 12)
        for row in 0..<8 {
            #expect(Array(destination[(row * 15)..<(row * 15 + 12)]) == Array(window[(row * 12)..<(row * 12 + 12)]))
            #expect(destination[(row * 15 + 12)..<(row * 15 + 15)].allSatisfy { $0 == 0xABCD })
        }
        destination.withUnsafeMutableBufferPointer { buffer in
            #expect(throws: LJ92Error(.invalidInput)) {
                try LJ92Decoder.decode(
                    bytes[...], into: UnsafeMutableBufferPointer(rebasing: buffer[..<100]), rowStride: 15)
            }
            #expect(throws: LJ92Error(.invalidInput)) {
                try LJ92Decoder.decode(bytes[...], into: buffer, rowStride: 11)
            }
        }
    }

    /// A stream in a slice of a larger array decodes the same, and errors carry offsets in the base array.
    @Test func decodesFromASlice() throws {
        let samples = TestData.smooth(width: 8, height: 8, components: 1, precision: 12, seed: 5)
        let bytes = try LJ92Encoder(precision: 12, components: 1).encode(samples, width: 8)
        let padded = [UInt8](repeating: 0x55, count: 100) + bytes + [0x55, 0x55]
        #expect(try LJ92Decoder.decode(padded[100..<(100 + bytes.count)]).samples == samples)
        let error = #expect(throws: LJ92Error(.unexpectedMarker)) { try LJ92Decoder.decode(padded[99...]) }
        #expect(error?.offset == 99)
    }

    /// The point transform (T.81 H.1.2.1, A.4): a stream coded at precision P−2 and relabelled as precision P with
    /// Pt = 2 decodes to the same samples shifted left by 2, since the first prediction 2^(P−Pt−1) is unchanged.
    @Test func pointTransformIsUndone() throws {
        let samples = TestData.smooth(width: 12, height: 6, components: 2, precision: 10, seed: 8)
        var bytes = try LJ92Encoder(precision: 10, components: 2, predictor: .average).encode(samples, width: 12)
        let sof = try #require(bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC3 })
        bytes[sof + 4] = 12  // P
        let sos = try #require(bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        let length = Int(bytes[sos + 2]) << 8 | Int(bytes[sos + 3])
        bytes[sos + 1 + length] = 0x02  // Ah/Al = 0/2
        let image = try LJ92Decoder.decode(bytes)
        #expect(image.precision == 12)
        #expect(image.samples == samples.map { $0 << 2 })
    }

    /// Two non-interleaved scans, one per component, with the Huffman table redefined between them (T.81 B.2.4:
    /// tables may change between scans).
    @Test func separateScansPerComponent() throws {
        let samples = TestData.smooth(width: 9, height: 5, components: 2, precision: 12, seed: 21)
        let first = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
        let second = stride(from: 1, to: samples.count, by: 2).map { samples[$0] }
        let encoder = try LJ92Encoder(precision: 12, components: 1, predictor: .gradient)
        let streamA = try encoder.encode(first, width: 9)
        let streamB = try encoder.encode(second, width: 9)
        let partsA = try splitSingleScan(streamA)
        let partsB = try splitSingleScan(streamB)

        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, 0xC3, 0x00, 0x0E, 12, 0x00, 5, 0x00, 9, 2, 7, 0x11, 0, 9, 0x11, 0]  // ids 7 and 9
        bytes += partsA.table
        bytes += [0xFF, 0xDA, 0x00, 0x08, 1, 7, 0x00, 4, 0, 0] + partsA.data
        bytes += partsB.table
        bytes += [0xFF, 0xDA, 0x00, 0x08, 1, 9, 0x00, 4, 0, 0] + partsB.data
        bytes += [0xFF, 0xD9]
        let image = try LJ92Decoder.decode(bytes)
        #expect(image.frame.componentIDs == [7, 9])
        #expect(image.samples == samples)

        // The same scans with the second one missing: EOI arrives before component 9 is coded.
        var missing = Array(bytes.prefix(bytes.count - 2 - partsB.table.count - 10 - partsB.data.count))
        missing += [0xFF, 0xD9]
        #expect(throws: LJ92Error(.truncated)) { try LJ92Decoder.decode(missing) }
    }
}

/// The values of every DHT table in a stream.
func huffmanValues(in bytes: [UInt8]) throws -> [UInt8] {
    var values: [UInt8] = []
    var index = 2
    while index + 4 <= bytes.count, bytes[index] == 0xFF, bytes[index + 1] != 0xDA {
        let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
        if bytes[index + 1] == 0xC4 {
            var cursor = index + 4
            while cursor < index + 2 + length {
                let count = bytes[(cursor + 1)..<(cursor + 17)].reduce(0) { $0 + Int($1) }
                values += bytes[(cursor + 17)..<(cursor + 17 + count)]
                cursor += 17 + count
            }
        }
        index += 2 + length
    }
    return values
}

/// How many Huffman tables a stream's DHT segments define.
func huffmanTableCount(in bytes: [UInt8]) throws -> Int {
    var count = 0
    var index = 2
    while index + 4 <= bytes.count, bytes[index] == 0xFF, bytes[index + 1] != 0xDA {
        let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
        if bytes[index + 1] == 0xC4 { count += 1 }
        index += 2 + length
    }
    return count
}

/// The DHT segment and the entropy-coded data of a one-scan stream from `LJ92Encoder` (no restarts).
func splitSingleScan(_ bytes: [UInt8]) throws -> (table: [UInt8], data: [UInt8]) {
    var table: [UInt8] = []
    var index = 2
    while index + 4 <= bytes.count, bytes[index] == 0xFF {
        let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
        if bytes[index + 1] == 0xC4 { table = Array(bytes[index..<(index + 2 + length)]) }
        if bytes[index + 1] == 0xDA {
            return (table, Array(bytes[(index + 2 + length)..<(bytes.count - 2)]))
        }
        index += 2 + length
    }
    throw LJ92Error(.invalidValue, "no SOS")
}
