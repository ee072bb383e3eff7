import RawImage
import SceneSynthesis
import Testing

/// The tilted, patterned chart of `SceneLens`: where it is sharp, how the blur grows, and that a scene without a lens
/// renders as before.
@Suite struct SceneLensTests {
    @Test func theRadiusGrowsWithTheDistanceFromTheFocus() {
        let lens = SceneLens(focus: 0.25)
        let width = 800
        #expect(lens.sharpestColumn(width: width) == 200)
        #expect(lens.radius(column: lens.sharpestColumn(width: width), width: width) == 0)
        // A whole range away the radius is blurPerRange of the width.
        #expect(SceneLens(focus: 0).radius(column: width - 1, width: width) == 20)
        let radii = (200..<width).map { lens.radius(column: $0, width: width) }
        #expect(zip(radii, radii.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(SceneLens(focus: 3).focus == 1)
    }

    /// The checker's contrast in a column band of a rendered frame's green samples.
    static func contrast(_ frame: RawFrame, columns: Range<Int>, half: Int) -> Double {
        var signed = 0.0
        var total = 0.0
        let area = frame.activeArea
        for y in area.y..<(area.y + area.height) where y % 2 == 0 {
            for x in columns where (x - area.x) % 2 == 1 {
                let value = Double(frame.samples[y * frame.width + x]) - frame.blackLevels[0]
                let light = (((x - area.x) / half) + ((y - area.y) / half)) % 2 == 0
                signed += light ? value : -value
                total += value
            }
        }
        return signed / max(total, 1)
    }

    @Test func aRenderedFrameIsSharpAtTheFocusAndBlurredAwayFromIt() throws {
        var scene = try SyntheticScene(width: 400, height: 240, cfa: .rggb, bitsPerSample: 14, maskedMargin: 0)
        let plain = try scene.render(seed: 3)
        scene.lens = SceneLens(focus: 0.2)
        let frame = try scene.render(seed: 3)
        #expect(frame.samples != plain.samples)
        let half = SceneLens(focus: 0).patternPeriod / 2
        let near = Self.contrast(frame, columns: 60..<100, half: half)
        let far = Self.contrast(frame, columns: 340..<380, half: half)
        #expect(near > 0.15, "the checker survives where the lens is focused: \(near)")
        #expect(far < near / 4, "and is blurred away far from it: \(far) against \(near)")
        // Without the lens, the scene renders as it always has: the same seed, the same samples.
        scene.lens = nil
        #expect(try scene.render(seed: 3).samples == plain.samples)
    }
}
