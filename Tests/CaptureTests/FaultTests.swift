import CameraEmulator
import Capture
import Foundation
import PTP
import RawDecoders
import Synchronization
import Testing

/// Each emulator fault, against the engine: a clear error, no partial file, earlier files intact, and a journal
/// that tells what happened.
@Suite(.serialized) struct FaultTests {
    static func faults(_ text: String) throws -> [EmulatorFault] { try EmulatorFault.parse([text]) }

    @Test func aBriefBusySpellIsRetried() async throws {
        let rig = try await CaptureRig(faults: try Self.faults("busy=3"))
        defer { Task { await rig.close() } }
        let summary = try await rig.shoot(ShootPlan(format: .bayer12, count: 1))
        #expect(summary.files.count == 1)
    }

    @Test func aCameraThatStaysBusyFailsClearly() async throws {
        let rig = try await CaptureRig(faults: try Self.faults("busy=50"))
        defer { Task { await rig.close() } }
        let plan = ShootPlan(
            format: .bayer12, count: 1, timing: CaptureTiming(busyAttempts: 3, busyDelay: .milliseconds(10)))
        await #expect(throws: CaptureError(.cameraBusy)) { _ = try await rig.shoot(plan) }
        #expect(try rig.files().isEmpty)
        #expect(rig.journal.last?.code == "cameraBusy")
    }

    @Test func aFullCardFailsBeforeAnythingIsWritten() async throws {
        let rig = try await CaptureRig(faults: try Self.faults("card-full"))
        defer { Task { await rig.close() } }
        await #expect(throws: CaptureError(.cardFull)) { _ = try await rig.shoot(ShootPlan(format: .bayer12)) }
        #expect(try rig.files().isEmpty)
        #expect(rig.journal.last?.event == "run-failed")
    }

    @Test(arguments: ["lose-event=objectadded", "lose-event=capturecomplete"])
    func lostEventsDoNotLoseTheShot(fault: String) async throws {
        let rig = try await CaptureRig(faults: try Self.faults(fault))
        defer { Task { await rig.close() } }
        let plan = ShootPlan(
            format: .bayer12, count: 2, keepJPEG: true,
            timing: CaptureTiming(shotTimeout: .seconds(20), lateGrace: .milliseconds(500)))
        let summary = try await rig.shoot(plan)
        #expect(summary.files.count == 4)
        #expect(try rig.files().count == 4)
    }

    @Test func objectsAnnouncedAfterCaptureCompleteArePaired() async throws {
        let rig = try await CaptureRig(eventOrder: .gphoto2)
        defer { Task { await rig.close() } }
        let summary = try await rig.shoot(ShootPlan(format: .bayer14, count: 2, keepJPEG: true))
        let names = try rig.files()
        #expect(names.count == 4)
        #expect(Set(names.map { $0.split(separator: ".")[0] }).count == 2)
        #expect(summary.files.filter { $0.format == "jpeg" }.count == 2)
    }

    @Test func aStalledDownloadResumesWhereItStopped() async throws {
        let rig = try await CaptureRig(faults: try Self.faults("stall=getpartialobject"))
        defer { Task { await rig.close() } }
        let summary = try await rig.shoot(ShootPlan(format: .bayer16, count: 1))
        let file = try #require(summary.files.first)
        let frame = try #require(try RawDecoder.decode(contentsOf: file.path).frame)
        #expect(frame.bitsPerSample == 16)
    }

    @Test func aDisconnectMidDownloadKeepsEarlierFilesAndResumeFetchesTheRest() async throws {
        // 256×192 at 16 bits: about 100 kB per raw file; the link breaks inside the second shot's download.
        let rig = try await CaptureRig(width: 256, height: 192, faults: try Self.faults("disconnect-after=160000"))
        defer { Task { await rig.close() } }
        do {
            _ = try await rig.shoot(ShootPlan(format: .bayer16, count: 3))
            Issue.record("the run should fail")
        } catch let error as TransportError {
            #expect(error.code == .disconnected)
        }
        let files = try rig.files()
        #expect(files.count == 1, "\(files)")
        #expect(!files.contains { $0.hasPrefix(".") })
        let first = try #require(files.first)
        #expect(try RawDecoder.decode(contentsOf: rig.store.path(first)).frame != nil)
        let journal = rig.journal
        #expect(journal.last?.event == "run-failed")
        #expect(journal.filter { $0.event == "object-announced" }.count == 2)
        #expect(journal.filter { $0.event == "file-written" }.count == 1)

        // Plug the camera back in: pull --resume fetches the shot the disconnect cut off.
        try await rig.reconnect()
        let puller = try rig.puller()
        let resumed = try await puller.pull(.resume, original: false, deleteAfter: false)
        #expect(resumed.count == 1)
        #expect(try rig.files().count == 2)
        #expect(try RawDecoder.decode(contentsOf: try #require(resumed.first).path).frame?.bitsPerSample == 16)
        let serial = try await rig.session.getDeviceInfo().serialNumber
        #expect(Puller.unfinishedKeys(rig.journal, serial: serial).isEmpty)
        // Nothing was deleted from the camera.
        #expect(try await rig.session.getObjectHandles().count >= 2)
    }

