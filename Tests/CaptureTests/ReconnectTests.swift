import CameraEmulator
import Capture
import Foundation
import Logging
import PTP
import Testing

/// `--reconnect` against the engine: the emulated camera leaves its link (a power cycle in the middle of a
/// download, a sleep after an idle time) and comes back with the same serial number; the run waits, reopens the
/// session, fetches what was announced, misses (never fires late) what fell due meanwhile, and a keep-alive keeps
/// an idle camera awake.
@Suite(.serialized) struct ReconnectTests {
    static func faults(_ text: String) throws -> [EmulatorFault] { try EmulatorFault.parse([text]) }

    /// A reconnector that finds `camera` again over `reach` while it is on its link (as `CameraConnector` does for
    /// `--camera sim`: a camera away from the bus is no camera).
    static func reconnector(
        _ camera: EmulatedCamera, reach: CaptureRig.Reach = .usb, timeout: Duration = .seconds(30)
    ) -> CameraReconnector {
        CameraReconnector(options: .init(timeout: timeout, retryInterval: .milliseconds(100))) { _ in
            guard await camera.acceptsConnection() else {
                throw TransportError(.disconnected, "the camera is away")
            }
            let link: EmulatorLink =
                switch reach {
                case .usb: EmulatorLink.usb(camera)
                case .ptpipInMemory: try await EmulatorLink.ptpip(camera)
                case .ptpipLoopback: try await CaptureRig.loopback(camera)
                }
            return CameraReconnector.Link(
                session: PTPSession(transport: link.transport, configuration: .init(timeout: .seconds(10))),
                location: "\(reach)", close: { await link.close() })
        }
    }

    /// Each frame index of the run once: a file written for it, or a `shot-missed`, never both.
    static func framesAccountedFor(_ journal: [JournalEntry], count: Int) -> (written: Set<Int>, missed: Set<Int>) {
        let written = Set(journal.filter { $0.event == "file-written" && $0.kind == "dng" }.compactMap(\.shot))
        let missedEntries = journal.filter { $0.event == "shot-missed" }.compactMap(\.shot)
        let missed = Set(missedEntries)
        #expect(missed.count == missedEntries.count, "a frame missed twice: \(missedEntries)")
        #expect(written.isDisjoint(with: missed), "written and missed: \(written.intersection(missed))")
        #expect(written.union(missed) == Set(0..<count), "written \(written.sorted()), missed \(missed.sorted())")
        let dngs = journal.filter { $0.event == "file-written" && $0.kind == "dng" }
        #expect(dngs.count == written.count, "a frame written twice")
        return (written, missed)
    }

    @Test(arguments: [CaptureRig.Reach.usb, .ptpipLoopback])
    func aPowerCycleMidDownloadIsWaitedForAndTheShotFetched(reach: CaptureRig.Reach) async throws {
        let rig = try await CaptureRig(faults: try Self.faults("disappear-after=2:500ms"), reach: reach)
        defer { Task { await rig.close() } }
        var runner = try rig.runner(ShootPlan(format: .bayer12, count: 4, keepJPEG: true))
        runner.reconnector = Self.reconnector(rig.camera, reach: reach)
        let summary = try await runner.run()
        #expect(summary.files.count == 8)
        try rig.expectRawJPEGPairs(4)
        let journal = rig.journal
        #expect(journal.filter { $0.event == "camera-lost" }.count == 1)
        #expect(journal.filter { $0.event == "camera-back" }.count == 1)
        #expect(journal.first { $0.event == "camera-lost" }?.shot == 1)
        let (_, missed) = Self.framesAccountedFor(journal, count: 4)
        #expect(missed.isEmpty)
        #expect(await rig.camera.departures == 1)
        #expect(rig.events.all.contains { if case .cameraBack = $0 { true } else { false } })
        // The camera was away half a second from its own view; the host notices the loss later on a loaded machine,
        // so its measure is shorter, never absent or absurd.
        let away = try #require(journal.first { $0.event == "camera-back" }?.seconds)
        #expect(away > 0 && away < 10, "\(away)")
    }

