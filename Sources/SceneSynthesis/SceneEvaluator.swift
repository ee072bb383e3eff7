import RawImage

#if canImport(Glibc)
    import Glibc
#endif

/// Evaluates the synthetic chart one row at a time: for every column of the active area, the expected camera
/// response in each of the three colour channels, as a fraction of the clipping level (noise-free, unclipped).
///
/// Flat areas cost one copy per pixel; the ramps and gratings come from per-column tables computed once; only
/// the Siemens star and the zone plate compute per pixel, with a few multiplications each (the star's
/// `sin(36θ)` is the imaginary part of `(x + iy)³⁶ / r³⁶`, by repeated squaring, not `atan2`).
struct SceneEvaluator: Sendable {
    typealias RGB = (Float, Float, Float)

    let layout: SceneLayout
    let background: RGB
    let chartFrame: RGB
    let patches: [RGB]
    let wedge: [RGB]
    let detailLight: RGB
    let detailDark: RGB
    /// `layout.leftColumns.length × 3` values each.
    let rampTable: [Float]
    let hueTable: [Float]
    let gratingTable: [Float]

    /// Reflectances of the non-chart materials (neutral; linear, 0…1).
    static let backgroundReflectance = 0.18
    static let chartFrameReflectance = 0.03
    static let detailLightReflectance = 0.85
    static let detailDarkReflectance = 0.04

    /// - Parameters:
    ///   - reflectanceToCamera: linear sRGB reflectance (as seen under D65) → camera response under the scene's
    ///     light, for a white of luminance 1.
    ///   - scale: the signal fraction of a white of luminance 1 at this exposure.
    init(layout: SceneLayout, reflectanceToCamera: Matrix3, scale: Double) {
        self.layout = layout
        func response(_ linear: (Double, Double, Double)) -> RGB {
            let camera = reflectanceToCamera.apply(linear)
            return (Float(max(0, camera.0 * scale)), Float(max(0, camera.1 * scale)), Float(max(0, camera.2 * scale)))
        }
        func grey(_ reflectance: Double) -> RGB { response((reflectance, reflectance, reflectance)) }
        background = grey(Self.backgroundReflectance)
        chartFrame = grey(Self.chartFrameReflectance)
        patches = ChartPatch.colorChecker.map { response($0.linearSRGB) }
        wedge = (0..<SceneLayout.wedgeSteps).map { grey(SceneLayout.wedgeReflectance($0)) }
        detailLight = grey(Self.detailLightReflectance)
        detailDark = grey(Self.detailDarkReflectance)

        let columns = layout.leftColumns
        let length = max(columns.length, 1)
        var ramp = [Float]()
        var hue = [Float]()
        var grating = [Float]()
        ramp.reserveCapacity(length * 3)
        hue.reserveCapacity(length * 3)
        grating.reserveCapacity(length * 3)
        for offset in 0..<columns.length {
            let t = (Double(offset) + 0.5) / Double(length)
            // Grey ramp even in CIE L*, 0 → 97, so it looks smooth rather than crowded in the highlights.
            let lightness = 97 * t
            let y = lightness > 8 ? pow((lightness + 16) / 116, 3) : lightness / 903.3
            let r = grey(y)
            ramp += [r.0, r.1, r.2]
            // Hue sweep: HSV(h, 0.75, 0.85) in encoded sRGB, linearised.
            let h = SceneEvaluator.hsv(hue: 6 * t, saturation: 0.75, value: 0.85)
            let c = response((SRGBTransfer.decode(h.0), SRGBTransfer.decode(h.1), SRGBTransfer.decode(h.2)))
            hue += [c.0, c.1, c.2]
            // Vertical line gratings: four blocks of bars, half light and half dark per period, with the
            // contrast the lens passes at that period.
            let block = min(3, offset * 4 / length)
            let period = SceneLayout.gratingPeriods[block]
            let inBlock = columns.start + offset - layout.linesX[block]
            let g = Self.bar(light: (inBlock / (period / 2)) % 2 == 0, period: period, detailLight, detailDark)
            grating += [g.0, g.1, g.2]
        }
        rampTable = ramp
        hueTable = hue
        gratingTable = grating
    }

