import RawImage
import RawcapCLI
import Testing

@Suite struct ChannelHistogramTests {
    /// A 4×4 RGGB frame with black 100 and white 1100: red at 100 (black), greens at 600 (mid), blue clipped.
    static func frame() throws -> RawFrame {
        var samples = [UInt16](repeating: 0, count: 16)
        for row in 0..<4 {
            for column in 0..<4 {
                let value: UInt16 =
                    switch (row % 2, column % 2) {
                    case (0, 0): 100
                    case (1, 1): 1100
                    default: 600
                    }
                samples[row * 4 + column] = value
            }
        }
        return try RawFrame(
            width: 4, height: 4, bitsPerSample: 12, samples: samples, cfa: .rggb, blackLevels: [100, 100, 100, 100],
            whiteLevel: 1100)
    }

    @Test func countsEachColourBetweenBlackAndWhite() throws {
        let histograms = ChannelHistogram.histograms(of: try Self.frame(), binCount: 10)
        #expect(histograms.map(\.channel) == ["R", "G", "B"])
        #expect(histograms[0].bins == [4, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(histograms[1].bins == [0, 0, 0, 0, 0, 8, 0, 0, 0, 0])
        #expect(histograms[2].bins == [0, 0, 0, 0, 0, 0, 0, 0, 0, 4])
        #expect(histograms.map(\.clippedFraction) == [0, 0, 1])
        #expect(histograms.map(\.sampleCount) == [4, 8, 4])
    }

    @Test func countsOnlyTheActiveArea() throws {
        let full = try Self.frame()
        let cropped = try RawFrame(
            width: 4, height: 4, bitsPerSample: 12, samples: full.samples, cfa: .rggb, blackLevels: full.blackLevels,
            whiteLevel: 1100, activeArea: PixelRect(x: 2, y: 2, width: 2, height: 2))
        #expect(ChannelHistogram.histograms(of: cropped, binCount: 4).map(\.sampleCount) == [1, 2, 1])
    }

    @Test func drawsASparklineOfTheRequestedWidth() {
        let histogram = ChannelHistogram(
            channel: "G", bins: [0, 1, 10, 100, 1000, 100, 10, 0], clippedCount: 0, sampleCount: 1221)
        let line = histogram.sparkline(width: 8)
        #expect(line.count == 8)
        #expect(line == " ▁▃▆█▆▃ ")  // heights: ln(1 + count) / ln(1001) × 8, rounded up
        #expect(histogram.sparkline(width: 16).count == 16)
    }

    @Test func histogramsOfALinearImageUseItsTable() throws {
        let image = try LinearImage(
            width: 2, height: 1, bitsPerSample: 8, samples: [0, 1, 2, 2, 1, 0], blackLevels: [0, 0, 0],
            whiteLevels: [1000, 1000, 1000], linearizationTable: [0, 500, 1000])
        let histograms = ChannelHistogram.histograms(of: image, binCount: 2)
        #expect(histograms[0].bins == [1, 1])  // 0, and 1000 (clipped, counted in the last bin)
        #expect(histograms[1].bins == [0, 2])  // 500 twice
        #expect(histograms[0].clippedCount == 1)
    }
}
