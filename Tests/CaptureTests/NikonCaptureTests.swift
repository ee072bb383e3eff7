import CameraEmulator
import Capture
import Foundation
import Logging
import PTP
import RawDecoders
import RawImage
import TestSupport
import Testing

/// Frames the emulated sensor rendered, in order.
final class RenderedFrames: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [RawFrame] = []
    func append(_ frame: RawFrame) { lock.withLock { stored.append(frame) } }
    var all: [RawFrame] { lock.withLock { stored } }
}

/// `rawcap shoot`'s engine against the `nikon` personality: SDRAM capture, Nikon GetEvent, NEF through LibRaw.
@Suite(.serialized) struct NikonCaptureTests {
    static func activeSamples(_ frame: RawFrame) -> [UInt16] {
        let area = frame.activeArea
        var samples: [UInt16] = []
        for row in area.y..<(area.y + (area.height & ~1)) {
            for column in area.x..<(area.x + (area.width & ~1)) {
                samples.append(frame.sample(row: row, column: column))
            }
        }
        return samples
    }

    static func runner(_ rig: CaptureRig, _ plan: ShootPlan, logger: Logger) throws -> CaptureRunner {
        CaptureRunner(
            session: rig.session, plan: plan, store: rig.store, journal: try Journal(folder: rig.store.folder),
            logger: logger, observer: rig.events.append)
    }

