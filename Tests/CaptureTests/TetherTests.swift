import CameraEmulator
import Capture
import Foundation
import Logging
import PTP
import TestSupport
import Testing

/// `TetherRunner` against every emulated family: shots taken by the body's own shutter button
/// (`EmulatedCamera.pressShutter`) are saved once each, RAW+JPEG pairs together, with a host-triggered shot between
/// them, over USB framing and PTP/IP in memory.
@Suite(.serialized)
struct TetherTests {
    static let families = ["generic", "nikon", "nikon-no-object-event", "canon", "sony", "fuji"]

    /// Runs a tether on `rig` while `body` presses the shutter; returns the summary.
    static func tether(
        _ rig: CaptureRig, options: TetherRunner.Options, trigger: HostTrigger = HostTrigger(),
        stop: StopSignal = StopSignal(), _ body: @Sendable () async throws -> Void
    ) async throws -> TetherRunner.Summary {
        let vendor = rig.camera.model.usbVendorID.map(USBVendorID.init(rawValue:))
        let runner = TetherRunner(
            session: rig.session, options: options, store: rig.store, journal: try Journal(folder: rig.store.folder),
            logger: Logger(label: "tether-test"), stop: stop, trigger: trigger, usbVendorID: vendor,
            observer: rig.events.append)
        let run = Task { try await runner.run() }
        // Presses begin once the run is ready for them (its `started`), as a photographer's would.
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(60)
        while !rig.events.all.contains(where: { if case .started = $0 { true } else { false } }) {
            guard clock.now < deadline else {
                run.cancel()
                Issue.record("the tether never started")
                return try await run.value
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        try await body()
        return try await run.value
    }

    /// The journal's lines of `event`.
    static func lines(_ rig: CaptureRig, _ event: String) -> [JournalEntry] {
        rig.journal.filter { $0.event == event }
    }

    @Test(arguments: families, [CaptureRig.Reach.usb, .ptpipInMemory])
    func everyBodyShotIsSavedOnceWithItsJPEG(family: String, reach: CaptureRig.Reach) async throws {
        let rig = try await CaptureRig(width: 100, height: 68, model: try CameraModel.named(family), reach: reach)
        defer { Task { await rig.close() } }
        #expect(await rig.camera.setBodyQuality(.rawPlusJPEG))
        let presses = 6
        let summary = try await Self.tether(rig, options: .init(keepJPEG: true, count: presses)) {
            for _ in 0..<presses { #expect(await rig.camera.pressShutter() == .ok) }
        }
        #expect(summary.bodyShots == presses)
        #expect(summary.files.count == 2 * presses)
        try rig.expectRawJPEGPairs(presses)
        #expect(Self.lines(rig, JournalEntry.Event.shotTaken).count == presses)
        // Each camera file once, and each shot's two files named after the same camera stem.
        let written = Self.lines(rig, JournalEntry.Event.fileWritten)
        let cameraFiles = written.compactMap(\.cameraFile)
        #expect(Set(cameraFiles).count == 2 * presses, "\(cameraFiles)")
        for shot in 0..<presses {
            let pair = written.filter { $0.shot == shot }
            #expect(pair.count == 2)
            #expect(Set(pair.compactMap { $0.cameraFile?.split(separator: ".").first }).count == 1, "\(pair)")
            #expect(Set(pair.compactMap { $0.path.map { ($0 as NSString).deletingPathExtension } }).count == 1)
        }
        #expect(rig.journal.last?.event == JournalEntry.Event.runFinished)
        #expect(rig.journal.last?.detail == "complete")
    }

    @Test(arguments: families)
    func aHostTriggeredShotGoesBetweenBodyShots(family: String) async throws {
        let rig = try await CaptureRig(width: 100, height: 68, model: try CameraModel.named(family))
        defer { Task { await rig.close() } }
        let trigger = HostTrigger()
        let summary = try await Self.tether(rig, options: .init(count: 3), trigger: trigger) {
            #expect(await rig.camera.pressShutter() == .ok)
            // Wait until the body shot is saved, then ask for a host shot (SIGUSR1), then press again.
            try await Self.waitFor { rig.events.all.filter { if case .saved = $0 { true } else { false } }.count >= 1 }
            trigger.request()
            try await Self.waitFor { Self.lines(rig, JournalEntry.Event.shotRequested).count == 1 }
            try await Self.waitFor { rig.events.all.filter { if case .saved = $0 { true } else { false } }.count >= 2 }
            #expect(await rig.camera.pressShutter() == .ok)
        }
        #expect(summary.bodyShots == 2)
        #expect(summary.hostShots == 1)
        #expect(try rig.files().filter { $0.hasSuffix(".dng") }.count == 3)
        #expect(await rig.camera.shutterPresses == 2)
    }

    /// A host shot asked for while a body shot waits in the camera: the body shot is saved first (a Sony's host
    /// capture would otherwise drop what waits at 0xFFFFC001), then the host shot.
    @Test(arguments: families)
    func aHostTriggerRightAfterAPressKeepsTheBodyShot(family: String) async throws {
        let rig = try await CaptureRig(width: 100, height: 68, model: try CameraModel.named(family))
        defer { Task { await rig.close() } }
        let trigger = HostTrigger()
        let summary = try await Self.tether(rig, options: .init(count: 2), trigger: trigger) {
            #expect(await rig.camera.pressShutter() == .ok)
            trigger.request()
        }
        #expect(summary.bodyShots == 1)
        #expect(summary.hostShots == 1)
        #expect(try rig.files().filter { $0.hasSuffix(".dng") }.count == 2)
        #expect(rig.events.warnings.isEmpty, "\(rig.events.warnings)")
        let order = rig.journal.compactMap { entry -> String? in
            [JournalEntry.Event.shotTaken, JournalEntry.Event.shotRequested].contains(entry.event) ? entry.event : nil
        }
        #expect(order == [JournalEntry.Event.shotTaken, JournalEntry.Event.shotRequested])
    }

    /// Duplicated announcements save nothing twice; a lost ObjectAdded is made good from the card, the pair kept.
    @Test(arguments: [
        ("generic", ["duplicate-event=ObjectAdded:6", "duplicate-event=CaptureComplete:3"]),
        ("fuji", ["duplicate-event=ObjectAdded:6", "duplicate-event=CaptureComplete:3"]),
        ("generic", ["lose-event=ObjectAdded:1"]),
    ])
    func duplicatedOrLostAnnouncementsStillSaveEachShotOnce(family: String, faults: [String]) async throws {
        let rig = try await CaptureRig(
            width: 100, height: 68, faults: try EmulatorFault.parse(faults), model: try CameraModel.named(family))
        defer { Task { await rig.close() } }
        #expect(await rig.camera.setBodyQuality(.rawPlusJPEG))
        let presses = 4
        let summary = try await Self.tether(rig, options: .init(keepJPEG: true, count: presses)) {
            for _ in 0..<presses { #expect(await rig.camera.pressShutter() == .ok) }
        }
        #expect(summary.bodyShots == presses)
        try rig.expectRawJPEGPairs(presses)
        let cameraFiles = Self.lines(rig, JournalEntry.Event.fileWritten).compactMap(\.cameraFile)
        #expect(cameraFiles.count == 2 * presses && Set(cameraFiles).count == 2 * presses, "\(cameraFiles)")
    }

    @Test func aStopEndsTheRunAsInterruptedWithTheJournalClosed() async throws {
        let rig = try await CaptureRig(width: 100, height: 68)
        defer { Task { await rig.close() } }
        let stop = StopSignal()
        await #expect(throws: CaptureError.self) {
            _ = try await Self.tether(rig, options: .init(), stop: stop) {
                #expect(await rig.camera.pressShutter() == .ok)
                try await Self.waitFor { rig.events.all.contains { if case .saved = $0 { true } else { false } } }
                stop.request()
            }
        }
        #expect(rig.journal.last?.event == JournalEntry.Event.runFinished)
        #expect(rig.journal.last?.detail == "interrupted")
        #expect(rig.journal.last?.files == 1)
    }

    @Test func forADurationEndsTheRunCompleteAndDeleteRemovesOnlySavedCardFiles() async throws {
        let rig = try await CaptureRig(width: 100, height: 68)
        defer { Task { await rig.close() } }
        // RAW+JPEG without --keep-jpeg: the JPEG is only the DNG's preview, so it stays on the card.
        #expect(await rig.camera.setBodyQuality(.rawPlusJPEG))
        let summary = try await Self.tether(
            rig, options: .init(duration: .milliseconds(1500), deleteAfter: true)
        ) {
            #expect(await rig.camera.pressShutter() == .ok)
        }
        #expect(summary.bodyShots == 1)
        #expect(rig.journal.last?.detail == "complete")
        let deleted = Self.lines(rig, JournalEntry.Event.objectDeleted).compactMap(\.handle)
        let saved = Self.lines(rig, JournalEntry.Event.fileWritten).compactMap(\.handle)
        #expect(deleted.count == 1)
        #expect(deleted == saved)
        let left = try await rig.session.getObjectHandles()
        #expect(!left.contains { deleted.contains($0.rawValue) })
        let kept = Self.lines(rig, JournalEntry.Event.objectNotSaved).compactMap(\.handle)
        #expect(kept.count == 1 && left.contains { kept.contains($0.rawValue) })
    }

    @Test func theCameraOriginalsAreSavedUnderOneStem() async throws {
        let rig = try await CaptureRig(width: 100, height: 68, model: .nikon)
        defer { Task { await rig.close() } }
        #expect(await rig.camera.setBodyQuality(.rawPlusJPEG))
        _ = try await Self.tether(rig, options: .init(original: true, count: 2)) {
            for _ in 0..<2 { #expect(await rig.camera.pressShutter() == .ok) }
        }
        let files = try rig.files()
        #expect(files.filter { $0.hasSuffix(".nef") }.count == 2, "\(files)")
        #expect(files.filter { $0.hasSuffix(".jpg") }.count == 2, "\(files)")
        #expect(Set(files.map { ($0 as NSString).deletingPathExtension }).count == 2)
        #expect(
            Self.lines(rig, JournalEntry.Event.fileWritten).map { $0.kind ?? "" }.sorted()
                == ["jpeg", "jpeg", "original", "original"])
    }

    /// Time from the camera announcing a body shot to its file on disk, less the file's `timings.total` (from the
    /// host seeing the announcement to the file on disk: download and conversion): what the wait for the announcement
    /// adds (the poll interval, for families that poll). Measured per family on the in-memory USB link.
    @Test(arguments: families)
    func theAnnouncementReachesTheHostWithoutAPollingDelay(family: String) async throws {
        let rig = try await CaptureRig(width: 100, height: 68, model: try CameraModel.named(family))
        defer { Task { await rig.close() } }
        let shots = 5
        let delays = Delays()
        _ = try await Self.tether(rig, options: .init(count: shots)) {
            for shot in 0..<shots {
                #expect(await rig.camera.pressShutter() == .ok)
                // pressShutter returns once the camera has stored and announced the shot.
                let announced = ContinuousClock.now
                try await Self.waitFor { rig.events.all.filter { if case .saved = $0 { true } else { false } }.count > shot }
                let onDisk = ContinuousClock.now
                guard case .saved(let file)? = rig.events.all.last(where: { if case .saved = $0 { true } else { false } }),
                    let timings = file.timings
                else { continue }
                // `total` runs from the host seeing the first announcement to the file on disk.
                delays.add((onDisk - announced) - .microseconds(Int64(timings.total * 1e6)))
            }
        }
        let median = delays.median
        print("tether \(family): announcement to host, median \(median) of \(delays.all)")
        // The waitFor loop checks every 2 ms; the family's poll is 20 ms.
        #expect(median < .milliseconds(50), "\(family): \(delays.all)")
    }

    static func waitFor(_ condition: @Sendable () -> Bool) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(60)
        while !condition() {
            guard clock.now < deadline else {
                Issue.record("timed out waiting")
                return
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}

final class Delays: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Duration] = []
    func add(_ value: Duration) { lock.withLock { values.append(value) } }
    var all: [Duration] { lock.withLock { values } }
    var median: Duration {
        let sorted = all.sorted()
        return sorted.isEmpty ? .zero : sorted[sorted.count / 2]
    }
}
