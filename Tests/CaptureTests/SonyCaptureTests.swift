import CameraEmulator
import Capture
import Foundation
import Logging
import PTP
import RawDecoders
import RawImage
import TestSupport
import Testing

/// The Sony driver against the emulator's `sony` personality (an ILCE-7M3 in PC Remote mode): the SDIO handshake,
/// S1/S2 presses, ObjectInMemory polling and 0xFFFFC001 downloads, ARW through LibRaw into DNG, through USB
/// framing and over PTP/IP.
@Suite(.serialized) struct SonyCaptureTests {
    /// Warnings a run logged.
    typealias Warnings = LogCollector

    enum Reach: String, CaseIterable { case usb, ptpip }

    /// Runs `plan` against a fresh camera of `model` reached through `reach`; returns the summary, the folder's
    /// decoded DNGs and the camera.
    static func shoot(
        _ plan: ShootPlan, model: CameraModel = .sony, reach: Reach = .usb, warnings: Warnings = Warnings()
    ) async throws -> (CaptureRunner.Summary, EmulatedCamera, TemporaryDirectory) {
        let camera = try EmulatedCamera(model: model, configuration: .init(sensorWidth: 100, sensorHeight: 68))
        let link = reach == .usb ? EmulatorLink.usb(camera) : try await EmulatorLink.ptpip(camera)
        let session = PTPSession(transport: link.transport, configuration: .init(timeout: .seconds(10)))
        let folder = try TemporaryDirectory("sony-capture")
        let store = try OutputStore(folder: folder.url.path)
        do {
            try await session.openSession()
            let runner = CaptureRunner(
                session: session, plan: plan, store: store, journal: try Journal(folder: store.folder),
                logger: warnings.logger, usbVendorID: reach == .usb ? .sony : nil)
            let summary = try await runner.run()
            await link.close()
            return (summary, camera, folder)
        } catch {
            await link.close()
            throw error
        }
    }

    @Test(arguments: Reach.allCases)
    func rawShotEndsInADNGWithTheSonyIdentityAndColour(reach: Reach) async throws {
        let (summary, camera, folder) = try await Self.shoot(ShootPlan(format: .auto, count: 2), reach: reach)
        defer { withExtendedLifetime(folder) {} }
        #expect(summary.files.count == 2)
        for file in summary.files {
            #expect(file.path.hasSuffix(".dng"))
            let frame = try #require(try RawDecoder.decode(contentsOf: file.path).frame)
            #expect(frame.metadata.make == "Sony")
            #expect(frame.metadata.model == "ILCE-7M3")
            // ARW keeps the active area: the 100×68 sensor less its 2-pixel masked margin.
            #expect(frame.width == 98 && frame.height == 66)
            #expect(frame.blackLevels.allSatisfy { $0 == 512 })
            // LibRaw's ILCE-7M3 matrix, not an identity.
            #expect(frame.color.colorMatrix1.values[1] < 0)
        }
        let codes = await camera.transcript.map(\.code)
        let handshake = codes.filter {
            $0 == OperationCode.Sony.sdioConnect || $0 == OperationCode.Sony.getSDIOExtDeviceInfo
        }
        #expect(handshake.count == 4)
        #expect(codes.filter { $0 == OperationCode.Sony.setControlDeviceB }.count == 8, "4 presses per shot")
        #expect(!codes.contains(.initiateCapture))
        let reads = await camera.transcript.filter { $0.code == .getObject }
        #expect(reads.allSatisfy { $0.parameters.first == 0xFFFF_C001 })
    }

    @Test(arguments: Reach.allCases)
    func rawPlusJPEGIsPairedAndTheQualityIsSetAndRestored(reach: Reach) async throws {
        let (summary, camera, folder) = try await Self.shoot(
            ShootPlan(format: .auto, count: 1, keepJPEG: true), reach: reach)
        let names = summary.files.map { URL(fileURLWithPath: $0.path).lastPathComponent }.sorted()
        #expect(names.count == 2, "\(names)")
        #expect(names.contains { $0.hasSuffix(".dng") } && names.contains { $0.hasSuffix(".jpg") })
        #expect(Set(names.map { $0.split(separator: ".")[0] }).count == 1, "one stem: \(names)")
        // The camera's JPEG became the DNG's preview.
        let dng = try #require(summary.files.first { $0.path.hasSuffix(".dng") })
        #expect(try RawDecoder.embeddedPreview(try RawDecoder.readFile(dng.path)[...]) != nil)
        withExtendedLifetime(folder) {}
        // CompressionSetting went to RAW+JPEG (0x13) through SetControlDeviceA and back to RAW (0x10).
        let writes = await camera.transcript.filter {
            $0.code == OperationCode.Sony.setControlDeviceA && $0.parameters.first == 0x5004
        }
        #expect(writes.count == 2)
        let session = PTPSession(transport: EmulatorLink.usb(camera).transport)
        try await session.openSession()
        _ = try await session.sonyConnect()
        let quality = try await session.sonyGetAllDevicePropData()[.compressionSetting]?.currentValue
        #expect(quality == .uint8(0x10))
    }

    @Test func aCameraOutsidePCRemoteIsRefusedWithOneClearError() async throws {
        do {
            _ = try await Self.shoot(ShootPlan(format: .auto, count: 1), model: .sonyOutsidePCRemote)
            Issue.record("the run should have failed")
        } catch let error as CaptureError {
            #expect(error.code == .remoteControlUnavailable)
            #expect(error.detail.contains("PC Remote"))
            #expect(!error.detail.contains("\n"))
        }
    }

    @Test func aMissingQualityPropertyIsWarnedAboutOnceAndTheCameraSettingKept() async throws {
        var model = CameraModel.sony
        // The body describes its quality under a code the Sony profile does not know.
        model.qualityProperty = DevicePropertyCode(rawValue: 0xD2F0)
        let warnings = Warnings()
        let (summary, camera, folder) = try await Self.shoot(
            ShootPlan(format: .auto, count: 2), model: model, warnings: warnings)
        defer { withExtendedLifetime(folder) {} }
        #expect(warnings.messages.count == 1, "\(warnings.messages)")
        #expect(warnings.messages.first?.contains("CompressionSetting") == true, "\(warnings.messages)")
        // RAW as set on the camera: no JPEG, and no setting was written to the camera (only PriorityMode, which
        // hands the settings to the host).
        #expect(summary.files.count == 2)
        #expect(summary.files.allSatisfy { $0.path.hasSuffix(".dng") })
        let writes = await camera.transcript.filter { $0.code == OperationCode.Sony.setControlDeviceA }
        #expect(writes.map(\.parameters) == [[0xD25A]])
    }
}