    @Test(arguments: [CaptureRig.Reach.usb, .ptpipInMemory, .ptpipLoopback])
    func aRawShotIsANEFInSDRAMAndEndsInAD850DNG(reach: CaptureRig.Reach) async throws {
        let frames = RenderedFrames()
        let rig = try await CaptureRig(
            width: 160, height: 120, model: .nikon, reach: reach, renderedFrameHandler: frames.append)
        defer { Task { await rig.close() } }
        let summary = try await rig.shoot(ShootPlan(format: .auto, count: 2))
        #expect(summary.format.description == "bayer14")
        #expect(summary.files.count == 2)
        #expect(frames.all.count == 2)
        for (file, rendered) in zip(summary.files, frames.all) {
            let frame = try #require(try RawDecoder.decode(contentsOf: file.path).frame)
            #expect(frame.metadata.make == "Nikon")
            #expect(frame.metadata.model == "D850")
            #expect(frame.samples == Self.activeSamples(rendered), "the DNG holds exactly the NEF's samples")
            #expect(frame.bitsPerSample == 14)
            #expect(frame.blackLevels.allSatisfy { $0 == rendered.blackLevels[0] })
        }
        let codes = await rig.camera.transcript.map(\.code)
        #expect(codes.contains(OperationCode.Nikon.initiateCaptureRecInSdram))
        #expect(codes.contains(OperationCode.Nikon.deviceReady))
        #expect(codes.contains(OperationCode.Nikon.getEvent))
        #expect(!codes.contains(.initiateCapture), "SDRAM capture, not the standard one")
        // The journal names the camera's file and handle.
        let announced = rig.journal.filter { $0.event == "object-announced" }
        #expect(announced.map(\.cameraFile) == ["DSC_0001.NEF", "DSC_0002.NEF"])
        #expect(announced.map(\.handle) == [0xFFFF_0001, 0xFFFF_0001])
        #expect(announced.map(\.objectFormat) == [0x3000, 0x3000])
        // Shots went to SDRAM: the card is untouched; afterwards the camera records to the card again.
        #expect(try await rig.session.getObjectHandles().isEmpty)
        #expect(
            try await rig.session.getDevicePropValue(NikonRecordingMedia.property, type: .uint8)
                == .uint8(NikonRecordingMedia.card.rawValue))
        #expect(codes.filter { $0 == .setDevicePropValue }.count >= 2, "set to SDRAM, then back")
    }

    @Test func rawPlusJPEGPairsTheNEFWithItsJPEGAndRestoresTheQuality() async throws {
        let rig = try await CaptureRig(width: 160, height: 120, model: .nikon)
        defer { Task { await rig.close() } }
        #expect(try await rig.value(.compressionSetting) == .uint8(7), "the D850's NEF")
        let summary = try await rig.shoot(ShootPlan(format: .auto, count: 2, keepJPEG: true))
        #expect(summary.files.count == 4)
        try rig.expectRawJPEGPairs(2)
        let announced = rig.journal.filter { $0.event == "object-announced" }
        #expect(announced.map(\.handle) == [0xFFFF_0001, 0xFFFF_0002, 0xFFFF_0001, 0xFFFF_0002])
        // NEF+Fine (12 on a D850) during the run; NEF (7) again afterwards.
        let sets = await rig.camera.transcript.filter { $0.code == .setDevicePropValue }.map(\.parameters)
        #expect(sets.contains([UInt32(DevicePropertyCode.compressionSetting.rawValue)]))
        #expect(try await rig.value(.compressionSetting) == .uint8(7))
    }

    /// What a D850 run sets: NEF is 7 and NEF + Fine 12 in its numbering (4 would be JPEG Fine), and a setting the
    /// camera had before (JPEG Normal, 2) comes back afterwards.
    @Test(arguments: [(false, 7), (true, 12)])
    func aD850RunSetsItsOwnNumbersAndRestoresTheSetting(keepJPEG: Bool, expected: Int) async throws {
        let rig = try await CaptureRig(width: 160, height: 120, model: .nikon)
        defer { Task { await rig.close() } }
        try await rig.session.setDevicePropValue(.compressionSetting, .uint8(2))
        let log = LogCollector(minimum: .debug)
        let summary = try await Self.runner(
            rig, ShootPlan(format: .bayer14, count: 1, keepJPEG: keepJPEG), logger: log.logger
        ).run()
        #expect(summary.files.map(\.format) == (keepJPEG ? ["bayer14", "jpeg"] : ["bayer14"]))
        #expect(log.messages.contains("set quality=\(expected)"), "\(log.messages)")
        #expect(log.messages.contains { $0.contains("optimal-quality numbering") }, "\(log.messages)")
        #expect(try await rig.value(.compressionSetting) == .uint8(2), "JPEG Normal again")
    }

    /// A value the body does not enumerate is never set: a D850 without NEF + Fine gets NEF + Fine★ (13).
    @Test func aValueTheBodyDoesNotOfferIsNeverSet() async throws {
        var model = CameraModel.nikon
        model.qualityValues.removeAll { $0.value == .uint8(12) }
        let rig = try await CaptureRig(width: 160, height: 120, model: model)
        defer { Task { await rig.close() } }
        let log = LogCollector(minimum: .debug)
        let summary = try await Self.runner(rig, ShootPlan(format: .auto, count: 1, keepJPEG: true), logger: log.logger)
            .run()
        #expect(summary.files.count == 2)
        #expect(log.messages.contains("set quality=13"), "\(log.messages)")
    }

    /// An older body keeps the numbering it has always had: NEF 4, NEF + Fine 7 (a D810, which libgphoto2 reads
    /// with its table for unlisted Nikons).
    @Test func anOlderBodyKeepsTheClassicNumbering() async throws {
        var model = CameraModel.nikon
        model.model = "D810"
        model.qualityValues =
            (0...2).map { CameraModel.QualityValue(value: .uint8($0), quality: .jpeg) }
            + [CameraModel.QualityValue(value: .uint8(4), quality: .raw)]
            + (5...7).map { CameraModel.QualityValue(value: .uint8($0), quality: .rawPlusJPEG) }
        let rig = try await CaptureRig(width: 160, height: 120, model: model)
        defer { Task { await rig.close() } }
        try await rig.session.setDevicePropValue(.compressionSetting, .uint8(2))
        let log = LogCollector(minimum: .debug)
        let raw = try await Self.runner(rig, ShootPlan(format: .bayer14, count: 1), logger: log.logger).run()
        #expect(raw.files.map(\.format) == ["bayer14"])
        #expect(log.messages.contains("set quality=4"), "\(log.messages)")
        let pair = try await Self.runner(rig, ShootPlan(format: .auto, count: 1, keepJPEG: true), logger: log.logger)
            .run()
        #expect(pair.files.count == 2)
        #expect(log.messages.contains("set quality=7"), "\(log.messages)")
        #expect(log.messages.contains { $0.contains("classic numbering") }, "\(log.messages)")
        #expect(try await rig.value(.compressionSetting) == .uint8(2), "restored")
    }

    /// A body whose numbering neither its model nor its values tell (values up to 4 fit the classic and the D40
    /// numbering): the run says so once, sets nothing, and shoots what the camera is set to.
    @Test func aBodyOfUnknownNumberingWarnsOnceAndShootsAsSet() async throws {
        var model = CameraModel.nikon
        model.model = "D60"
        model.qualityValues =
            (0...2).map { CameraModel.QualityValue(value: .uint8($0), quality: .jpeg) }
            + [
                CameraModel.QualityValue(value: .uint8(3), quality: .raw),
                CameraModel.QualityValue(value: .uint8(4), quality: .rawPlusJPEG),
            ]
        let rig = try await CaptureRig(width: 160, height: 120, model: model)
        defer { Task { await rig.close() } }
        #expect(try await rig.value(.compressionSetting) == .uint8(3))
        let warnings = LogCollector(minimum: .warning)
        let summary = try await Self.runner(rig, ShootPlan(format: .auto, count: 2), logger: warnings.logger).run()
        #expect(summary.files.count == 2)
        let messages = warnings.messages.filter { $0.contains("CompressionSetting") }
        #expect(messages.count == 1, "\(warnings.messages)")
        #expect(messages.first?.contains("cannot tell") == true && messages.first?.contains("D60") == true)
        let writes = await rig.camera.transcript.filter {
            $0.code == .setDevicePropValue && $0.parameters == [UInt32(DevicePropertyCode.compressionSetting.rawValue)]
        }
        #expect(writes.isEmpty, "the quality is left as set")
        #expect(try await rig.value(.compressionSetting) == .uint8(3))
    }

    @Test(arguments: [(OutputFormat.bayer12, 12), (.bayer14, 14)])
    func theBitDepthIsNikonsRawBitModeAndIsRestored(format: OutputFormat, bits: Int) async throws {
        let rig = try await CaptureRig(width: 160, height: 120, model: .nikon)
        defer { Task { await rig.close() } }
        try await rig.session.setDevicePropValue(DevicePropertyCode.Nikon.rawBitMode, .uint8(bits == 12 ? 1 : 0))
        let before = try await rig.value(DevicePropertyCode.Nikon.rawBitMode)
        let summary = try await rig.shoot(ShootPlan(format: format, count: 1))
        let file = try #require(summary.files.first)
        #expect(file.format == format.rawValue)
        let frame = try #require(try RawDecoder.decode(contentsOf: file.path).frame)
        #expect(frame.bitsPerSample == bits)
        // LibRaw's D850 white level for the depth (its linear maximum, below the full scale).
        #expect(frame.whiteLevel < 1 << bits && frame.whiteLevel > (1 << bits) * 9 / 10, "\(frame.whiteLevel)")
        let announced = try #require(rig.journal.first { $0.event == "object-announced" })
        #expect(announced.cameraFile == "DSC_0001.NEF")
        #expect(try await rig.value(DevicePropertyCode.Nikon.rawBitMode) == before, "restored")
    }

    @Test func aBodyWithoutTheOptionalPropertiesWarnsOnceAndShootsAsSet() async throws {
        var model = CameraModel.nikon
        // Codes a Nikon does not have: the body offers neither RawBitMode nor RecordingMedia.
        model.rawBitDepthProperty = DevicePropertyCode(rawValue: 0xD001)
        model.captureTargetProperty = DevicePropertyCode(rawValue: 0xD002)
        model.rawBitDepthValues = nil
        model.realBodyProperties.removeAll {
            [DevicePropertyCode.Nikon.rawBitMode, DevicePropertyCode.Nikon.recordingMedia].contains($0.propertyCode)
        }
        let rig = try await CaptureRig(width: 160, height: 120, model: model)
        defer { Task { await rig.close() } }
        let warnings = LogCollector(minimum: .warning)
        let summary = try await Self.runner(rig, ShootPlan(format: .auto, count: 3), logger: warnings.logger).run()
        #expect(summary.files.count == 3)
        #expect(summary.format.description == "bayer", "the depth is the camera's")
        let messages = warnings.messages
        #expect(messages.filter { $0.contains("RawBitMode") }.count == 1, "\(messages)")
        #expect(messages.filter { $0.contains("RecordingMedia") }.count == 1, "\(messages)")
        // A depth the body cannot be told: it shoots at its own depth (14 bits here) and each frame is checked.
        let fourteen = try await Self.runner(rig, ShootPlan(format: .bayer14, count: 1), logger: warnings.logger).run()
        #expect(fourteen.files.count == 1 && fourteen.format.description == "bayer14")
        #expect(!rig.events.warnings.contains { $0.contains("asked for") }, "\(rig.events.warnings)")
        let twelve = try await Self.runner(rig, ShootPlan(format: .bayer12, count: 1), logger: warnings.logger).run()
        #expect(twelve.files.count == 1)
        #expect(
            rig.events.warnings.contains { $0.contains("asked for 12-bit raw, the camera sent 14-bit") },
            "\(rig.events.warnings)")
    }

    @Test func theDriverFindsTheShotAtFFFF0001WhenTheBodyNamesNoHandle() async throws {
        // The state machine's fallback, driven by a reply without ObjectAddedInSdram but with CaptureComplete.
        var sequence = NikonCaptureSequence()
        _ = sequence.next(after: .accepted)
        _ = sequence.next(after: .accepted)
        let step = sequence.next(
            after: .events([.init(code: EventCode.Nikon.captureCompleteRecInSdram, parameter: 0)]))
        #expect(step == .download([NikonCaptureSequence.sdramHandle]))
        #expect(!sequence.objectsWereNamed)
        // Handle 0 names nothing either; a real handle does.
        var zero = NikonCaptureSequence()
        _ = zero.next(after: .accepted)
        _ = zero.next(after: .accepted)
        _ = zero.next(after: .events([.init(code: EventCode.Nikon.objectAddedInSdram, parameter: 0)]))
        #expect(zero.objectHandles == [NikonCaptureSequence.sdramHandle] && !zero.objectsWereNamed)
        var named = NikonCaptureSequence()
        _ = named.next(after: .accepted)
        _ = named.next(after: .accepted)
        _ = named.next(after: .events([.init(code: EventCode.Nikon.objectAddedInSdram, parameter: 0xFFFF_0001)]))
        #expect(named.objectsWereNamed)
    }

    /// The production driver against `nikon-no-object-event` (no ObjectAddedInSdram, only
    /// CaptureCompleteRecInSdram): each shot is read at 0xFFFF0001 and nothing is deleted from a RAW shot.
    @Test(arguments: [CaptureRig.Reach.usb, .ptpipInMemory, .ptpipLoopback])
    func aBodyThatNeverNamesItsShotIsReadAtFFFF0001(reach: CaptureRig.Reach) async throws {
        let frames = RenderedFrames()
        let rig = try await CaptureRig(
            width: 160, height: 120, model: .nikonWithoutObjectEvents, reach: reach,
            renderedFrameHandler: frames.append)
        defer { Task { await rig.close() } }
        let summary = try await rig.shoot(ShootPlan(format: .auto, count: 2))
        #expect(summary.files.count == 2)
        for (file, rendered) in zip(summary.files, frames.all) {
            let frame = try #require(try RawDecoder.decode(contentsOf: file.path).frame)
            #expect(frame.metadata.model == "D850")
            #expect(frame.samples == Self.activeSamples(rendered), "each DNG is its own shot")
        }
        let announced = rig.journal.filter { $0.event == "object-announced" }
        #expect(announced.map(\.cameraFile) == ["DSC_0001.NEF", "DSC_0002.NEF"])
        #expect(announced.map(\.handle) == [0xFFFF_0001, 0xFFFF_0001])
        let codes = await rig.camera.transcript.map(\.code)
        #expect(!codes.contains(.deleteObject), "a RAW shot stays in SDRAM until the next one")
    }

    /// RAW+JPEG on a body that never names its shot: the NEF is read at 0xFFFF0001 and deleted, the JPEG moves up
    /// and is read there too, and the pair ends up side by side.
    @Test func rawPlusJPEGFromABodyThatNeverNamesItsShotReadsBothAtFFFF0001() async throws {
        let rig = try await CaptureRig(width: 160, height: 120, model: .nikonWithoutObjectEvents)
        defer { Task { await rig.close() } }
        let summary = try await rig.shoot(ShootPlan(format: .auto, count: 2, keepJPEG: true))
        #expect(summary.files.count == 4)
        try rig.expectRawJPEGPairs(2)
        let announced = rig.journal.filter { $0.event == "object-announced" }
        #expect(announced.map(\.cameraFile) == ["DSC_0001.NEF", "DSC_0001.JPG", "DSC_0002.NEF", "DSC_0002.JPG"])
        #expect(Set(announced.map(\.handle)) == [0xFFFF_0001])
        let deletes = await rig.camera.transcript.filter { $0.code == .deleteObject }.map(\.parameters.first)
        #expect(deletes == [0xFFFF_0001, 0xFFFF_0001], "one NEF freed per shot, so that its JPEG moves up")
    }
}
