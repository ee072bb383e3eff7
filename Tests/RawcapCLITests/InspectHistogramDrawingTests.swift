import Testing

@testable import RawcapCLI

/// How `rawcap inspect` draws a histogram in the terminal.
@Suite struct InspectHistogramDrawingTests {
    /// 64 bins in 48 columns: some columns merge two bins and others one, and a flat histogram must still draw
    /// flat (sums drew a comb, `█▇▇█▇▇…`).
    @Test func aFlatHistogramDrawsFlatWhenBinsDoNotDivideTheWidth() {
        let flat = ChannelHistogram(
            channel: "G", bins: [Int](repeating: 1000, count: 64), clippedCount: 0, sampleCount: 64_000)
        #expect(flat.sparkline(width: 48) == String(repeating: "█", count: 48))
        let ramp = ChannelHistogram(
            channel: "G", bins: (0..<64).map { 1 << ($0 / 4) }, clippedCount: 0, sampleCount: 0)
        let levels = Array(" ▁▂▃▄▅▆▇█")
        let heights = ramp.sparkline(width: 48).map { levels.firstIndex(of: $0) ?? -1 }
        #expect(zip(heights, heights.dropFirst()).allSatisfy { $0 <= $1 }, "\(heights)")
    }

    @Test func oneBinPerColumnDrawsEachBin() {
        let histogram = ChannelHistogram(channel: "R", bins: [5, 0, 0, 5], clippedCount: 5, sampleCount: 10)
        #expect(histogram.sparkline(width: 4) == "█  █")
    }
}
