import CameraEmulator
import Capture
import Foundation
import Logging
import PTP
import RawDecoders
import RawImage
import TestSupport
import Testing

/// `rawcap shoot`'s engine against the `canon` personality: EOS remote release, GetEvent records, CR2 through LibRaw.
@Suite(.serialized) struct CanonCaptureTests {
    /// The ImageFormat the body reports now, read as a fresh host would.
    static func imageFormat(_ rig: CaptureRig) async throws -> CanonEOSImageFormat? {
        try await rig.session.canonSetEventMode()
        let list = try await rig.session.canonGetEvents()
        return try list.propertyValues[UInt32(CanonEOSImageFormat.property.rawValue)].map {
            try CanonEOSImageFormat(ptpEncoded: $0)
        }
    }

    @Test(arguments: [CaptureRig.Reach.usb, .ptpipInMemory, .ptpipLoopback])
    func aRawShotIsHeldForTheHostAndEndsInA5DMarkIVDNG(reach: CaptureRig.Reach) async throws {
        let frames = RenderedFrames()
        let rig = try await CaptureRig(
            width: 160, height: 120, model: .canon, reach: reach, renderedFrameHandler: frames.append)
        defer { Task { await rig.close() } }
        let summary = try await rig.shoot(ShootPlan(format: .auto, count: 2))
        #expect(summary.format.description == "bayer", "a 5D Mark IV has no bit depth to choose")
        #expect(summary.files.count == 2)
        for (file, rendered) in zip(summary.files, frames.all) {
            let frame = try #require(try RawDecoder.decode(contentsOf: file.path).frame)
            #expect(frame.metadata.make == "Canon")
            #expect(frame.metadata.model == "EOS 5D Mark IV")
            #expect(frame.samples == rendered.samples, "the DNG holds exactly the CR2's readout")
            #expect(frame.activeArea == rendered.activeArea)
            #expect(frame.blackLevels.allSatisfy { $0 == rendered.blackLevels[0] })
        }
        let transcript = await rig.camera.transcript
        let codes = transcript.map(\.code)
        for code in [
            OperationCode.Canon.setRemoteMode, OperationCode.Canon.setEventMode, OperationCode.Canon.getEvent,
            OperationCode.Canon.remoteReleaseOn, OperationCode.Canon.remoteReleaseOff,
            OperationCode.Canon.pcHDDCapacity,
        ] {
            #expect(codes.contains(code), "\(code)")
        }
        #expect(codes.filter { $0 == OperationCode.Canon.transferComplete }.count == 2, "one per held object")
        #expect(transcript.filter { $0.code == OperationCode.Canon.transferComplete }.allSatisfy { $0.response == .ok })
        let announced = rig.journal.filter { $0.event == "object-announced" }
        #expect(announced.map(\.cameraFile) == ["IMG_0001.CR2", "IMG_0002.CR2"])
        #expect(announced.map(\.objectFormat) == [0xB103, 0xB103])
        #expect(try await rig.session.getObjectHandles().isEmpty, "held for the host: the card is untouched")
        // The remote session ends as libgphoto2 ends it: remote and event mode off, last of all.
        let modes = transcript.filter {
            [OperationCode.Canon.setRemoteMode, OperationCode.Canon.setEventMode].contains($0.code)
        }
        #expect(modes.suffix(2).map(\.parameters) == [[0], [0]], "\(modes)")
        #expect(
            transcript.last.map { [OperationCode.Canon.setRemoteMode, .Canon.setEventMode].contains($0.code) } == true)
    }

    @Test func rawPlusJPEGSetsImageFormatPairsTheFilesAndRestoresIt() async throws {
        let rig = try await CaptureRig(width: 160, height: 120, model: .canon)
        defer { Task { await rig.close() } }
        let summary = try await rig.shoot(ShootPlan(format: .auto, count: 2, keepJPEG: true))
        #expect(summary.files.count == 4)
        try rig.expectRawJPEGPairs(2)
        let sets = await rig.camera.transcript.filter { $0.code == OperationCode.Canon.setDevicePropValueEx }
        #expect(sets.count == 4, "destination host, RAW+JPEG, RAW again, destination back")
        #expect(try await Self.imageFormat(rig) == .raw)
    }

    @Test func aBodyThatCannotBeSetWarnsOnceAndShootsToItsCard() async throws {
        var model = CameraModel.canon
        model.operationsSupported.removeAll { $0 == OperationCode.Canon.setDevicePropValueEx }
        let rig = try await CaptureRig(width: 160, height: 120, model: model)
        defer { Task { await rig.close() } }
        let warnings = LogCollector(minimum: .warning)
        let runner = CaptureRunner(
            session: rig.session, plan: ShootPlan(format: .auto, count: 2, keepJPEG: true), store: rig.store,
            journal: try Journal(folder: rig.store.folder), logger: warnings.logger, observer: rig.events.append)
        let summary = try await runner.run()
        #expect(summary.files.count == 2, "RAW only, as the body is set")
        let messages = warnings.messages
        #expect(messages.filter { $0.contains("SetDevicePropValueEx") }.count == 1, "\(messages)")
        // Written to the card and announced with ObjectAddedEx: nothing to transfer-complete.
        #expect(try await rig.session.getObjectHandles().count >= 2)
        #expect(!(await rig.camera.transcript.map(\.code).contains(OperationCode.Canon.transferComplete)))
    }
}
