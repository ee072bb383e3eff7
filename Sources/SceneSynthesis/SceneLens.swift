import RawImage

/// A lens focused at one distance, photographing a scene whose distance changes across the frame: the chart is a
/// tilted plane, nearest at the left edge and farthest at the right, printed with a fine pattern so that every
/// column has detail to lose. A column is sharp where its distance is the focus distance and blurs in proportion to
/// how far it is from it (a box blur of that radius, the same in both directions), before the sensor adds its noise.
///
/// Distances and the focus position are fractions 0 (nearest) … 1 (farthest); the emulated camera maps its lens
/// steps onto them.
public struct SceneLens: Hashable, Sendable {
    /// Where the lens is focused, 0 … 1.
    public var focus: Double
    /// The blur radius, as a fraction of the image width, of a column a whole range away from the focus.
    public var blurPerRange: Double
    /// The printed pattern's contrast (its reflectance is scaled by 1 ± this) and its period in pixels.
    public var patternContrast: Float
    public var patternPeriod: Int

    public init(focus: Double, blurPerRange: Double = 1.0 / 40, patternContrast: Float = 0.25, patternPeriod: Int = 8) {
        self.focus = min(1, max(0, focus))
        self.blurPerRange = blurPerRange
        self.patternContrast = patternContrast
        self.patternPeriod = max(2, patternPeriod)
    }

    /// The distance of column `x` of an image `width` wide, 0 … 1.
    public static func distance(column x: Int, width: Int) -> Double {
        width > 1 ? Double(x) / Double(width - 1) : 0
    }

    /// The blur radius in pixels of column `x`.
    public func radius(column x: Int, width: Int) -> Int {
        let offset = abs(Self.distance(column: x, width: width) - focus)
        return Int((offset * blurPerRange * Double(width)).rounded())
    }

    /// The column the lens renders sharpest (the column at the focus distance).
    public func sharpestColumn(width: Int) -> Int {
        Int((focus * Double(max(width - 1, 0))).rounded())
    }

    /// Applies the pattern and the blur to an RGB float image (3 values per pixel, rows of `width`), in place.
    func apply(to pixels: inout [Float], width: Int, height: Int) {
        guard width > 0, height > 0 else { return }
        let period = patternPeriod
        let half = max(1, period / 2)
        let contrast = patternContrast
        // The printed pattern: a checker of `period`-pixel cells, scaling the reflectance.
        pixels.withUnsafeMutableBufferPointer { buffer in
            let base = UnsafeSendablePointer(buffer.baseAddress!)
            Parallel.forEachChunk(of: height) { rows in
                for y in rows {
                    let line = base.base + y * width * 3
                    for x in 0..<width {
                        let light = ((x / half) + (y / half)) % 2 == 0
                        let factor: Float = light ? 1 + contrast : 1 - contrast
                        line[x * 3] *= factor
                        line[x * 3 + 1] *= factor
                        line[x * 3 + 2] *= factor
                    }
                }
            }
        }
        let radii = (0..<width).map { radius(column: $0, width: width) }
        guard radii.contains(where: { $0 > 0 }) else { return }
        // Horizontal pass: a running sum per row, each output column averaging its own radius.
        var horizontal = [Float](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { source in
            horizontal.withUnsafeMutableBufferPointer { target in
                let input = UnsafeSendableReadPointer(source.baseAddress!)
                let output = UnsafeSendablePointer(target.baseAddress!)
                Parallel.forEachChunk(of: height) { rows in
                    var sums = [Double](repeating: 0, count: (width + 1) * 3)
                    for y in rows {
                        let line = input.base + y * width * 3
                        for x in 0..<width {
                            for c in 0..<3 { sums[(x + 1) * 3 + c] = sums[x * 3 + c] + Double(line[x * 3 + c]) }
                        }
                        let out = output.base + y * width * 3
                        for x in 0..<width {
                            let r = radii[x]
                            let lo = max(0, x - r)
                            let hi = min(width - 1, x + r)
                            let n = Double(hi - lo + 1)
                            for c in 0..<3 { out[x * 3 + c] = Float((sums[(hi + 1) * 3 + c] - sums[lo * 3 + c]) / n) }
                        }
                    }
                }
            }
        }
        // Vertical pass: a running sum per column, the column's radius.
        horizontal.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                let input = UnsafeSendableReadPointer(source.baseAddress!)
                let output = UnsafeSendablePointer(target.baseAddress!)
                Parallel.forEachChunk(of: width) { columns in
                    var sums = [Double](repeating: 0, count: (height + 1) * 3)
                    for x in columns {
                        let r = radii[x]
                        guard r > 0 else {
                            for y in 0..<height {
                                for c in 0..<3 { output.base[(y * width + x) * 3 + c] = input.base[(y * width + x) * 3 + c] }
                            }
                            continue
                        }
                        for y in 0..<height {
                            for c in 0..<3 {
                                sums[(y + 1) * 3 + c] = sums[y * 3 + c] + Double(input.base[(y * width + x) * 3 + c])
                            }
                        }
                        for y in 0..<height {
                            let lo = max(0, y - r)
                            let hi = min(height - 1, y + r)
                            let n = Double(hi - lo + 1)
                            for c in 0..<3 {
                                output.base[(y * width + x) * 3 + c] = Float((sums[(hi + 1) * 3 + c] - sums[lo * 3 + c]) / n)
                            }
                        }
                    }
                }
            }
        }
    }
}
