import LosslessJPEG
import Testing

/// Damaged, truncated and hostile streams throw a typed error and never trap ("exceptions are good, crashes are
/// bad"). Every case here must come back from the decoder.
@Suite struct LJ92HostileInputTests {
    /// A valid stream with two components, restarts and long-ish data, to cut and damage.
    static func validStream() throws -> [UInt8] {
        let samples = TestData.smooth(width: 24, height: 10, components: 2, precision: 14, seed: 12)
        return try LJ92Encoder(precision: 14, components: 2, restartRows: 4).encode(samples, width: 24)
    }

    /// SOI, SOF3 for `width × height × components` at `precision`, a one-code table, SOS, `data`, EOI.
    static func stream(
        precision: UInt8 = 8, width: UInt16 = 4, height: UInt16 = 2, components: UInt8 = 1, sof: UInt8 = 0xC3,
        sampling: UInt8 = 0x11, predictor: UInt8 = 1, pointTransform: UInt8 = 0, tableID: UInt8 = 0,
        dht: [UInt8]? = nil, extra: [UInt8] = [], data: [UInt8] = [0x00, 0x00]
    ) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, sof, 0x00, 8 + 3 * components, precision, UInt8(height >> 8), UInt8(height & 0xFF)]
        bytes += [UInt8(width >> 8), UInt8(width & 0xFF), components]
        for id in 0..<components { bytes += [id, sampling, 0] }
        // One 1-bit code: "0" → category 0 (every difference zero).
        bytes += dht ?? ([0xFF, 0xC4, 0x00, 0x14, 0x00, 0x01] + [UInt8](repeating: 0, count: 15) + [0x00])
        bytes += extra
        bytes += [0xFF, 0xDA, 0x00, 6 + 2 * components, components]
        for id in 0..<components { bytes += [id, tableID << 4] }
        bytes += [predictor, 0, pointTransform]
        bytes += data
        bytes += [0xFF, 0xD9]
        return bytes
    }

    @Test func theMinimalStreamIsValid() throws {
        let image = try LJ92Decoder.decode(Self.stream())
        #expect(image.samples == [128, 128, 128, 128, 128, 128, 128, 128])
    }

    @Test func everyTruncationThrows() throws {
        let bytes = try Self.validStream()
        for length in 0..<bytes.count {
            #expect(throws: LJ92Error.self, "prefix of \(length) of \(bytes.count) bytes") {
                try LJ92Decoder.decode(Array(bytes.prefix(length)))
            }
        }
    }

    /// Random bit flips: the decoder may throw or decode garbage, but must return.
    @Test func randomBitFlipsNeverCrash() throws {
        let bytes = try Self.validStream()
        var generator = SplitMix64(seed: 0xF11B)
        var outcomes = (decoded: 0, threw: 0)
        for _ in 0..<3000 {
            var damaged = bytes
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                let bit = Int(generator.next() % UInt64(damaged.count * 8))
                damaged[bit / 8] ^= 1 << UInt8(bit % 8)
            }
            do {
                let image = try LJ92Decoder.decode(damaged)
                #expect(image.samples.count == image.frame.sampleCount)
                outcomes.decoded += 1
            } catch {
                outcomes.threw += 1
            }
        }
        #expect(outcomes.decoded + outcomes.threw == 3000)
    }

    @Test(arguments: [0xC0, 0xC1, 0xC2, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF] as [UInt8])
    func otherProcessesAreUnsupported(sof: UInt8) {
        #expect(throws: LJ92Error(.unsupportedProcess)) { try LJ92Decoder.decode(Self.stream(sof: sof)) }
    }

    @Test func unsupportedFeaturesAreNamed() {
        let cases: [(String, [UInt8])] = [
            ("2×1 sampling", Self.stream(sampling: 0x21)),
            ("5 components", Self.stream(components: 5)),
            ("height from DNL", Self.stream(height: 0)),
            ("predictor 0", Self.stream(predictor: 0)),
            ("restart interval inside a row", Self.stream(extra: [0xFF, 0xDD, 0x00, 0x04, 0x00, 0x03])),
            ("arithmetic conditioning", Self.stream(extra: [0xFF, 0xCC, 0x00, 0x04, 0x00, 0x00])),
            ("hierarchical progression", Self.stream(extra: [0xFF, 0xDE, 0x00, 0x02])),
        ]
        for (name, bytes) in cases {
            #expect(throws: LJ92Error(.unsupportedProcess), "\(name)") { try LJ92Decoder.decode(bytes) }
        }
    }

    @Test func invalidHeaderValuesAreRejected() {
        let cases: [(String, [UInt8])] = [
            ("precision 1", Self.stream(precision: 1)),
            ("precision 17", Self.stream(precision: 17)),
            ("width 0", Self.stream(width: 0)),
            ("predictor 8", Self.stream(predictor: 8)),
            ("point transform ≥ precision", Self.stream(pointTransform: 8)),
            ("DHT class 2", Self.stream(dht: [0xFF, 0xC4, 0x00, 0x14, 0x20, 0x01] + [UInt8](repeating: 0, count: 16))),
            ("DRI of 3 bytes", Self.stream(extra: [0xFF, 0xDD, 0x00, 0x05, 0x00, 0x04, 0x00])),
            ("segment length 1", Self.stream(extra: [0xFF, 0xFE, 0x00, 0x01])),
        ]
        for (name, bytes) in cases {
            #expect(throws: LJ92Error(.invalidValue), "\(name)") { try LJ92Decoder.decode(bytes) }
        }
    }

    @Test func invalidTablesAreRejected() {
        // Three 1-bit codes over-fill the code space; a value of 17 is no category.
        let overfull = [0xFF, 0xC4, 0x00, 0x16, 0x00, 0x03] + [UInt8](repeating: 0, count: 15) + [0, 1, 2]
        let badValue = [0xFF, 0xC4, 0x00, 0x14, 0x00, 0x01] + [UInt8](repeating: 0, count: 15) + [17]
        #expect(throws: LJ92Error(.invalidTable)) { try LJ92Decoder.decode(Self.stream(dht: overfull)) }
        #expect(throws: LJ92Error(.invalidTable)) { try LJ92Decoder.decode(Self.stream(dht: badValue)) }
    }

    /// Tables are built when a scan uses them, so a stream of many DHT segments costs time in proportion to its
    /// length; the definition in force at SOS is the last one.
    @Test func manyTableRedefinitionsAreCheapAndTheLastOneWins() throws {
        // A table that codes only category 1 makes every difference ±1, so the samples would change.
        let wrong: [UInt8] = [0xFF, 0xC4, 0x00, 0x14, 0x00, 0x01] + [UInt8](repeating: 0, count: 15) + [0x01]
        let right: [UInt8] = [0xFF, 0xC4, 0x00, 0x14, 0x00, 0x01] + [UInt8](repeating: 0, count: 15) + [0x00]
        var redefinitions: [UInt8] = []
        for _ in 0..<5000 { redefinitions += wrong }
        let bytes = Self.stream(dht: redefinitions + right)
        #expect(try LJ92Decoder.decode(bytes).samples == [UInt16](repeating: 128, count: 8))
    }

    @Test func missingTablesAreNamed() {
        #expect(throws: LJ92Error(.missingTable)) { try LJ92Decoder.decode(Self.stream(dht: [])) }
        #expect(throws: LJ92Error(.missingTable)) { try LJ92Decoder.decode(Self.stream(tableID: 1)) }
    }

    @Test func bitsThatMatchNoCodeAreInvalid() {
        // The only code is "0"; a 1-bit where a code starts matches nothing.
        #expect(throws: LJ92Error(.invalidCode)) { try LJ92Decoder.decode(Self.stream(data: [0x7F])) }
    }

    @Test func unexpectedMarkersAreRejected() {
        let cases: [(String, [UInt8])] = [
            ("no SOI", Array(Self.stream().dropFirst(2))),
            ("SOS before SOF", [0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02]),
            ("reserved marker 0x02", Self.stream(extra: [0xFF, 0x02])),
            ("JPG extension 0xF5", Self.stream(extra: [0xFF, 0xF5, 0x00, 0x02])),
            ("RST outside a scan", Self.stream(extra: [0xFF, 0xD3])),
            ("a second SOF", Self.stream(extra: [0xFF, 0xC3, 0x00, 0x0B, 8, 0, 2, 0, 4, 1, 0, 0x11, 0])),
            ("a byte where a marker belongs", Self.stream(extra: [0x12])),
        ]
        for (name, bytes) in cases {
            #expect(throws: LJ92Error(.unexpectedMarker), "\(name)") { try LJ92Decoder.decode(bytes) }
        }
    }

    @Test func wrongRestartNumberIsRejected() throws {
        var bytes = try Self.validStream()
        let restart = try #require(bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xD0 })
        bytes[restart + 1] = 0xD5
        #expect(throws: LJ92Error(.unexpectedMarker)) { try LJ92Decoder.decode(bytes) }
    }

    /// Frames above the limits are refused, and large frames with too little data are refused before the sample
    /// buffer is allocated (a 32767 × 32767 × 4 frame would need 8 GiB).
    @Test func oversizedFramesFailBeforeAllocating() {
        #expect(throws: LJ92Error(.limitExceeded)) { try LJ92Decoder.decode(Self.stream(width: 40000, height: 2)) }
        #expect(throws: LJ92Error(.limitExceeded)) { try LJ92Decoder.decode(Self.stream(width: 30000, height: 30000)) }
        #expect(throws: LJ92Error(.truncated)) {
            try LJ92Decoder.decode(Self.stream(width: 32767, height: 12000, components: 4))
        }
    }

    @Test func dataEndingInsideTheScanIsTruncation() {
        // 64 × 64 samples of 1-bit codes need 512 bytes of data; 500 pass the size check (which counts the whole
        // rest of the stream) but end inside the scan.
        #expect(throws: LJ92Error(.truncated)) {
            try LJ92Decoder.decode(Self.stream(width: 64, height: 64, data: [UInt8](repeating: 0, count: 500)))
        }
        // Enough data, but no EOI after it.
        let bytes = Self.stream()
        #expect(throws: LJ92Error(.truncated)) { try LJ92Decoder.decode(Array(bytes.dropLast(2)) + [0x00]) }
    }
}
