import CameraEmulator
import Capture
import Foundation
import PTP
import Testing

/// `shoot --keep-on-card`: each family's card capture target, so the camera's files stay on its card as a backup
/// while rawcap saves its own copies.
@Suite(.serialized) struct KeepOnCardTests {
    /// The names of the files on the emulated camera's card.
    static func cardFiles(_ rig: CaptureRig) async throws -> [String] {
        var names: [String] = []
        for handle in try await rig.session.getObjectHandles(storage: EmulatedCamera.cardStorageID) {
            let info = try await rig.session.getObjectInfo(handle)
            if info.objectFormat != .association { names.append(info.filename) }
        }
        return names.sorted()
    }

    @Test(arguments: ["generic", "nikon", "canon", "sony", "fuji"])
    func theShotsStayOnTheCard(family: String) async throws {
        let rig = try await CaptureRig(width: 160, height: 120, model: try CameraModel.named(family))
        defer { Task { await rig.close() } }
        var plan = ShootPlan(format: .auto, count: 2)
        plan.keepOnCard = true
        let summary = try await rig.shoot(plan)
        #expect(summary.files.count == 2)
        let announced = rig.journal.filter { $0.event == JournalEntry.Event.objectAnnounced }.compactMap(\.cameraFile)
        #expect(announced.count == 2)
        let onCard = try await Self.cardFiles(rig)
        #expect(onCard == announced.sorted(), "the card keeps the shots: \(onCard) vs \(announced)")
        let start = try #require(rig.journal.first { $0.event == JournalEntry.Event.runStarted })
        #expect(start.detail?.contains("kept on the camera's card") == true)
    }

    /// Without the option, the vendor bodies shoot to their memory (Nikon SDRAM, Canon host, Sony host, Fujifilm
    /// with MediaRecord off): the card stays empty.
    @Test(arguments: ["nikon", "canon", "sony", "fuji"])
    func withoutTheOptionTheCardStaysEmpty(family: String) async throws {
        let rig = try await CaptureRig(width: 160, height: 120, model: try CameraModel.named(family))
        defer { Task { await rig.close() } }
        let summary = try await rig.shoot(ShootPlan(format: .auto, count: 1))
        #expect(summary.files.count == 1)
        #expect(try await Self.cardFiles(rig).isEmpty)
    }

    /// Bulb with the card target: the Nikon's bulb shot goes to its card too.
    @Test func aNikonBulbShotStaysOnTheCard() async throws {
        let rig = try await CaptureRig(width: 160, height: 120, model: .nikon)
        defer { Task { await rig.close() } }
        var plan = ShootPlan(format: .auto, count: 1)
        plan.keepOnCard = true
        plan.exposure = ExposureRequest(duration: .seconds(1), forceBulb: true)
        let summary = try await rig.shoot(plan)
        #expect(summary.files.count == 1)
        #expect(try await Self.cardFiles(rig).count == 1)
        let record = try #require(await rig.camera.bulbExposures.last)
        #expect(record.openedBy == OperationCode.Nikon.initiateCaptureRecInMedia)
    }

    /// The Sony's StillImageStoreDestination is card+SDRAM for the run and put back afterwards.
    @Test func theSonyStoreDestinationIsPutBack() async throws {
        let rig = try await CaptureRig(width: 160, height: 120, model: .sony)
        defer { Task { await rig.close() } }
        var plan = ShootPlan(format: .auto, count: 1)
        plan.keepOnCard = true
        _ = try await rig.shoot(plan)
        let set = await rig.camera.transcript.filter {
            $0.code == OperationCode.Sony.setControlDeviceA && $0.parameters.first == 0xD222
        }
        #expect(set.count == 2, "set to card+SDRAM, then back")
        let after = try await rig.session.sonyGetAllDevicePropData()[SonyControl.storeDestinationProperty]
        #expect(after?.currentValue == .uint16(SonyControl.storeOnHost))
    }

    /// Fujifilm: MediaRecord (0xD20C) is 1 (RAW+JPEG on the card) for the run, set once the host has priority, and
    /// put back to the body's 4 (off) afterwards.
    @Test func theFujifilmMediaRecordIsSetAndPutBack() async throws {
        let rig = try await CaptureRig(width: 160, height: 120, model: .fujifilm)
        defer { Task { await rig.close() } }
        var plan = ShootPlan(format: .auto, count: 1)
        plan.keepOnCard = true
        _ = try await rig.shoot(plan)
        let transcript = await rig.camera.transcript
        let writes = transcript.enumerated().filter {
            $0.element.code == .setDevicePropValue && $0.element.parameters.first == 0xD20C
        }
        #expect(writes.count == 2, "set to 1, then back: \(transcript.map(\.code))")
        let priority = try #require(
            transcript.firstIndex { $0.code == .setDevicePropValue && $0.parameters.first == 0xD207 })
        #expect(writes.first.map { $0.offset > priority } == true, "MediaRecord is set after PriorityMode")
        let after = try await rig.session.getDevicePropValue(FujifilmCapture.mediaRecordProperty, type: .uint16)
        #expect(after == .uint16(FujifilmCapture.mediaRecordOff))
    }

    /// A Fujifilm body that lists no MediaRecord: a clear error before anything is fired.
    @Test func aFujifilmBodyWithoutMediaRecordIsRefused() async throws {
        var model = CameraModel.fujifilm
        model.deviceInfoProperties?.removeAll { $0 == FujifilmCapture.mediaRecordProperty }
        let rig = try await CaptureRig(width: 160, height: 120, model: model)
        defer { Task { await rig.close() } }
        var plan = ShootPlan(format: .auto, count: 1)
        plan.keepOnCard = true
        await #expect(throws: CaptureError(.cardCopyUnavailable)) { try await rig.shoot(plan) }
        let codes = await rig.camera.transcript.map(\.code)
        #expect(!codes.contains(.initiateCapture))
    }
}
