import CameraEmulator
import Capture
import Foundation
import PTP
import Testing

/// A run's summary keeps the last records and the totals, so its memory does not grow with the run's length
/// (`make soak`: memory flat over thousands of frames); the journal has every record.
@Suite struct RecentRecordsTests {
    @Test func theLastRecordsAreKeptInOrderAndAllAreCounted() {
        var log = RecentRecords<Int>(limit: 3)
        #expect(log.isEmpty && log.total == 0 && !log.isTruncated)
        log.append(1)
        log += [2, 3]
        #expect(Array(log) == [1, 2, 3] && log.total == 3 && !log.isTruncated)
        log += [4, 5]
        #expect(Array(log) == [3, 4, 5] && log.count == 3 && log.total == 5 && log.isTruncated)
        #expect(log.first == 3 && log.last == 5 && log[1] == 4)
        for value in 6...1000 { log.append(value) }
        #expect(Array(log) == [998, 999, 1000] && log.total == 1000)
        // Equal logs keep the same records and counted the same number.
        let literal: RecentRecords<Int> = [1, 2]
        #expect(literal == [1, 2] && literal != [2] && literal.limit == RecentRecords<Int>.defaultLimit)
    }

    /// A run of more frames than the summary keeps: the summary holds `recordsKept` of each record, the totals and
    /// the journal count every frame, and the files on disk are all there.
    @Test func aLongRunKeepsABoundedSummary() async throws {
        let rig = try await CaptureRig(width: 64, height: 48)
        defer { Task { await rig.close() } }
        var runner = try rig.runner(ShootPlan(format: .bayer12, count: 12, interval: .milliseconds(1)))
        runner.recordsKept = 4
        let summary = try await runner.run()
        #expect(summary.files.count == 4 && summary.files.total == 12)
        #expect(summary.files.map(\.frame) == [9, 10, 11, 12])
        #expect(summary.started.count == 4 && summary.started.total == 12)
        #expect(summary.scheduled.count == 4 && summary.scheduled.total == 12)
        #expect(summary.overruns.count <= 4)
        #expect(try rig.files().filter { $0.hasSuffix(".dng") }.count == 12)
        let finished = try #require(rig.journal.last { $0.event == JournalEntry.Event.runFinished })
        #expect(finished.files == 12)
    }
}