    /// The lens: a Gaussian modulation transfer function with 50 % contrast at 0.35 cycles per pixel (24 % at
    /// Nyquist), typical of a sharp lens on a sensor without an anti-aliasing filter. Fine patterns reach the
    /// sensor with the contrast a real lens would leave them, instead of the full-contrast square waves that only
    /// a simulation can make, which alias into solid false colour on any Bayer sensor.
    static func lensMTF(cyclesPerPixel frequency: Double) -> Double {
        exp(-0.693_147 * (frequency / 0.35) * (frequency / 0.35))
    }

    /// One bar of a grating of `period` pixels: light or dark, pulled toward the mean by the lens.
    static func bar(light: Bool, period: Int, _ lightValue: RGB, _ darkValue: RGB) -> RGB {
        let contrast = Float(lensMTF(cyclesPerPixel: 1 / Double(period)))
        let sign: Float = light ? 1 : -1
        func mix(_ a: Float, _ b: Float) -> Float { (a + b) / 2 + sign * contrast * (a - b) / 2 }
        return (mix(lightValue.0, darkValue.0), mix(lightValue.1, darkValue.1), mix(lightValue.2, darkValue.2))
    }

    private static func hsv(hue: Double, saturation: Double, value: Double) -> (Double, Double, Double) {
        let sector = Int(hue.rounded(.down)) % 6
        let f = hue - hue.rounded(.down)
        let p = value * (1 - saturation)
        let q = value * (1 - saturation * f)
        let t = value * (1 - saturation * (1 - f))
        switch sector {
        case 0: return (value, t, p)
        case 1: return (q, value, p)
        case 2: return (p, value, t)
        case 3: return (p, q, value)
        case 4: return (t, p, value)
        default: return (value, p, q)
        }
    }

    /// Fills `out[0 ..< layout.width × 3]` with row `y` of the active area.
    func fill(row y: Int, into out: UnsafeMutablePointer<Float>) {
        let width = layout.width
        Self.fill(out, 0, width, background)
        let left = layout.leftColumns
        if layout.chartRows.contains(y) {
            Self.fill(out, left.start, left.end, chartFrame)
            var row = 0
            while row < 3 && y >= layout.cellY[row + 1] { row += 1 }
            if y >= layout.cellY[row] + layout.patchGap && y < layout.cellY[row + 1] - layout.patchGap {
                for column in 0..<6 {
                    Self.fill(
                        out, layout.cellX[column] + layout.patchGap, layout.cellX[column + 1] - layout.patchGap,
                        patches[row * 6 + column])
                }
            }
        } else if layout.wedgeRows.contains(y) {
            for step in 0..<SceneLayout.wedgeSteps {
                Self.fill(out, layout.wedgeX[step], layout.wedgeX[step + 1], wedge[step])
            }
        } else if layout.rampRows.contains(y) {
            copy(rampTable, into: out)
        } else if layout.hueRows.contains(y) {
            copy(hueTable, into: out)
        } else if layout.linesRows.contains(y) {
            let middle = (layout.linesRows.start + layout.linesRows.end) / 2
            if y < middle {
                copy(gratingTable, into: out)
            } else {
                // Horizontal bars below the vertical ones, same periods per block.
                for block in 0..<4 {
                    let period = SceneLayout.gratingPeriods[block]
                    let colour = Self.bar(
                        light: ((y - middle) / (period / 2)) % 2 == 0, period: period, detailLight, detailDark)
                    Self.fill(out, layout.linesX[block], layout.linesX[block + 1], colour)
                }
            }
        }
        if layout.starBox.1.contains(y) { drawStar(row: y, into: out) }
        if layout.zoneBox.1.contains(y) { drawZonePlate(row: y, into: out) }
    }

