import CameraEmulator
import Capture
import Foundation
import PTP
import RawDecoders
import RawImage
import SceneSynthesis
import Testing

/// `shoot --focus-bracket` end to end on the emulated bodies: each frame's focus step in the journal, and the
/// sharpest part of each DNG moving with the step, and each DNG's XMP `rawcap:FocusStep`.
@Suite struct FocusBracketTests {
    /// How strongly the printed checker of ``RawImage/SceneLens`` survives in each of `bands` column bands of a raw
    /// frame: per 2×2 CFA phase, Σ v·s / Σ v with s = ±1 the checker cell's sign, averaged over the phases. The
    /// checker's phase in the file is found first (the best of the 8×8 offsets over the whole frame), since a
    /// vendor raw's decoder may crop the masked margin differently.
    static func checkerContrast(_ frame: RawFrame, bands: Int) -> [Double] {
        let half = SceneLens(focus: 0).patternPeriod / 2
        let area = frame.activeArea
        func contrast(dx: Int, dy: Int, columns: Range<Int>) -> Double {
            var signed = [Double](repeating: 0, count: 4)
            var total = [Double](repeating: 0, count: 4)
            for y in area.y..<(area.y + area.height) {
                for x in columns {
                    let value = Double(frame.samples[y * frame.width + x]) - frame.blackLevels[0]
                    let light = (((x - area.x + dx) / half) + ((y - area.y + dy) / half)) % 2 == 0
                    let phase = (y % 2) * 2 + x % 2
                    signed[phase] += light ? value : -value
                    total[phase] += value
                }
            }
            return (0..<4).map { signed[$0] / max(total[$0], 1) }.reduce(0, +) / 4
        }
        let all = area.x..<(area.x + area.width)
        var best = (dx: 0, dy: 0, value: -Double.infinity)
        for dx in 0..<(2 * half) {
            for dy in 0..<(2 * half) {
                let value = contrast(dx: dx, dy: dy, columns: all)
                if value > best.value { best = (dx, dy, value) }
            }
        }
        return (0..<bands).map { band in
            let start = area.x + area.width * band / bands
            let end = area.x + area.width * (band + 1) / bands
            return contrast(dx: best.dx, dy: best.dy, columns: start..<end)
        }
    }

    @Test(arguments: ["nikon", "canon", "sony"])
    func fiveFramesMoveTheSharpestRegionMonotonically(name: String) async throws {
        let rig = try await CaptureRig(width: 512, height: 352, model: try CameraModel.named(name))
        var plan = ShootPlan(format: .auto, count: 5)
        // Autofocus puts the lens at 500 of 1000 steps; each frame 10 small drives (100 steps) nearer.
        plan.focusBracket = FocusBracket(step: -10, autofocus: .once)
        let summary = try await rig.shoot(plan)
        let dngs = summary.files.map(\.path).filter { $0.hasSuffix(".dng") }.sorted()
        #expect(dngs.count == 5, "\(summary.files.map(\.path))")
        let steps = rig.journal.filter { $0.event == JournalEntry.Event.shotRequested }.map(\.focusStep)
        #expect(steps == [0, -10, -20, -30, -40])
        #expect(await rig.camera.lensFocusPosition == 100)
        var peaks: [Int] = []
        for (path, step) in zip(dngs, steps) {
            let frame = try #require(try RawDecoder.decode(contentsOf: path).frame)
            // Each file carries its frame's step (XMP rawcap:FocusStep), as the journal has it.
            #expect(frame.metadata.focusStep == step, "\(path)")
            let bands = Self.checkerContrast(frame, bands: 20)
            let peak = bands.indices.max { bands[$0] < bands[$1] }!
            peaks.append(peak)
            // Sharp where focused, the pattern nearly gone far from it.
            #expect(bands[peak] > 0.1, "\(bands)")
            #expect(bands.min()! < bands[peak] / 3, "\(bands)")
        }
        // 0.5, 0.4, 0.3, 0.2, 0.1 of the way from near to far: bands 10, 8, 6, 4, 2 of 20.
        #expect(zip(peaks, peaks.dropFirst()).allSatisfy { $0 > $1 }, "\(peaks)")
        #expect(peaks.map { abs($0 - [10, 8, 6, 4, 2][peaks.firstIndex(of: $0)!]) <= 1 }.allSatisfy { $0 }, "\(peaks)")
        await rig.close()
    }

    @Test func aCameraWithoutAFocusDriveRefusesTheBracketBeforeShooting() async throws {
        let rig = try await CaptureRig(model: .generic)
        var plan = ShootPlan(format: .auto, count: 2)
        plan.focusBracket = FocusBracket(step: 1)
        await #expect(throws: LiveViewError.self) { try await rig.shoot(plan) }
        #expect(try rig.files().isEmpty)
        await rig.close()
    }
}
