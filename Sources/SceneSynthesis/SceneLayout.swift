import RawImage

#if canImport(Glibc)
    import Glibc
#endif

/// Where each element of the synthetic test chart sits in the active area, in whole pixels, and how to
/// evaluate one row of it. Positions are fractions of the active area, so the chart looks the same at any size:
///
/// ```
/// +----------------------------------------+---------------+
/// |  ColorChecker, 6 × 4 patches            |  Siemens star |
/// |  on a black frame                       |  (36 cycles)  |
/// +----------------------------------------+               |
/// |  grey step wedge, 16 half-stop steps    +---------------+
/// |  smooth grey ramp, L* 0 → 97            |  circular     |
/// |  hue sweep                              |  zone plate   |
/// |  line gratings: periods 8, 6, 4, 2 px   |  (to Nyquist) |
/// +----------------------------------------+---------------+
/// ```
///
/// Everything else is an 18 % grey surround.
struct SceneLayout: Sendable {
    /// A half-open span `[start, end)` of pixels.
    struct Span: Sendable {
        var start: Int
        var end: Int
        func contains(_ value: Int) -> Bool { value >= start && value < end }
        var length: Int { end - start }
    }

    let width: Int
    let height: Int
    let chartColumns: Span
    let chartRows: Span
    /// The 7 column and 5 row boundaries of the chart's cells.
    let cellX: [Int]
    let cellY: [Int]
    /// Black frame between patches, in pixels.
    let patchGap: Int
    let wedgeRows: Span
    let wedgeX: [Int]
    let rampRows: Span
    let hueRows: Span
    let linesRows: Span
    let leftColumns: Span
    /// Bounds of the four grating blocks.
    let linesX: [Int]
    let starBox: (Span, Span)
    let starCenter: (Double, Double)
    let starRadius: Double
    let zoneBox: (Span, Span)
    let zoneCenter: (Double, Double)
    let zoneRadius: Double

    static let wedgeSteps = 16
    static let gratingPeriods = [8, 6, 4, 2]
    static let starCycles = 36

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        func x(_ fraction: Double) -> Int { Int((fraction * Double(width)).rounded(.down)) }
        func y(_ fraction: Double) -> Int { Int((fraction * Double(height)).rounded(.down)) }
        let left = Span(start: x(0.03), end: x(0.60))
        let chartRows = Span(start: y(0.04), end: y(0.58))
        leftColumns = left
        chartColumns = left
        self.chartRows = chartRows
        cellX = (0...6).map { left.start + left.length * $0 / 6 }
        cellY = (0...4).map { chartRows.start + chartRows.length * $0 / 4 }
        patchGap = max(1, min(left.length / 6, chartRows.length / 4) / 12)
        wedgeRows = Span(start: y(0.61), end: y(0.70))
        wedgeX = (0...SceneLayout.wedgeSteps).map { left.start + left.length * $0 / SceneLayout.wedgeSteps }
        rampRows = Span(start: y(0.72), end: y(0.79))
        hueRows = Span(start: y(0.81), end: y(0.88))
        linesRows = Span(start: y(0.90), end: y(0.97))
        linesX = (0...4).map { left.start + left.length * $0 / 4 }
        let rightColumns = Span(start: x(0.63), end: x(0.97))
        starBox = (rightColumns, Span(start: y(0.04), end: y(0.47)))
        zoneBox = (rightColumns, Span(start: y(0.51), end: y(0.97)))
        func center(_ box: (Span, Span)) -> (Double, Double) {
            (Double(box.0.start + box.0.end) / 2, Double(box.1.start + box.1.end) / 2)
        }
        starCenter = center(starBox)
        zoneCenter = center(zoneBox)
        starRadius = 0.47 * Double(min(starBox.0.length, starBox.1.length))
        zoneRadius = 0.47 * Double(min(zoneBox.0.length, zoneBox.1.length))
    }

    /// The inside of chart patch `index` (0…23, reading order), without its black frame, in active-area
    /// coordinates; empty when the frame is too small to show it.
    func patchRect(_ index: Int) -> PixelRect {
        let column = index % 6
        let row = index / 6
        let x0 = cellX[column] + patchGap
        let x1 = cellX[column + 1] - patchGap
        let y0 = cellY[row] + patchGap
        let y1 = cellY[row + 1] - patchGap
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// Step `index` (0 = brightest) of the grey wedge, in active-area coordinates.
    func wedgeRect(_ index: Int) -> PixelRect {
        PixelRect(
            x: wedgeX[index], y: wedgeRows.start, width: wedgeX[index + 1] - wedgeX[index], height: wedgeRows.length)
    }

    /// The reflectance of wedge step `index`: 0.9 halving every two steps (half-stop steps over 7.5 EV).
    static func wedgeReflectance(_ index: Int) -> Double { 0.9 * pow(2, -Double(index) / 2) }
}
