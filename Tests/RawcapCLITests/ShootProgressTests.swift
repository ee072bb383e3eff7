import Capture
import Foundation
import Testing

@testable import RawcapCLI

/// The progress line tells the truth: the file in flight with its own size and rate, a countdown between interval
/// shots, a time left from the schedule, files (not frames) for pull.
@Suite struct ShootProgressTests {
    static func saved(frame: Int) -> CaptureEvent {
        .saved(
            SavedFile(
                path: "x/\(frame).dng", size: 4_000_000, sha256: "", camera: "Cam", serial: "1", format: "bayer16",
                frame: frame, bracket: nil, handle: UInt32(frame), cameraFile: "F\(frame).TIF", exposure: nil,
                timings: nil))
    }

    @Test func anIntervalRunCountsDownToTheNextFrameAndTellsTheTimeLeftFromTheSchedule() async throws {
        let progress = ShootProgress(json: false, quiet: true, interval: .seconds(10))
        let clock = ContinuousClock()
        progress.handle(.started(frames: 3, format: "bayer16", camera: "Cam"))
        progress.handle(.shotStarted(frame: 1))
        let start = clock.now
        #expect(progress.line(at: start).hasPrefix("frame 1/3 · shooting"))
        progress.handle(.bytesReceived(1_000_000))
        try await Task.sleep(for: .milliseconds(120))
        progress.handle(.bytesReceived(1_000_000))
        let downloading = progress.line(at: clock.now)
        #expect(downloading.contains("2.0 MB at ") && downloading.contains(" MB/s"), "\(downloading)")
        #expect(progress.line(at: clock.now + .seconds(1)).contains("2.0 MB received, writing"))
        progress.handle(Self.saved(frame: 1))
        // Frame 2 is due 10 s after frame 1; the last (3) at 20 s: about 20 s left.
        let waiting = progress.line(at: start + .seconds(3))
        #expect(waiting.hasPrefix("frame 1/3 · saved · next frame in 0:07"), "\(waiting)")
        #expect(waiting.hasSuffix(" left"))
        let left = try #require(waiting.split(separator: " · ").last)
        #expect(["0:17 left", "0:18 left"].contains(String(left)), "\(waiting)")
    }

    @Test func aBackToBackRunTellsTheTimeLeftFromTheFramesPace() async throws {
        let progress = ShootProgress(json: false, quiet: true)
        let clock = ContinuousClock()
        progress.handle(.started(frames: 4, format: "bayer16", camera: "Cam"))
        progress.handle(.shotStarted(frame: 1))
        try await Task.sleep(for: .milliseconds(200))
        progress.handle(Self.saved(frame: 1))
        progress.handle(.shotStarted(frame: 2))
        let line = progress.line(at: clock.now)
        #expect(line.hasPrefix("frame 2/4 · shooting · 0:01 left"), "three frames of about 0.2 s: \(line)")
        progress.handle(Self.saved(frame: 2))
        progress.handle(Self.saved(frame: 3))
        progress.handle(Self.saved(frame: 4))
        #expect(!progress.line(at: clock.now).contains("left"), "nothing is left")
    }

    @Test func pullCountsFiles() {
        let progress = ShootProgress(json: false, pulling: true, quiet: true)
        progress.handle(.started(frames: 2, format: "dng", camera: "Cam"))
        progress.handle(.shotStarted(frame: 1))
        #expect(progress.line(at: ContinuousClock().now).hasPrefix("file 1/2 · starting"))
        #expect(ShootProgress.clockText(3725) == "1:02:05" && ShootProgress.clockText(7.2) == "0:08")
    }
}