    @Test func framesDueWhileTheCameraIsAwayAreMissedNotFiredLate() async throws {
        let rig = try await CaptureRig(faults: try Self.faults("disappear-after=2:1500ms"))
        defer { Task { await rig.close() } }
        var runner = try rig.runner(
            ShootPlan(format: .bayer12, count: 10, interval: .milliseconds(400)))
        runner.reconnector = Self.reconnector(rig.camera)
        let summary = try await runner.run()
        let journal = rig.journal
        let (written, missed) = Self.framesAccountedFor(journal, count: 10)
        #expect(missed.count >= 2, "missed \(missed.sorted())")
        // The run went on after the camera came back: frames after the missed ones are on disk.
        #expect(written.contains(0) && written.contains(1))
        #expect((written.max() ?? 0) > (missed.max() ?? 0), "written \(written.sorted()), missed \(missed.sorted())")
        #expect(summary.missed.sorted() == missed.sorted())
        // No frame was fired for a missed slot: every frame requested after the camera came back was due after the
        // last missed one (the schedule goes on where it was, nothing is fired late in a burst).
        let requested = Set(journal.filter { $0.event == "shot-requested" }.compactMap(\.shot))
        #expect(requested.isDisjoint(with: missed.subtracting([1])))
        let backIndex = try #require(journal.firstIndex { $0.event == "camera-back" })
        // (A run already behind when the camera left still shoots its backlog, frames due before the loss.)
        let missedDue = journal.filter { $0.event == "shot-missed" }.compactMap(\.scheduled)
        let absence = (missedDue.min() ?? 0)...(missedDue.max() ?? 0)
        for entry in journal[backIndex...] where entry.event == "shot-requested" {
            #expect(!absence.contains(entry.scheduled ?? -1), "frame \(entry.shot ?? -1) was due in the absence")
        }
    }

    @Test func aKeepAliveKeepsAnIdleCameraAwake() async throws {
        let rig = try await CaptureRig(faults: try Self.faults("sleep-after=1500ms:300ms"))
        defer { Task { await rig.close() } }
        var runner = try rig.runner(ShootPlan(format: .bayer12, count: 3, interval: .milliseconds(3000)))
        runner.reconnector = Self.reconnector(rig.camera)
        runner.keepAlive = .milliseconds(200)
        let summary = try await runner.run()
        #expect(summary.files.count == 3)
        #expect(await rig.camera.departures == 0)
        #expect(!rig.journal.contains { $0.event == "camera-lost" })
    }

    /// On a Canon EOS the keep-alive between frames is EOS KeepDeviceOn (0x911D), the request libgphoto2's
    /// `camera_keep_device_on` sends, not GetDeviceInfo.
    @Test func aCanonKeepAliveIsKeepDeviceOn() async throws {
        let rig = try await CaptureRig(model: .canon)
        defer { Task { await rig.close() } }
        var runner = try rig.runner(ShootPlan(format: .auto, count: 2, interval: .milliseconds(1500)))
        runner.keepAlive = .milliseconds(200)
        let summary = try await runner.run()
        #expect(summary.files.count == 2)
        let codes = await rig.camera.transcript.map(\.code)
        let keepAlives = codes.filter { $0 == OperationCode.Canon.keepDeviceOn }.count
        #expect(keepAlives >= 3, "\(keepAlives) KeepDeviceOn")
        // GetDeviceInfo only as the run reads who the camera is, not once per keep-alive.
        #expect(codes.filter { $0 == .getDeviceInfo }.count < keepAlives, "\(codes)")
    }

    /// A Canon EOS tether waiting for a press pings the body with KeepDeviceOn as `camera_wait_for_event` does (at
    /// most every `keepDeviceOnInterval`, 10 s as in libgphoto2; shorter here).
    @Test func aCanonWaitingForABodyShotKeepsTheBodyOn() async throws {
        let rig = try await CaptureRig(model: .canon)
        defer { Task { await rig.close() } }
        let identity = try await rig.session.cameraIdentity()
        var driver = try #require(CameraProfile.select(for: identity).driver as? CanonEOSCaptureDriver)
        driver.keepDeviceOnInterval = .milliseconds(100)
        try await driver.prepare(session: rig.session, logger: Logger(label: "test"))
        try await driver.prepareBodyShots(session: rig.session, logger: Logger(label: "test"))
        let objects = try await driver.bodyShot(
            session: rig.session, expecting: 1, timing: CaptureTiming(), wait: .milliseconds(700), seen: [],
            announce: { _ in })
        #expect(objects.isEmpty)
        let pings = await rig.camera.transcript.filter { $0.code == OperationCode.Canon.keepDeviceOn }.count
        #expect(pings >= 2 && pings <= 8, "\(pings) KeepDeviceOn in 0.7 s at most every 0.1 s")
        await driver.finish(session: rig.session, logger: Logger(label: "test"))
    }

    @Test func aCameraThatSleepsBetweenFramesIsWaitedFor() async throws {
        let rig = try await CaptureRig(faults: try Self.faults("sleep-after=600ms:300ms"))
        defer { Task { await rig.close() } }
        var runner = try rig.runner(ShootPlan(format: .bayer12, count: 3, interval: .milliseconds(1500)))
        runner.reconnector = Self.reconnector(rig.camera)
        _ = try await runner.run()
        let journal = rig.journal
        #expect(await rig.camera.departures >= 1)
        #expect(journal.contains { $0.event == "camera-lost" })
        #expect(journal.filter { $0.event == "camera-lost" }.count == journal.filter { $0.event == "camera-back" }.count)
        _ = Self.framesAccountedFor(journal, count: 3)
        #expect(journal.last?.event == "run-finished")
    }

