import DNG
import Foundation
import JPEG
import RawImage
import SceneSynthesis
import Testing

/// Preview speed on full-size frames: previews are on every capture's path. Off by default (release builds
/// only mean anything): `RAWCAP_PERF=1 swift test -c release --filter DNGPreviewsPerformanceTests`.
@Suite(
    .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["RAWCAP_PERF"] == "1", "set RAWCAP_PERF=1 (release build)"))
struct DNGPreviewsPerformanceTests {
    /// Best of `runs`: wall seconds, and process CPU seconds per core (the machine is shared; see the RawImage
    /// performance tests). Returns the smaller.
    static func time(_ label: String, runs: Int = 7, _ body: () throws -> Void) rethrows -> Double {
        var bestWall = Double.infinity
        var bestCPU = Double.infinity
        func cpuSeconds() -> Double {
            var spec = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
            return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
        }
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            let startCPU = cpuSeconds()
            try body()
            bestCPU = min(bestCPU, (cpuSeconds() - startCPU) / cores)
            bestWall = min(bestWall, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        print(
            "\(label): wall \(String(format: "%.1f", bestWall * 1000)) ms, CPU/\(Int(cores)) cores \(String(format: "%.1f", bestCPU * 1000)) ms"
        )
        return min(bestWall, bestCPU)
    }

    @Test func previewsOf24MegapixelsTakeTensOfMilliseconds() throws {
        for cfa in [CFAPattern.rggb, .xTrans] {
            let frame = try SyntheticScene(width: 6000, height: 4000, cfa: cfa, bitsPerSample: 14).render(seed: 2)
            let seconds = try Self.time("DNGPreviews.render 6000×4000 \(cfa)") {
                _ = try DNGPreviews.render(from: frame)
            }
            #expect(seconds < 0.08)
            let options = RenderOptions(longSide: 1024, appliesOrientation: false)
            _ = try Self.time("  of which rendering 1024 px (binning, colour, resampling)") {
                _ = try frame.renderRGB8(options)
            }
            let preview = try frame.renderRGB8(options)
            _ = try Self.time("  of which JPEG encode 1024 px q85") {
                _ = try JPEGImage(encoding: preview, quality: 85)
            }
            _ = try Self.time("  of which 256 px thumbnail") { _ = try preview.downscaled(toLongSide: 256) }
        }
        let camera = try JPEGImage(
            encoding: try SyntheticScene(width: 6000, height: 4000, cfa: .rggb, bitsPerSample: 14)
                .render().renderRGB8(RenderOptions(method: .fast)), quality: 92)
        let seconds = try Self.time("DNGPreviews.render(fromCameraJPEG:) 5936×3936") {
            _ = try DNGPreviews.render(fromCameraJPEG: camera)
        }
        #expect(seconds < 0.08)
    }

    @Test func fullSizeRenderingsAndLinearImages() throws {
        for cfa in [CFAPattern.rggb, .xTrans] {
            let frame = try SyntheticScene(width: 6000, height: 4000, cfa: cfa, bitsPerSample: 14).render(seed: 3)
            _ = try Self.time("demosaiced(.highQuality) 6000×4000 \(cfa)", runs: 2) { _ = try frame.demosaiced() }
            _ = try Self.time("renderRGB16 full size \(cfa)", runs: 2) { _ = try frame.renderRGB16() }
            _ = try Self.time("LinearImage(demosaicing:) companded12 \(cfa)", runs: 2) {
                _ = try LinearImage(demosaicing: frame, encoding: .companded12)
            }
        }
    }
}
