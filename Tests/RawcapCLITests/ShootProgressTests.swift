import Capture
import Foundation
import Testing

@testable import RawcapCLI

/// The progress line tells the truth: the file in flight with its own size and rate, a countdown between interval
/// shots, a time left from the schedule, files (not frames) for pull. Events carry their instants, so nothing here
/// depends on how fast the machine is.
@Suite struct ShootProgressTests {
    static func saved(frame: Int) -> CaptureEvent {
        .saved(
            SavedFile(
                path: "x/\(frame).dng", size: 4_000_000, sha256: "", camera: "Cam", serial: "1", format: "bayer16",
                frame: frame, bracket: nil, handle: UInt32(frame), cameraFile: "F\(frame).TIF", exposure: nil,
                timings: nil))
    }

    @Test func anIntervalRunCountsDownToTheNextFrameAndTellsTheTimeLeftFromTheSchedule() {
        let progress = ShootProgress(json: false, quiet: true, interval: .seconds(10))
        let start = ContinuousClock().now
        func at(_ event: CaptureEvent, _ milliseconds: Int) {
            progress.handle(event, camera: nil, at: start + .milliseconds(milliseconds))
        }
        at(.started(frames: 3, format: "bayer16", camera: "Cam"), 0)
        at(.shotStarted(frame: 1), 0)
        #expect(progress.line(at: start).hasPrefix("frame 1/3 · shooting"))
        at(.bytesReceived(1_000_000), 100)
        at(.bytesReceived(1_000_000), 200)
        // 1 MB between the first and the last chunk's arrival, 0.1 s apart: 20 MB/s for the file's 2 MB.
        #expect(progress.line(at: start + .milliseconds(250)).hasPrefix("frame 1/3 · 2.0 MB at 20.0 MB/s"))
        #expect(progress.line(at: start + .seconds(1)).contains("2.0 MB received, writing"))
        at(Self.saved(frame: 1), 1000)
        // Frame 2 is due 10 s after frame 1, the last (3) at 20 s, and a frame takes 1 s: 18 s left at 3 s.
        #expect(progress.line(at: start + .seconds(3)) == "frame 1/3 · saved · next frame in 0:07 · 0:18 left")
    }

    @Test func aBackToBackRunTellsTheTimeLeftFromTheFramesPace() {
        let progress = ShootProgress(json: false, quiet: true)
        let start = ContinuousClock().now
        func at(_ event: CaptureEvent, _ milliseconds: Int) {
            progress.handle(event, camera: nil, at: start + .milliseconds(milliseconds))
        }
        at(.started(frames: 4, format: "bayer16", camera: "Cam"), 0)
        at(.shotStarted(frame: 1), 0)
        at(Self.saved(frame: 1), 2000)
        at(.shotStarted(frame: 2), 2000)
        // Three frames of 2 s each are left.
        #expect(progress.line(at: start + .milliseconds(2000)) == "frame 2/4 · shooting · 0:06 left")
        for frame in 2...4 { at(Self.saved(frame: frame), 2000 * frame) }
        #expect(!progress.line(at: start + .seconds(9)).contains("left"), "nothing is left")
    }

    @Test func pullCountsFiles() {
        let progress = ShootProgress(json: false, pulling: true, quiet: true)
        progress.handle(.started(frames: 2, format: "dng", camera: "Cam"))
        progress.handle(.shotStarted(frame: 1))
        #expect(progress.line(at: ContinuousClock().now).hasPrefix("file 1/2 · starting"))
        #expect(ShootProgress.clockText(3725) == "1:02:05" && ShootProgress.clockText(7.2) == "0:08")
    }
}
