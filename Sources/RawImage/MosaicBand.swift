/// A band of rows of a raw frame, ready for demosaicing: black-subtracted and scaled so that 0 is black and 1
/// the white level (per CFA position), then white-balanced, with a border of mirrored pixels all round so that interpolation
/// windows never leave the buffer, and the filter colour of every entry.
///
/// The band covers `rows` of `region` (both relative to the frame's active area) plus ``padding`` rows and
/// columns on each side. Pixels outside the active area are never used: positions beyond its edge are
/// mirrored back inside it (masked pixels hold no image). Mirroring keeps a 2×2 Bayer pattern's colours in
/// place but not X-Trans's, which is why the colour of every entry is kept: border code looks colours up
/// instead of assuming the pattern.
struct MosaicBand {
    /// Entries added on each side.
    let padding: Int
    /// Entries per buffer row: `region.width + 2 · padding`.
    let stride: Int
    /// Buffer rows: `rows.count + 2 · padding`.
    let bufferRows: Int
    /// Normalised samples, `bufferRows × stride`.
    let values: UnsafeMutablePointer<Float>
    /// Filter colour of each entry (0 red, 1 green, 2 blue).
    let colors: UnsafeMutablePointer<UInt8>
    /// The region rows the band holds (without padding).
    let rows: Range<Int>
    /// The interpolated region, relative to the active area.
    let region: PixelRect
    /// The region-relative columns whose `interiorMargin` neighbourhood lies inside the active area without
    /// mirroring, and the same for rows: only there do fast paths that assume the pattern apply.
    let interiorColumns: Range<Int>
    let interiorRows: Range<Int>

    /// - Parameter gains: multipliers per colour (red, green, blue) applied after normalising: the white balance,
    ///   so that interpolation sees a neutral edge as equal in all three channels.
    init(
        frame: RawFrame, region: PixelRect, rows: Range<Int>, padding: Int, interiorMargin: Int,
        gains: (Float, Float, Float)
    ) {
        self.padding = padding
        self.region = region
        self.rows = rows
        let stride = region.width + 2 * padding
        let bufferRows = rows.count + 2 * padding
        let count = stride * bufferRows
        let values = UnsafeMutablePointer<Float>.allocate(capacity: count)
        let colors = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
        (self.stride, self.bufferRows, self.values, self.colors) = (stride, bufferRows, values, colors)

        let active = frame.activeArea
        func reflect(_ index: Int, _ size: Int) -> Int {
            guard size > 1 else { return 0 }
            let period = 2 * (size - 1)
            var i = index % period
            if i < 0 { i += period }
            return i < size ? i : period - i
        }
        // Source column (active-relative) of every buffer column.
        let sourceColumns = (0..<stride).map { reflect(region.x + $0 - padding, active.width) }
        let patternColumns = sourceColumns.map { $0 % frame.cfa.width }
        let positions = frame.cfa.width * frame.cfa.height
        let blacks = (0..<positions).map { Float(frame.blackLevels[$0]) }
        let patternColors = frame.cfa.colors.map(\.rawValue)
        let scales = (0..<positions).map { position in
            let gain = [gains.0, gains.1, gains.2][min(Int(patternColors[position]), 2)]
            return gain / max(Float(frame.whiteLevel) - blacks[position], 1)
        }
        frame.samples.withUnsafeBufferPointer { samples in
            guard let base = samples.baseAddress else { return }
            for bufferRow in 0..<bufferRows {
                let sourceRow = reflect(region.y + rows.lowerBound + bufferRow - padding, active.height)
                let line = base + (active.y + sourceRow) * frame.width + active.x
                let patternRow = (sourceRow % frame.cfa.height) * frame.cfa.width
                let out = values + bufferRow * stride
                let colorOut = colors + bufferRow * stride
                for column in 0..<stride {
                    let source = sourceColumns[column]
                    let position = patternRow + patternColumns[column]
                    out[column] = (Float(line[source]) - blacks[position]) * scales[position]
                    colorOut[column] = patternColors[position]
                }
            }
        }
        let firstColumn = max(0, interiorMargin - region.x)
        let lastColumn = min(region.width, active.width - interiorMargin - region.x)
        interiorColumns = firstColumn < lastColumn ? firstColumn..<lastColumn : 0..<0
        let firstRow = max(0, interiorMargin - region.y)
        let lastRow = min(region.height, active.height - interiorMargin - region.y)
        interiorRows = firstRow < lastRow ? firstRow..<lastRow : 0..<0
    }

    func deallocate() {
        values.deallocate()
        colors.deallocate()
    }

    /// Buffer index of region-relative (`row`, `column`).
    @inline(__always)
    func index(row: Int, column: Int) -> Int {
        (row - rows.lowerBound + padding) * stride + column + padding
    }

    /// The mean of the entries of colour `color` within `radius` of buffer index `center`, or `nil` if none.
    @inline(__always)
    func mean(of color: UInt8, around center: Int, radius: Int) -> Float? {
        var sum: Float = 0
        var count = 0
        for dy in -radius...radius {
            let rowBase = center + dy * stride
            for dx in -radius...radius where colors[rowBase + dx] == color {
                sum += values[rowBase + dx]
                count += 1
            }
        }
        return count > 0 ? sum / Float(count) : nil
    }

    /// Any-pattern interpolation for pixels near the active area's edge: each missing colour is the mean of that
    /// colour in the 3×3 neighbourhood, or the 5×5 one when the 3×3 has none (needs `padding ≥ 2`).
    @inline(__always)
    func borderPixel(row: Int, column: Int, into out: UnsafeMutablePointer<Float>) {
        let center = index(row: row, column: column)
        let own = colors[center]
        for channel in 0..<3 {
            let color = UInt8(channel)
            if color == own {
                out[channel] = values[center]
            } else {
                out[channel] =
                    mean(of: color, around: center, radius: 1) ?? mean(of: color, around: center, radius: 2) ?? 0
            }
        }
    }
}
