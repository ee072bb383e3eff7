/// The quick path from mosaic to a small full-colour image: every output pixel averages each colour over a
/// `factor × factor` block of photosites (for `factor` 2 on a Bayer sensor, the classic half-size "superpixel";
/// for X-Trans, every 3×3 window holds all three colours, so any factor from 3 works).
///
/// Averaging is done in integers, and black levels are subtracted afterwards, so the result equals the mean of
/// the black-subtracted, normalised samples exactly. Each sample is first clipped where its white-balanced value
/// reaches 1 (``ColorStage``'s highlight clip, moved before the averaging): a block that mixes clipped and
/// unclipped photosites would otherwise average a clipped green with unclipped red and blue, and turn pink. Demosaicing and downscaling
/// happen in one pass over the samples, which is what makes 24-megapixel previews take milliseconds.
enum CFABinning {
    /// The smallest factor at which every block holds every colour.
    static func minimumFactor(for cfa: CFAPattern) -> Int { cfa.isBayer ? 2 : 3 }

    /// Bins `crop` (relative to the active area) by `factor` into camera RGB, 0 black to 1 white. The output is
    /// `crop.width / factor × crop.height / factor`; the few leftover photosites are split between the edges.
    static func bin(_ frame: RawFrame, crop: PixelRect, factor: Int) -> (pixels: [Float], width: Int, height: Int) {
        // Almost every sensor has one black level per colour; then sums per colour suffice, and the inner loop
        // keeps them in registers. Per-position black levels take the general path.
        var blackOfColor: [Double?] = [nil, nil, nil]
        var uniform = true
        for (position, color) in frame.cfa.colors.enumerated() {
            let index = Int(color.rawValue)
            if let known = blackOfColor[index], known != frame.blackLevels[position] { uniform = false }
            blackOfColor[index] = frame.blackLevels[position]
        }
        // The caller built a ColorStage first, which validated the neutral; fall back to no gains if not.
        let neutral = (try? frame.color.validatedNeutral()) ?? (1, 1, 1)
        let largest = max(neutral.0, neutral.1, neutral.2)
        let gains = [largest / neutral.0, largest / neutral.1, largest / neutral.2]
        if uniform {
            return binPerColor(frame, crop: crop, factor: factor, blacks: blackOfColor.map { $0 ?? 0 }, gains: gains)
        }
        return binPerPosition(frame, crop: crop, factor: factor, gains: gains)
    }

    /// The sample value at which a photosite with `black` and white-balance `gain` reaches white-balanced 1.
    static func clipLevel(black: Double, white: Int, gain: Double) -> UInt16 {
        UInt16(min(max((black + (Double(white) - black) / max(gain, 1)).rounded(.down), 0), 65535))
    }

