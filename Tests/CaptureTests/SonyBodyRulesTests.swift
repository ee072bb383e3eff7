import CameraEmulator
import Capture
import Logging
import PTP
import TestSupport
import Testing

/// The Sony driver against libgphoto2's rules for real Alpha bodies (`camera_sony_capture`): a shot an earlier run
/// left in the buffer is dropped before the press, the shutter is held until the body has focused, and PriorityMode
/// goes to the host after the handshake.
@Suite(.serialized) struct SonyBodyRulesTests {
    static func run(
        _ camera: EmulatedCamera, warnings: LogCollector
    ) async throws -> (CaptureRunner.Summary, TemporaryDirectory) {
        let link = EmulatorLink.usb(camera)
        let session = PTPSession(transport: link.transport, configuration: .init(timeout: .seconds(10)))
        let folder = try TemporaryDirectory("sony-rules")
        let store = try OutputStore(folder: folder.url.path)
        do {
            try await session.openSession()
            let runner = CaptureRunner(
                session: session, plan: ShootPlan(format: .auto, count: 1), store: store,
                journal: try Journal(folder: store.folder), logger: warnings.logger, usbVendorID: .sony)
            let summary = try await runner.run()
            await link.close()
            return (summary, folder)
        } catch {
            await link.close()
            throw error
        }
    }

    @Test func aShotLeftInTheBufferIsDroppedBeforeThePress() async throws {
        let camera = try EmulatedCamera(model: .sony, configuration: .init(sensorWidth: 100, sensorHeight: 68))
        // An earlier host pressed the shutter and went away before reading the shot.
        let earlier = EmulatorLink.usb(camera)
        let host = PTPSession(transport: earlier.transport, configuration: .init(timeout: .seconds(10)))
        try await host.openSession()
        _ = try await host.sonyConnect()
        for press in SonyControl.shutterSequence { try await host.sonyPress(press) }
        await camera.waitForCapture()
        #expect(try await host.sonyPendingObjectCount() == 1)
        await earlier.close()
        await camera.clearTranscript()

        let warnings = LogCollector()
        let (summary, folder) = try await Self.run(camera, warnings: warnings)
        defer { withExtendedLifetime(folder) {} }
        #expect(summary.files.count == 1)
        #expect(warnings.messages.contains { $0.contains("earlier shot") }, "\(warnings.messages)")
        let transcript = await camera.transcript
        let firstPress = try #require(transcript.firstIndex { $0.code == OperationCode.Sony.setControlDeviceB })
        let reads = transcript.enumerated().filter {
            $0.element.code == .getObject && $0.element.parameters == [SonyControl.capturedObjectHandle.rawValue]
        }.map(\.offset)
        #expect(reads.count == 2)
        #expect(reads.first.map { $0 < firstPress } == true, "the stale shot is read before the press")
    }

    @Test func theShutterIsHeldUntilTheBodyHasFocusedAndPriorityGoesToTheHost() async throws {
        let camera = try EmulatedCamera(model: .sony, configuration: .init(sensorWidth: 100, sensorHeight: 68))
        let (summary, folder) = try await Self.run(camera, warnings: LogCollector())
        defer { withExtendedLifetime(folder) {} }
        #expect(summary.files.count == 1)
        let transcript = await camera.transcript
        let fullPress = UInt32(SonyControl.fullPress.rawValue)
        let presses = transcript.enumerated().filter { $0.element.code == OperationCode.Sony.setControlDeviceB }
        #expect(presses.map(\.element.parameters.first) == [0xD2C1, fullPress, fullPress, 0xD2C1])
        // Between S2 down and S2 up: a GetAllDevicePropData that found FocusFound 2.
        let between = transcript[(presses[1].offset + 1)..<presses[2].offset]
        #expect(between.contains { $0.code == OperationCode.Sony.getAllDevicePropData })
        // PriorityMode 0xD25A = 1 (application) right after the handshake.
        let priority = try #require(
            transcript.firstIndex { $0.code == OperationCode.Sony.setControlDeviceA && $0.parameters == [0xD25A] })
        let phase3 = try #require(
            transcript.firstIndex { $0.code == OperationCode.Sony.sdioConnect && $0.parameters.first == 3 })
        #expect(priority == phase3 + 1)
    }
}