    @Test func withoutReconnectTheRunFailsAsBefore() async throws {
        let rig = try await CaptureRig(faults: try Self.faults("disappear-after=1:300ms"))
        defer { Task { await rig.close() } }
        await #expect(throws: (any Error).self) {
            _ = try await rig.shoot(ShootPlan(format: .bayer12, count: 3))
        }
        #expect(rig.journal.last?.event == "run-failed")
        #expect(!rig.journal.contains { $0.event == "camera-lost" })
    }

    @Test func aStopDuringTheWaitEndsTheRunAsInterrupted() async throws {
        let rig = try await CaptureRig(faults: try Self.faults("disappear-after=1:60s"))
        defer { Task { await rig.close() } }
        let stop = StopSignal()
        var runner = try rig.runner(ShootPlan(format: .bayer12, count: 3), stop: stop)
        runner.reconnector = Self.reconnector(rig.camera)
        let run = Task { try await runner.run() }
        let deadline = ContinuousClock.now + .seconds(60)
        while !rig.journal.contains(where: { $0.event == "camera-lost" }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        try #require(rig.journal.contains { $0.event == "camera-lost" })
        let asked = ContinuousClock.now
        stop.request()
        await #expect(throws: CaptureError(.interrupted)) { _ = try await run.value }
        #expect(ContinuousClock.now - asked < .seconds(10))
        #expect(rig.journal.last?.event == "run-failed")
        #expect(rig.journal.last?.code == "interrupted")
        #expect(!rig.journal.contains { $0.event == "camera-back" })
    }

    @Test func theWaitEndsAfterTheReconnectTimeout() async throws {
        let rig = try await CaptureRig(faults: try Self.faults("disappear-after=1:60s"))
        defer { Task { await rig.close() } }
        var runner = try rig.runner(ShootPlan(format: .bayer12, count: 3))
        runner.reconnector = Self.reconnector(rig.camera, timeout: .milliseconds(700))
        await #expect(throws: CaptureError(.cameraGone)) { _ = try await runner.run() }
        #expect(rig.journal.last?.code == "cameraGone")
    }

    /// The lost link is let go before the camera is looked for (a camera that only timed out still holds it), and
    /// each link is closed once: the first at the loss, the reconnected one by `closeLinks()`.
    @Test func eachLinkIsClosedOnce() async throws {
        let rig = try await CaptureRig(faults: try Self.faults("disappear-after=1:300ms"))
        defer { Task { await rig.close() } }
        let closes = Closes()
        let camera = rig.camera
        let reconnector = CameraReconnector(
            options: .init(timeout: .seconds(30), retryInterval: .milliseconds(100)),
            closeFirstLink: { closes.add("first") }
        ) { _ in
            guard await camera.acceptsConnection() else { throw TransportError(.disconnected, "away") }
            let link = EmulatorLink.usb(camera)
            return CameraReconnector.Link(
                session: PTPSession(transport: link.transport), location: "usb",
                close: {
                    closes.add("second")
                    await link.close()
                })
        }
        var runner = try rig.runner(ShootPlan(format: .bayer12, count: 2))
        runner.reconnector = reconnector
        _ = try await runner.run()
        #expect(closes.names == ["first"])
        await reconnector.closeLinks()
        await reconnector.closeLinks()
        #expect(closes.names == ["first", "second"])
        #expect(reconnector.returnCount == 1)
    }

    @Test func aPullGoesOnWhereItWasAfterTheLinkBreaks() async throws {
        let rig = try await CaptureRig(faults: try Self.faults("disconnect-after=60000"))
        defer { Task { await rig.close() } }
        // Three RAW+JPEG shots on the card, nothing downloaded yet.
        for _ in 0..<3 {
            try await rig.session.initiateCapture()
            await rig.camera.waitForCapture()
        }
        while try await rig.session.nextEvent(timeout: .milliseconds(10)) != nil {}
        var puller = try rig.puller()
        puller.reconnector = Self.reconnector(rig.camera)
        let files = try await puller.pull(.all, original: true, deleteAfter: false)
        let journal = rig.journal
        #expect(journal.filter { $0.event == "camera-lost" }.count == 1)
        #expect(journal.filter { $0.event == "camera-back" }.count == 1)
        let written = journal.filter { $0.event == "file-written" }.compactMap(\.cameraFile)
        #expect(written.count == Set(written).count, "written twice: \(written)")
        let onCard = try await rig.puller().list()
        #expect(Set(written) == Set(onCard.map(\.info.filename)))
        #expect(files.count == onCard.count)
        #expect(try rig.files().count == onCard.count)
    }
}

/// Which links were closed, in order.
private final class Closes: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    func add(_ name: String) { lock.withLock { stored.append(name) } }

    var names: [String] { lock.withLock { stored } }
}