    /// The fast path: per output row, each source row adds its clipped samples into column sums (one row of them
    /// per pattern row, so each column has one colour), then each bin adds its columns into three colour sums;
    /// counts per colour are known from the geometry, so black levels are subtracted once per bin.
    static func binPerColor(_ frame: RawFrame, crop: PixelRect, factor: Int, blacks: [Double], gains: [Double]) -> (
        pixels: [Float], width: Int, height: Int
    ) {
        let clips = (0..<3).map { clipLevel(black: blacks[$0], white: frame.whiteLevel, gain: gains[$0]) }
        let outWidth = max(1, crop.width / factor)
        let outHeight = max(1, crop.height / factor)
        let cfa = frame.cfa
        let x0 = frame.activeArea.x + crop.x + (crop.width - outWidth * factor) / 2
        let y0 = frame.activeArea.y + crop.y + (crop.height - outHeight * factor) / 2
        let firstPatternColumn = frame.patternIndex(row: frame.activeArea.y, column: x0)
        // Photosites of each colour in one row of each bin: counts[(bin · cfa.height + patternRow) · 3 + color].
        var counts = [Int](repeating: 0, count: outWidth * cfa.height * 3)
        for bin in 0..<outWidth {
            for patternRow in 0..<cfa.height {
                for offset in 0..<factor {
                    let column = (firstPatternColumn + bin * factor + offset) % cfa.width
                    counts[
                        (bin * cfa.height + patternRow) * 3 + Int(cfa.colors[patternRow * cfa.width + column].rawValue)] +=
                        1
                }
            }
        }
        let scales = blacks.map { 1 / max(Double(frame.whiteLevel) - $0, 1) }
        // A bin row's pattern rows depend only on the pattern row it starts on, so there are at most cfa.height
        // kinds of bin row: for each, and each bin and colour, the factor that turns the raw sum into the mean
        // normalised value, `scale / n` (0 when the bin has no such photosite).
        let firstPatternRow = frame.patternIndex(row: y0, column: frame.activeArea.x) / cfa.width
        var factors = [Double](repeating: 0, count: cfa.height * outWidth * 3)
        for phase in 0..<cfa.height {
            for bin in 0..<outWidth {
                for color in 0..<3 {
                    var n = 0
                    for offset in 0..<factor {
                        n += counts[(bin * cfa.height + (phase + offset) % cfa.height) * 3 + color]
                    }
                    factors[(phase * outWidth + bin) * 3 + color] = n > 0 ? scales[color] / Double(n) : 0
                }
            }
        }
        let sumFactors = factors
        let offsets = zip(blacks, scales).map { Float($0 * $1) }
        // Vertical first: each source row of a bin row adds its clipped samples into one row of column sums per
        // pattern row (a plain, vectorisable loop: every column of such a row has one colour and one clip level), and
        // the columns are binned once per bin row. The sums are the same integers in another order.
        let usedWidth = outWidth * factor
        let columnColors = (0..<cfa.height).flatMap { patternRow in
            (0..<usedWidth).map {
                Int(cfa.colors[patternRow * cfa.width + (firstPatternColumn + $0) % cfa.width].rawValue)
            }
        }
        let columnClips = columnColors.map { clips[$0] }
        let count = outWidth * outHeight * 3
        let pixels = [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            let output = UnsafeSendablePointer(base)
            frame.samples.withUnsafeBufferPointer { samples in
                guard let sampleBase = samples.baseAddress else { return }
                let input = UnsafeSendableReadPointer(sampleBase)
                Parallel.forEachChunk(of: outHeight, minimumChunk: 4) { outRows in
                    var sums = [Int](repeating: 0, count: outWidth * 3)
                    // Column sums of the current bin row, one row of usedWidth per pattern row. UInt32 holds them:
                    // at most 65535 rows of 16-bit samples.
                    var columnSums = [UInt32](repeating: 0, count: cfa.height * usedWidth)
                    var patternRowUsed = [Bool](repeating: false, count: cfa.height)
                    for outRow in outRows {
                        for index in sums.indices { sums[index] = 0 }
                        for index in patternRowUsed.indices { patternRowUsed[index] = false }
                        columnSums.withUnsafeMutableBufferPointer { sumBuffer in
                            columnClips.withUnsafeBufferPointer { clipBuffer in
                                guard let columnSum = sumBuffer.baseAddress, let clip = clipBuffer.baseAddress else {
                                    return
                                }
                                for sourceRow in (y0 + outRow * factor)..<(y0 + (outRow + 1) * factor) {
                                    let patternRow =
                                        frame.patternIndex(row: sourceRow, column: frame.activeArea.x) / cfa.width
                                    let line = input.base + sourceRow * frame.width + x0
                                    let target = columnSum + patternRow * usedWidth
                                    let rowClip = clip + patternRow * usedWidth
                                    if patternRowUsed[patternRow] {
                                        for x in 0..<usedWidth { target[x] &+= UInt32(min(line[x], rowClip[x])) }
                                    } else {
                                        for x in 0..<usedWidth { target[x] = UInt32(min(line[x], rowClip[x])) }
                                        patternRowUsed[patternRow] = true
                                    }
                                }
                            }
                        }
                        sums.withUnsafeMutableBufferPointer { binBuffer in
                            columnSums.withUnsafeBufferPointer { sumBuffer in
                                columnColors.withUnsafeBufferPointer { colorBuffer in
                                    guard let sum = binBuffer.baseAddress, let columnSum = sumBuffer.baseAddress,
                                        let color = colorBuffer.baseAddress
                                    else { return }
                                    for patternRow in 0..<cfa.height where patternRowUsed[patternRow] {
                                        let row = columnSum + patternRow * usedWidth
                                        let rowColor = color + patternRow * usedWidth
                                        if cfa.width == 2 {
                                            // Bayer: columns alternate between two colours from the binned area's
                                            // first column on; bins of odd width start on alternating parities.
                                            for bin in 0..<outWidth {
                                                let start = bin * factor
                                                let end = start + factor
                                                var first = 0
                                                var second = 0
                                                var x = start
                                                while x + 1 < end {
                                                    first &+= Int(row[x])
                                                    second &+= Int(row[x + 1])
                                                    x += 2
                                                }
                                                if x < end { first &+= Int(row[x]) }
                                                sum[bin * 3 + rowColor[start]] &+= first
                                                if factor > 1 { sum[bin * 3 + rowColor[start + 1]] &+= second }
                                            }
                                        } else {
                                            for bin in 0..<outWidth {
                                                let start = bin * factor
                                                for x in start..<(start + factor) {
                                                    sum[bin * 3 + rowColor[x]] &+= Int(row[x])
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                        let out = output.base + outRow * outWidth * 3
                        let phase = (firstPatternRow + outRow * factor) % cfa.height
                        sumFactors.withUnsafeBufferPointer { factorBuffer in
                            guard let rowFactors = factorBuffer.baseAddress.map({ $0 + phase * outWidth * 3 }) else {
                                return
                            }
                            for index in 0..<(outWidth * 3) {
                                let f = rowFactors[index]
                                out[index] = f > 0 ? Float(Double(sums[index]) * f) - offsets[index % 3] : 0
                            }
                        }
                    }
                }
            }
            initialized = count
        }
        return (pixels, outWidth, outHeight)
    }

    /// The general path for sensors whose black level differs between CFA positions of one colour: sums per
    /// position, black levels subtracted per position.
    static func binPerPosition(_ frame: RawFrame, crop: PixelRect, factor: Int, gains: [Double]) -> (
        pixels: [Float], width: Int, height: Int
    ) {
        let clips = frame.cfa.colors.enumerated().map { position, color in
            clipLevel(black: frame.blackLevels[position], white: frame.whiteLevel, gain: gains[Int(color.rawValue)])
        }
        let outWidth = max(1, crop.width / factor)
        let outHeight = max(1, crop.height / factor)
        let cfa = frame.cfa
        let positions = cfa.width * cfa.height
        // Frame coordinates of the first binned photosite.
        let x0 = frame.activeArea.x + crop.x + (crop.width - outWidth * factor) / 2
        let y0 = frame.activeArea.y + crop.y + (crop.height - outHeight * factor) / 2
        let usedWidth = outWidth * factor

        // Per binned column: the bin it falls in and its pattern column.
        let binOfColumn = (0..<usedWidth).map { Int32($0 / factor) }
        let patternColumn = (0..<usedWidth).map { frame.patternIndex(row: frame.activeArea.y, column: x0 + $0) }
        // How many columns of each pattern column every bin holds (the same for every bin row).
        var counts = [Int](repeating: 0, count: outWidth * cfa.width)
        for column in 0..<usedWidth {
            counts[Int(binOfColumn[column]) * cfa.width + patternColumn[column]] += 1
        }
        let columnCounts = counts
        let colorOfPosition = cfa.colors.map { Int($0.rawValue) }
        let blacks = frame.blackLevels
        let scales = blacks.map { 1 / max(Double(frame.whiteLevel) - $0, 1) }

        let count = outWidth * outHeight * 3
        let pixels = [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            let output = UnsafeSendablePointer(base)
            frame.samples.withUnsafeBufferPointer { samples in
                guard let sampleBase = samples.baseAddress else { return }
                let input = UnsafeSendableReadPointer(sampleBase)
                Parallel.forEachChunk(of: outHeight, minimumChunk: 8) { outRows in
                    var sums = [Int](repeating: 0, count: outWidth * positions)
                    var rowCounts = [Int](repeating: 0, count: cfa.height)
                    for outRow in outRows {
                        for index in sums.indices { sums[index] = 0 }
                        for index in rowCounts.indices { rowCounts[index] = 0 }
                        sums.withUnsafeMutableBufferPointer { sumBuffer in
                            guard let sum = sumBuffer.baseAddress else { return }
                            for sourceRow in (y0 + outRow * factor)..<(y0 + (outRow + 1) * factor) {
                                let patternRow =
                                    frame.patternIndex(row: sourceRow, column: frame.activeArea.x)
                                    / cfa.width
                                rowCounts[patternRow] += 1
                                let line = input.base + sourceRow * frame.width + x0
                                let rowOffset = patternRow * cfa.width
                                binOfColumn.withUnsafeBufferPointer { bins in
                                    patternColumn.withUnsafeBufferPointer { columns in
                                        for column in 0..<usedWidth {
                                            let position = rowOffset + columns[column]
                                            let slot = Int(bins[column]) * positions + position
                                            sum[slot] &+= Int(min(line[column], clips[position]))
                                        }
                                    }
                                }
                            }
                        }
                        for outColumn in 0..<outWidth {
                            var signal = (0.0, 0.0, 0.0)
                            var weight = (0, 0, 0)
                            for position in 0..<positions {
                                let n =
                                    rowCounts[position / cfa.width]
                                    * columnCounts[outColumn * cfa.width + position % cfa.width]
                                guard n > 0 else { continue }
                                let value =
                                    (Double(sums[outColumn * positions + position]) - Double(n) * blacks[position])
                                    * scales[position]
                                switch colorOfPosition[position] {
                                case 0: (signal.0, weight.0) = (signal.0 + value, weight.0 + n)
                                case 1: (signal.1, weight.1) = (signal.1 + value, weight.1 + n)
                                default: (signal.2, weight.2) = (signal.2 + value, weight.2 + n)
                                }
                            }
                            let o = output.base + (outRow * outWidth + outColumn) * 3
                            o[0] = weight.0 > 0 ? Float(signal.0 / Double(weight.0)) : 0
                            o[1] = weight.1 > 0 ? Float(signal.1 / Double(weight.1)) : 0
                            o[2] = weight.2 > 0 ? Float(signal.2 / Double(weight.2)) : 0
                        }
                    }
                }
            }
            initialized = count
        }
        return (pixels, outWidth, outHeight)
    }
}