    private func copy(_ table: [Float], into out: UnsafeMutablePointer<Float>) {
        let start = layout.leftColumns.start
        table.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            (out + start * 3).update(from: base, count: source.count)
        }
    }

    @inline(__always)
    private static func fill(_ out: UnsafeMutablePointer<Float>, _ start: Int, _ end: Int, _ rgb: RGB) {
        guard end > start else { return }
        var pointer = out + start * 3
        for _ in start..<end {
            pointer[0] = rgb.0
            pointer[1] = rgb.1
            pointer[2] = rgb.2
            pointer += 3
        }
    }

    /// A Siemens star of ``SceneLayout/starCycles`` light/dark cycles. Edges are softened to about a pixel wide
    /// (the modulation is `r / cycles · sin(cycles · θ)`, clamped), like a sharp lens's image, and the centre,
    /// where spokes get finer than pixels, blends into grey.
    private func drawStar(row y: Int, into out: UnsafeMutablePointer<Float>) {
        let radius = layout.starRadius
        guard radius >= 1 else { return }
        let dy = Double(y) + 0.5 - layout.starCenter.1
        guard abs(dy) < radius else { return }
        let halfChord = (radius * radius - dy * dy).squareRoot()
        let x0 = max(layout.starBox.0.start, Int((layout.starCenter.0 - halfChord).rounded(.up)))
        let x1 = min(layout.starBox.0.end, Int((layout.starCenter.0 + halfChord).rounded(.down)))
        guard x1 > x0 else { return }
        let cycles = Float(SceneLayout.starCycles)
        let fy = Float(dy)
        let dark = detailDark
        let delta = (detailLight.0 - dark.0, detailLight.1 - dark.1, detailLight.2 - dark.2)
        for x in x0..<x1 {
            let fx = Float(Double(x) + 0.5 - layout.starCenter.0)
            let r = (fx * fx + fy * fy).squareRoot()
            var m: Float = 0.5
            if r > 0 {
                // z = e^{iθ}; z^36 = z^32 · z^4.
                let c = fx / r
                let s = fy / r
                var (re2, im2) = (c * c - s * s, 2 * c * s)
                let (re4, im4) = (re2 * re2 - im2 * im2, 2 * re2 * im2)
                (re2, im2) = (re4 * re4 - im4 * im4, 2 * re4 * im4)  // z^8
                let (re16, im16) = (re2 * re2 - im2 * im2, 2 * re2 * im2)
                let (re32, im32) = (re16 * re16 - im16 * im16, 2 * re16 * im16)
                let sine = re32 * im4 + im32 * re4
                m = min(max(0.5 + 0.5 * (r / cycles) * sine, 0), 1)
            }
            let pointer = out + x * 3
            pointer[0] = dark.0 + m * delta.0
            pointer[1] = dark.1 + m * delta.1
            pointer[2] = dark.2 + m * delta.2
        }
    }

    /// A circular zone plate `½ + ½·MTF·cos(k·r²)` whose local frequency `f = k·r/π` reaches 0.5 cycles per pixel
    /// (Nyquist) at its rim, so demosaicing and compression meet every frequency up to the limit. The lens MTF
    /// at `f` is Gaussian in `r`, so it factors into a row term and a column term: `exp(−α·dx²)·exp(−α·dy²)`.
    private func drawZonePlate(row y: Int, into out: UnsafeMutablePointer<Float>) {
        let radius = layout.zoneRadius
        guard radius >= 1 else { return }
        let dy = Double(y) + 0.5 - layout.zoneCenter.1
        guard abs(dy) < radius else { return }
        let halfChord = (radius * radius - dy * dy).squareRoot()
        let x0 = max(layout.zoneBox.0.start, Int((layout.zoneCenter.0 - halfChord).rounded(.up)))
        let x1 = min(layout.zoneBox.0.end, Int((layout.zoneCenter.0 + halfChord).rounded(.down)))
        guard x1 > x0 else { return }
        let k = Double.pi / (2 * radius)
        // MTF(f) = exp(−ln2·(f/0.35)²) with f = k·r/π.
        let alpha = 0.693_147 * (k / Double.pi / 0.35) * (k / Double.pi / 0.35)
        let dark = detailDark
        let delta = (detailLight.0 - dark.0, detailLight.1 - dark.1, detailLight.2 - dark.2)
        let dy2 = dy * dy
        let rowAttenuation = exp(-alpha * dy2)
        for x in x0..<x1 {
            let dx = Double(x) + 0.5 - layout.zoneCenter.0
            let attenuation = rowAttenuation * exp(-alpha * dx * dx)
            let m = Float(0.5 + 0.5 * attenuation * cos(k * (dx * dx + dy2)))
            let pointer = out + x * 3
            pointer[0] = dark.0 + m * delta.0
            pointer[1] = dark.1 + m * delta.1
            pointer[2] = dark.2 + m * delta.2
        }
    }
}
