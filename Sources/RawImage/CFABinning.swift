/// The quick path from mosaic to a small full-colour image: every output pixel averages each colour over a
/// `factor × factor` block of photosites (for `factor` 2 on a Bayer sensor, the classic half-size "superpixel";
/// for X-Trans, every 3×3 window holds all three colours, so any factor from 3 works).
///
/// Averaging is done per CFA position, in integers, and black levels are subtracted per position afterwards, so
/// the result equals the mean of the black-subtracted, normalised samples exactly. Demosaicing and downscaling
/// happen in one pass over the samples, which is what makes 24-megapixel previews take milliseconds.
enum CFABinning {
    /// The smallest factor at which every block holds every colour.
    static func minimumFactor(for cfa: CFAPattern) -> Int { cfa.isBayer ? 2 : 3 }

    /// Bins `crop` (relative to the active area) by `factor` into camera RGB, 0 black to 1 white. The output is
    /// `crop.width / factor × crop.height / factor`; the few leftover photosites are split between the edges.
    static func bin(_ frame: RawFrame, crop: PixelRect, factor: Int) -> (pixels: [Float], width: Int, height: Int) {
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
                                let patternRow = frame.patternIndex(row: sourceRow, column: frame.activeArea.x)
                                    / cfa.width
                                rowCounts[patternRow] += 1
                                let line = input.base + sourceRow * frame.width + x0
                                let rowOffset = patternRow * cfa.width
                                binOfColumn.withUnsafeBufferPointer { bins in
                                    patternColumn.withUnsafeBufferPointer { columns in
                                        for column in 0..<usedWidth {
                                            let slot = Int(bins[column]) * positions + rowOffset + columns[column]
                                            sum[slot] &+= Int(line[column])
                                        }
                                    }
                                }
                            }
                        }
                        for outColumn in 0..<outWidth {
                            var signal = (0.0, 0.0, 0.0)
                            var weight = (0, 0, 0)
                            for position in 0..<positions {
                                let n = rowCounts[position / cfa.width]
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