    /// Objects a run announced but did not save that the camera no longer has (a Nikon SDRAM shot, a shot a Canon
    /// EOS held for the host, one deleted from the card): `pull --resume` journals each as not saved, with why, once.
    @Test func resumeSaysWhichAnnouncedObjectsAreLostAndWhy() async throws {
        let rig = try await CaptureRig()
        defer { Task { await rig.close() } }
        _ = try await rig.shoot(ShootPlan(format: .bayer12, count: 1))
        let info = try await rig.session.getDeviceInfo()
        // An earlier tether's journal: a shot announced in camera memory, one announced on the card, neither saved.
        let earlier = try Journal(folder: rig.store.folder)
        earlier.camera = info.model
        earlier.serial = info.serialNumber
        var sdram = JournalEntry(JournalEntry.Event.objectAnnounced)
        sdram.shot = 4
        sdram.handle = 0xFFFF_0001
        sdram.cameraFile = "DSC_0005.NEF"
        sdram.captureDate = "20261129T120000"
        sdram.storage = 0
        try earlier.record(sdram)
        var card = sdram
        card.handle = 0x0001_0042
        card.cameraFile = "DSC_0006.NEF"
        card.storage = 0x0001_0001
        try earlier.record(card)

        let resumed = try await rig.puller().pull(.resume, original: false, deleteAfter: false)
        #expect(resumed.isEmpty)
        let names: Set<String?> = ["DSC_0005.NEF", "DSC_0006.NEF"]
        func notSavedEntries() -> [JournalEntry] {
            rig.journal.filter { $0.event == JournalEntry.Event.objectNotSaved && names.contains($0.cameraFile) }
        }
        let notSaved = notSavedEntries()
        #expect(notSaved.map(\.cameraFile) == ["DSC_0005.NEF", "DSC_0006.NEF"])
        #expect(notSaved.first?.detail?.contains("held only in the camera's memory") == true, "\(notSaved)")
        #expect(notSaved.last?.detail?.contains("no longer on the camera's card") == true, "\(notSaved)")
        #expect(Puller.unfinishedKeys(rig.journal, serial: info.serialNumber).isEmpty)
        // Said once: a second resume finds nothing left to explain.
        _ = try await rig.puller().pull(.resume, original: false, deleteAfter: false)
        #expect(notSavedEntries().count == 2)
    }
}

/// A camera whose DeviceInfo lists no CaptureComplete (libgphoto2 flags such bodies per model): the generic driver is
/// done once the objects stop coming, not at the shot timeout.
@Suite struct NoCaptureCompleteTests {
    @Test func aCameraWithoutCaptureCompleteIsDoneWhenItsObjectsStop() async throws {
        var model = CameraModel.generic
        model.eventsSupported = [.objectAdded, .storeFull]
        let rig = try await CaptureRig(
            faults: [EmulatorFault(.loseEvent(.captureComplete, count: 1000))], model: model)
        defer { Task { await rig.close() } }
        let clock = ContinuousClock()
        let lastAnnounced = Mutex<ContinuousClock.Instant?>(nil)
        let objects = try await StandardCaptureDriver().capture(
            session: rig.session, expecting: nil,
            timing: CaptureTiming(shotTimeout: .seconds(300), lateGrace: .milliseconds(300)),
            announce: { _ in lastAnnounced.withLock { $0 = clock.now } })
        let ended = clock.now
        #expect(!objects.isEmpty)
        // Without the rule the shot ends at the 300 s timeout, however soon the object came; with it, a lateGrace
        // after the object (the bound leaves room for a loaded machine).
        let since = try #require(lastAnnounced.withLock { $0 })
        #expect(ended - since < .seconds(60))
    }
}
