import Foundation
import RawImage
import SceneSynthesis
import Testing

/// Speed checks on full-size frames. Off by default (they need a release build to mean anything):
/// `RAWCAP_PERF=1 swift test -c release --filter RenderingPerformanceTests`.
@Suite(
    .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["RAWCAP_PERF"] == "1", "set RAWCAP_PERF=1 (release build)"))
struct RenderingPerformanceTests {
    /// Best of `runs` timings of `body`: wall-clock seconds, and process CPU seconds divided by the core count
    /// (what the wall clock would show on an idle machine; the build machine is shared, so wall time alone
    /// says more about the neighbours than about the code). Expectations use the smaller of the two.
    static func time(runs: Int = 5, _ body: () throws -> Void) rethrows -> Double {
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
        print("  wall \(Int(bestWall * 1000)) ms, CPU/\(Int(cores)) cores \(Int(bestCPU * 1000)) ms")
        return min(bestWall, bestCPU)
    }

    @Test func syntheticFrameOf24MegapixelsRendersWellUnderASecond() throws {
        for cfa in [CFAPattern.rggb, .xTrans] {
            let scene = try SyntheticScene(width: 6000, height: 4000, cfa: cfa, bitsPerSample: 14)
            let seconds = try Self.time { _ = try scene.render(seed: 1) }
            print("SyntheticScene.render 6000×4000 \(cfa): \(Int(seconds * 1000)) ms")
            #expect(seconds < 0.6)
        }
    }
}
