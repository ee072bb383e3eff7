import CameraEmulator
import Capture
import Foundation
import Logging
import PTP
import RawDecoders
import RawImage
import TestSupport
import Testing

/// The Fujifilm driver against the emulator's `fuji` personality (an X-T2 in USB tether mode): priority hand-over,
/// CaptureControl focus and release, ObjectAdded or the 0xD212 change list, RAF through LibRaw into X-Trans DNGs.
@Suite(.serialized) struct FujifilmCaptureTests {
    typealias Warnings = SonyCaptureTests.Warnings

    enum Reach: String, CaseIterable { case usb, fujiPTPIP }

    static func shoot(
        _ plan: ShootPlan, model: CameraModel = .fujifilm, faults: [EmulatorFault] = [],
        warnings: Warnings = Warnings(), reach: Reach = .usb
    ) async throws -> (CaptureRunner.Summary, EmulatedCamera, TemporaryDirectory) {
        let camera = try EmulatedCamera(
            model: model, configuration: .init(sensorWidth: 100, sensorHeight: 76, faults: faults))
        let link = reach == .usb ? EmulatorLink.usb(camera) : try await EmulatorLink.fujiPTPIP(camera)
        let session = PTPSession(transport: link.transport, configuration: .init(timeout: .seconds(10)))
        let folder = try TemporaryDirectory("fuji-capture")
        let store = try OutputStore(folder: folder.url.path)
        do {
            try await session.openSession()
            let runner = CaptureRunner(
                session: session, plan: plan, store: store, journal: try Journal(folder: store.folder),
                logger: warnings.logger, usbVendorID: reach == .usb ? .fujifilm : nil)
            let summary = try await runner.run()
            await link.close()
            return (summary, camera, folder)
        } catch {
            await link.close()
            throw error
        }
    }

    @Test(arguments: Reach.allCases)
    func rawShotsEndInXTransDNGsWithTheFujifilmIdentity(reach: Reach) async throws {
        let warnings = Warnings()
        let (summary, camera, folder) = try await Self.shoot(
            ShootPlan(format: .auto, count: 2), warnings: warnings, reach: reach)
        defer { withExtendedLifetime(folder) {} }
        #expect(summary.files.count == 2)
        #expect(warnings.messages.isEmpty, "\(warnings.messages)")
        for file in summary.files {
            #expect(file.path.hasSuffix(".dng"))
            let frame = try #require(try RawDecoder.decode(contentsOf: file.path).frame)
            #expect(frame.metadata.make == "Fujifilm")
            #expect(frame.metadata.model == "X-T2")
            #expect(frame.cfa.width == 6 && frame.cfa.height == 6)
            #expect(frame.blackLevels.allSatisfy { $0 == 512 })
        }
        let transcript = await camera.transcript
        // On Wi-Fi the session starts as libgphoto2's does (InitSequence 0xDF01, AppVersion 0xDF24); then priority is
        // handed over, then per shot: focus (0x0200) and release (0x0304), each with InitiateCapture.
        var writes = transcript.filter { $0.code == .setDevicePropValue }.compactMap(\.parameters.first)
        if reach == .fujiPTPIP {
            #expect(writes.prefix(2) == [0xDF01, 0xDF24])
            writes.removeFirst(min(2, writes.count))
        }
        #expect(writes.prefix(2) == [0xD38C, 0xD207])
        #expect(writes.filter { $0 == 0xD208 }.count == 4)
        #expect(transcript.filter { $0.code == .initiateCapture }.count == 4)
        let names = transcript.filter { $0.code == .getObjectInfo }.count
        #expect(names >= 2)
    }

    @Test(arguments: Reach.allCases)
    func rawPlusJPEGIsPairedAndTheQualityIsSetAndRestored(reach: Reach) async throws {
        let (summary, camera, folder) = try await Self.shoot(
            ShootPlan(format: .auto, count: 1, keepJPEG: true), reach: reach)
        defer { withExtendedLifetime(folder) {} }
        let names = summary.files.map { URL(fileURLWithPath: $0.path).lastPathComponent }.sorted()
        #expect(names.count == 2, "\(names)")
        #expect(Set(names.map { $0.split(separator: ".")[0] }).count == 1, "one stem: \(names)")
        let qualityWrites = await camera.transcript.filter {
            $0.code == .setDevicePropValue && $0.parameters.first == 0xD018
        }
        #expect(qualityWrites.count == 2, "set to RAW + JPEG Fine, then back")
        let session = PTPSession(transport: EmulatorLink.usb(camera).transport)
        try await session.openSession()
        #expect(try await session.getDevicePropValue(DevicePropertyCode.Fujifilm.quality, type: .uint16) == .uint16(1))
    }

    @Test func objectsAreFoundThroughTheChangeListWhenNoEventComes() async throws {
        let (summary, camera, folder) = try await Self.shoot(
            ShootPlan(format: .auto, count: 1), faults: [EmulatorFault(.loseEvent(.objectAdded, count: 1))])
        defer { withExtendedLifetime(folder) {} }
        #expect(summary.files.count == 1)
        #expect(await !camera.lostEvents.isEmpty)
        let polls = await camera.transcript.filter {
            $0.code == .getDevicePropValue && $0.parameters.first == 0xD212
        }
        #expect(!polls.isEmpty)
    }

    @Test func aBodyWithoutPriorityModeIsWarnedAboutOnceAndStillShoots() async throws {
        var model = CameraModel.fujifilm
        model.personality = .standard  // no tether properties: PriorityMode, CaptureControl, AFStatus absent
        model.realBodyProperties = []  // (the real X-T2's describe PriorityMode and CaptureControl)
        model.deviceInfoProperties = nil
        let warnings = Warnings()
        let (summary, _, folder) = try await Self.shoot(
            ShootPlan(format: .auto, count: 2), model: model, warnings: warnings)
        defer { withExtendedLifetime(folder) {} }
        #expect(summary.files.count == 2)
        let priority = warnings.messages.filter { $0.contains("PriorityMode") }
        #expect(priority.count == 1, "\(warnings.messages)")
        let changeList = warnings.messages.filter { $0.contains("0xD212") }
        #expect(changeList.count == 1, "\(warnings.messages)")
    }
}
