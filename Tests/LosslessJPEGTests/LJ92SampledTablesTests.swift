import LosslessJPEG
import Testing

/// `.sampledPerComponent`: the tables come from every n-th row, so the rows in between must still code whatever
/// they hold (every category the precision and predictor allow has a code) and must still be range-checked.
@Suite struct LJ92SampledTablesTests {
    /// Counted rows are flat, the others as extreme as the precision allows: every uncounted difference falls in a
    /// category the histogram never saw, for every predictor (4–7 predict outside 0…2^P − 1), precision and step.
    @Test(arguments: LJ92Predictor.allValid)
    func rowsThatWereNotCountedStillRoundTrip(predictor: LJ92Predictor) throws {
        for precision in [2, 8, 12, 14, 15, 16] {
            let top = UInt16((1 << precision) - 1)
            for rowStep in [2, 4, 7] {
                for components in [1, 2, 3] {
                    let width = 12
                    let height = 15
                    var samples = [UInt16](repeating: top / 2, count: width * components * height)
                    for row in 0..<height where row % rowStep != 0 {
                        for index in 0..<(width * components) {
                            samples[row * width * components + index] = (index / components + row) % 2 == 0 ? 0 : top
                        }
                    }
                    let encoder = try LJ92Encoder(
                        precision: precision, components: components, predictor: predictor,
                        tables: .sampledPerComponent(rowStep: rowStep))
                    let bytes = try encoder.encode(samples, width: width)
                    #expect(
                        try LJ92Decoder.decode(bytes).samples == samples,
                        "P\(precision) step \(rowStep) C\(components) \(predictor)")
                }
            }
        }
    }

    /// Random data of every precision and odd sizes, with restart intervals, decodes exactly.
    @Test(arguments: [1, 2, 3, 4, 8])
    func randomSamplesRoundTrip(rowStep: Int) throws {
        for precision in [2, 9, 14, 16] {
            for (width, height) in [(1, 1), (3, 5), (17, 9), (33, 2)] {
                for restartRows in [0, 2] {
                    let samples = TestData.random(
                        count: width * 2 * height, precision: precision, seed: UInt64(precision * 100 + width))
                    let encoder = try LJ92Encoder(
                        precision: precision, components: 2, tables: .sampledPerComponent(rowStep: rowStep),
                        restartRows: restartRows)
                    #expect(try LJ92Decoder.decode(try encoder.encode(samples, width: width)).samples == samples)
                }
            }
        }
    }

    /// A sample above the precision in a row pass 1 did not count is still refused.
    @Test func aSampleAboveThePrecisionInAnUncountedRowIsRejected() throws {
        var samples = TestData.smooth(width: 16, height: 9, components: 2, precision: 12, seed: 4)
        samples[5 * 32 + 7] = 4096
        let encoder = try LJ92Encoder(precision: 12, components: 2, tables: .sampledPerComponent(rowStep: 4))
        #expect(throws: LJ92Error(.invalidInput)) { try encoder.encode(samples, width: 16) }
    }

    /// On sensor-like data the sampled tables cost little: within 1 % of the optimal tables' size.
    @Test func sensorLikeDataCompressesAlmostAsWellAsWithOptimalTables() throws {
        let samples = TestData.smooth(width: 128, height: 128, components: 2, precision: 14, seed: 9)
        let optimal = try LJ92Encoder(precision: 14, components: 2).encode(samples, width: 128)
        let sampled = try LJ92Encoder(precision: 14, components: 2, tables: .sampledPerComponent(rowStep: 4))
            .encode(samples, width: 128)
        #expect(try LJ92Decoder.decode(sampled).samples == samples)
        #expect(Double(sampled.count) <= Double(optimal.count) * 1.01, "\(sampled.count) vs \(optimal.count)")
    }

    /// A CFA plane in the 2-component layout holds R and G in its even rows and G and B in its odd rows; where they
    /// differ (a coloured patch) the tables must have seen both. An odd step (the DNG writer's 3) counts both and
    /// stays within 1 % of the optimal tables; an even one sees only the even rows and costs far more.
    @Test func anOddStepCountsBothRowsOfACFARepeat() throws {
        let (width, height) = (128, 96)
        var samples = TestData.smooth(width: width, height: height, components: 2, precision: 14, seed: 12)
        let noise = TestData.random(count: samples.count, precision: 9, seed: 13)
        for row in stride(from: 1, to: height, by: 2) {
            for index in (row * width * 2)..<((row + 1) * width * 2) { samples[index] = 4000 + noise[index] }
        }
        let optimal = try LJ92Encoder(precision: 14, components: 2).encode(samples, width: width).count
        func sampled(_ step: Int) throws -> Int {
            let bytes = try LJ92Encoder(precision: 14, components: 2, tables: .sampledPerComponent(rowStep: step))
                .encode(samples, width: width)
            #expect(try LJ92Decoder.decode(bytes).samples == samples)
            return bytes.count
        }
        #expect(Double(try sampled(3)) <= Double(optimal) * 1.01, "step 3 against optimal \(optimal)")
        #expect(Double(try sampled(4)) > Double(optimal) * 1.05, "step 4 against optimal \(optimal)")
    }

    @Test func aRowStepBelowOneIsRejected() {
        #expect(throws: LJ92Error(.invalidInput)) {
            try LJ92Encoder(precision: 12, components: 2, tables: .sampledPerComponent(rowStep: 0))
        }
    }
}
