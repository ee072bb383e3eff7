import FoundationEssentials
import RawImage

#if canImport(Glibc)
    import Glibc
#endif

/// The distribution of one colour channel's samples between black and white, and how many are clipped: what
/// `rawcap inspect` draws in the terminal to judge an exposure.
///
/// Samples are counted in linear units relative to their own black level, `(sample − black) / (white − black)`, in
/// ``binCount`` equal bins from 0 to 1; a sample at or above the white level counts as clipped (and goes in the
/// last bin), one below black in the first bin. Only the active area is counted, so masked borders do not pile up
/// at zero.
public struct ChannelHistogram: Sendable, Hashable, Codable {
    /// The channel: `R`, `G` or `B` (both greens of a Bayer pattern together).
    public let channel: String
    /// Sample counts per bin, darkest first.
    public let bins: [Int]
    /// Samples at or above the white level.
    public let clippedCount: Int
    /// Samples counted.
    public let sampleCount: Int

    /// Creates a histogram from counts.
    public init(channel: String, bins: [Int], clippedCount: Int, sampleCount: Int) {
        self.channel = channel
        self.bins = bins
        self.clippedCount = clippedCount
        self.sampleCount = sampleCount
    }

    /// Bins used by ``histograms(of:binCount:)-(RawFrame,_)``.
    public static let defaultBinCount = 64

    /// The fraction of samples that are clipped, 0…1.
    public var clippedFraction: Double { sampleCount == 0 ? 0 : Double(clippedCount) / Double(sampleCount) }

    /// One histogram per colour of the frame's CFA (red, green, blue), over its active area.
    ///
    /// The samples are taken as they are: linearize first (``RawDecoders/DecodedRaw/applyingLinearization()``) when
    /// the frame came with a LinearizationTable.
    public static func histograms(of frame: RawFrame, binCount: Int = defaultBinCount) -> [ChannelHistogram] {
        let colors: [CFAColor] = [.red, .green, .blue]
        let bins = max(1, binCount)
        // counts[channel][bin]; bin == bins counts clipped samples, folded into the last bin at the end.
        var counts = [[Int]](repeating: [Int](repeating: 0, count: bins + 1), count: colors.count)
        // One lookup table per CFA position maps every possible sample value to its bin, so the loop over 24
        // million samples is a load and an increment (24 MP, release: 0.08 s, against 0.48 s with per-sample
        // arithmetic).
        // Every UInt16 value has an entry, not just those of the frame's depth: the loop indexes the table without
        // a bounds check, and a decoder may hand over a sample above its stated depth.
        let valueCount = 1 << 16
        let tables: [[UInt16]] = frame.blackLevels.map { black in
            let white = Double(frame.whiteLevel)
            let scale = white > black ? Double(bins) / (white - black) : 0
            return (0..<valueCount).map { value in
                let sample = Double(value)
                if sample >= white { return UInt16(bins) }
                return UInt16(min(bins - 1, Int(max(0, (sample - black) * scale))))
            }
        }
        let area = frame.activeArea
        frame.samples.withUnsafeBufferPointer { samples in
            guard let base = samples.baseAddress else { return }
            for patternRow in 0..<min(frame.cfa.height, area.height) {
                for patternColumn in 0..<min(frame.cfa.width, area.width) {
                    let position = patternRow * frame.cfa.width + patternColumn
                    guard let channel = colors.firstIndex(of: frame.cfa.colors[position]) else { continue }
                    var local = [Int](repeating: 0, count: bins + 1)
                    tables[position].withUnsafeBufferPointer { table in
                        local.withUnsafeMutableBufferPointer { local in
                            for row in stride(from: area.y + patternRow, to: area.bottom, by: frame.cfa.height) {
                                let line = base + row * frame.width
                                for column in stride(
                                    from: area.x + patternColumn, to: area.right, by: frame.cfa.width)
                                {
                                    local[Int(table[Int(line[column])])] += 1
                                }
                            }
                        }
                    }
                    for index in 0...bins { counts[channel][index] += local[index] }
                }
            }
        }
        return zip(colors, counts).map { color, counts in
            var binsWithClipped = Array(counts[0..<bins])
            binsWithClipped[bins - 1] += counts[bins]
            return ChannelHistogram(
                channel: color.description, bins: binsWithClipped, clippedCount: counts[bins],
                sampleCount: counts.reduce(0, +))
        }
    }

    /// One histogram per channel of a linear image (R, G, B), each against its own levels.
    public static func histograms(of image: LinearImage, binCount: Int = defaultBinCount) -> [ChannelHistogram] {
        var counters = (0..<3).map { _ in Counter(binCount: binCount) }
        let table = image.linearizationTable
        image.samples.withUnsafeBufferPointer { samples in
            for index in 0..<samples.count {
                let channel = index % 3
                let stored = Int(samples[index])
                let value =
                    table.map { stored < $0.count ? Double($0[stored]) : Double($0.last ?? 0) } ?? Double(stored)
                let black = image.blackLevels[channel]
                let white = Double(image.whiteLevels[channel])
                counters[channel].add(value, black: black, white: white, scale: Double(binCount) / (white - black))
            }
        }
        return zip(["R", "G", "B"], counters).map { $1.histogram(channel: $0) }
    }

    /// A one-line drawing of the bins with Unicode block elements, `width` characters wide (bins are merged or
    /// repeated to fit), each column's height proportional to the logarithm of its count so that both shadows and
    /// highlights show.
    public func sparkline(width: Int = 48) -> String {
        let levels: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        guard width > 0, !bins.isEmpty else { return "" }
        var columns = [Double](repeating: 0, count: width)
        if bins.count < width {
            // Fewer bins than columns: spread each bin over its columns instead of leaving gaps.
            columns = (0..<width).map { Double(bins[$0 * bins.count / width]) }
        } else {
            // Each column shows the mean of the bins merged into it: with 64 bins in 48 columns some columns take
            // two bins and others one, and sums would draw that as a comb.
            var members = [Int](repeating: 0, count: width)
            for (index, count) in bins.enumerated() {
                let column = min(width - 1, index * width / bins.count)
                columns[column] += Double(count)
                members[column] += 1
            }
            for column in 0..<width where members[column] > 1 { columns[column] /= Double(members[column]) }
        }
        let largest = log1p(columns.max() ?? 0)
        return String(
            columns.map { count in
                guard count > 0, largest > 0 else { return levels[0] }
                let height = Int((log1p(count) / largest * 8).rounded(.up))
                return levels[min(8, max(1, height))]
            })
    }

    private struct Counter {
        var bins: [Int]
        var clipped = 0
        var total = 0

        init(binCount: Int) { bins = [Int](repeating: 0, count: max(1, binCount)) }

        mutating func add(_ value: Double, black: Double, white: Double, scale: Double) {
            total += 1
            if value >= white {
                clipped += 1
                bins[bins.count - 1] += 1
                return
            }
            let bin = Int(max(0, (value - black) * scale))
            bins[min(bins.count - 1, bin)] += 1
        }

        func histogram(channel: String) -> ChannelHistogram {
            ChannelHistogram(channel: channel, bins: bins, clippedCount: clipped, sampleCount: total)
        }
    }
}
