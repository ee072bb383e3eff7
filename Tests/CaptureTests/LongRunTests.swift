import Capture
import Foundation
import TestSupport
import Testing

/// A 200-frame run loses no frame and its memory stays flat. It runs in a child process (this test binary, running
/// only ``longRunChild()``), so the peak resident size is the run's own, not the rest of the test suite's.
@Suite(.serialized) struct LongRunTests {
    static let childVariable = "RAWCAP_LONG_RUN_CHILD_FOLDER"
    static let frames = 200

    @Test func twoHundredFramesLoseNothingAndMemoryStaysFlat() async throws {
        let folder = try TemporaryDirectory("long-run")
        let binary = try #require(try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        let result = try await Subprocess.runDetached(
            binary, ["--testing-library", "swift-testing", "--filter", "longRunChild"],
            environment: [Self.childVariable: folder.url.path])
        let line = try #require(
            result.output.split(separator: "\n").first { $0.hasPrefix("CHILD ") }, "\(result.output.suffix(3000))")
        let fields = Dictionary(
            uniqueKeysWithValues: line.dropFirst(6).split(separator: " ").compactMap { pair -> (String, Int)? in
                let parts = pair.split(separator: "=")
                guard parts.count == 2, let value = Int(parts[1]) else { return nil }
                return (String(parts[0]), value)
            })
        #expect(fields["files"] == Self.frames)
        #expect(fields["written"] == Self.frames)
        #expect(fields["requested"] == Self.frames)
        let early = try #require(fields["peakAt20"])
        let late = try #require(fields["peakAt200"])
        // The emulated camera is in this process and keeps its card in memory: that growth is the camera's. What
        // is left is the pipeline's; every frame leaked would add about 300 kB (raw bytes, decoded frame, DNG
        // buffers), 54 MB over frames 21…200.
        let card = try #require(fields["cardKB200"]) - (try #require(fields["cardKB20"]))
        #expect(
            late - early - card < 8_000, "peak RSS grew \(late - early) kB from frame 20 to 200, the card \(card) kB")
        print("long run: peak RSS \(early) kB after 20 frames, \(late) kB after \(Self.frames); card grew \(card) kB")
    }

    /// Runs only inside the child of ``twoHundredFramesLoseNothingAndMemoryStaysFlat()``.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil, "child of the long-run test"))
    func longRunChild() async throws {
        let rig = try await CaptureRig(width: 256, height: 192, cardCapacity: 8 << 30)
        defer { Task { await rig.close() } }
        let peaks = PeakLog()
        let runner = CaptureRunner(
            session: rig.session, plan: ShootPlan(format: .bayer14, count: Self.frames),
            store: rig.store, journal: try Journal(folder: rig.store.folder), logger: .init(label: "long")
        ) { event in
            if case .saved(let file) = event, file.frame == 20 || file.frame == Self.frames { peaks.mark(file.frame) }
        }
        func cardKB(_ upTo: Int) -> Int {
            Int(
                Journal.read(folder: rig.store.folder).filter {
                    $0.event == "object-announced" && ($0.shot ?? 0) < upTo
                }
                .reduce(UInt64(0)) { $0 + ($1.size ?? 0) } / 1000)
        }
        let summary = try await runner.run()
        let journal = rig.journal
        let files = try rig.files().filter { $0.hasSuffix(".dng") }.count
        print(
            "CHILD files=\(files) written=\(journal.filter { $0.event == "file-written" }.count) "
                + "requested=\(journal.filter { $0.event == "shot-requested" }.count) saved=\(summary.files.count) "
                + "peakAt20=\(peaks.value(20)) peakAt200=\(peaks.value(Self.frames)) cardKB20=\(cardKB(20)) "
                + "cardKB200=\(cardKB(Self.frames))")
    }
}

/// Peak resident set size (getrusage ru_maxrss, kB) when given frames were saved.
final class PeakLog: @unchecked Sendable {
    private let lock = NSLock()
    private var peaks: [Int: Int] = [:]

    func mark(_ frame: Int) {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        lock.withLock { peaks[frame] = usage.ru_maxrss }
    }

    func value(_ frame: Int) -> Int { lock.withLock { peaks[frame] ?? -1 } }
}
