/// rawcap's 12-bit companding for LinearRaw DNGs: 4096 stored codes mapped to 16-bit linear values by a
/// square-root-like curve with a linear toe, carried in the file as DNG's LinearizationTable (DNG 1.7
/// §LinearizationTable, tag 50712), so that every DNG reader expands it.
///
/// The curve is `L(k) = 65535 · ((k + K)² − K²) / ((4095 + K)² − K²)` with `K = 137`:
///
/// - it is quadratic, so the quantisation step grows like the square root of the signal, as photon shot noise
///   does: at mid-grey (L ≈ 6550, 10 % of white) a step is 9.9 units, 0.15 %, against 1.8 % of shot noise for
///   the emulated sensor at ISO 100; the largest step, at white, is 31 units (0.05 %);
/// - the offset `K` makes the slope at black 1.004 units per code, so every code maps to a different value
///   (a plain square law would waste the first 16 codes on 0) and the darkest values keep 16-bit precision;
/// - the rounding error of encoding is at most half a step: 0.5 units near black, 15.5 at white.
public enum CompandingCurve {
    /// The toe offset `K`: the smallest integer making the slope at code 0 at least one unit per code
    /// (`2K · 65535 / D ≥ 1`).
    public static let toe = 137
    /// Highest code (12 bits).
    public static let maxCode = 4095

    private static let denominator: Double = {
        let top = Double(maxCode + toe)
        let k = Double(toe)
        return top * top - k * k
    }()

    /// The 4096-entry LinearizationTable: code → 16-bit linear value. Strictly increasing, from 0 to 65535.
    public static let table: [UInt16] = (0...maxCode).map { code in
        let shifted = Double(code + toe)
        let k = Double(toe)
        return UInt16((65535 * (shifted * shifted - k * k) / denominator).rounded())
    }

    /// The code whose table value is nearest `value` (a 16-bit linear value).
    @inline(__always)
    public static func code(for value: Int) -> UInt16 {
        let clamped = min(max(value, 0), 65535)
        let k = Double(toe)
        let estimate = Int(((Double(clamped) / 65535 * denominator + k * k).squareRoot() - k).rounded())
        var best = min(max(estimate, 0), maxCode)
        // The rounded inverse can be one code off the nearest table entry; look at both neighbours.
        for candidate in [best - 1, best + 1] where candidate >= 0 && candidate <= maxCode {
            if abs(Int(table[candidate]) - clamped) < abs(Int(table[best]) - clamped) { best = candidate }
        }
        return UInt16(best)
    }
}
