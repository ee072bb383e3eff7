import Capture
import Foundation
import Logging
import PTP
import PTPRecord
import PTPTestSupport
import TestSupport
import Testing

/// Traces of real cameras driven by other software (`Fixtures/traces/*/SOURCE.md`), converted from the packet
/// transcriptions in `Fixtures/ptp-real`: each loads, its datasets decode with rawcap's parsers, and a lenient
/// replay serves rawcap's own requests — up to the capture, as far as the recording goes.
// One test at a time: replays keep the two pool threads busy.
@Suite(.serialized) struct RealCameraTraceTests {
    struct Trace: Sendable, CustomStringConvertible {
        var hex: String
        var pcapng: String
        var model: String
        var description: String { pcapng }
        var path: String {
            ExternalTool.packageRoot.appendingPathComponent("Fixtures").appendingPathComponent(pcapng).path
        }
    }

    static let sony = Trace(
        hex: "ptp-real/sony-dsc-rx100m7_ptpip-sdio-allprops.hex",
        pcapng: "traces/sony-rx100m7-ptpip-sdio/sdio-connect-allprops.pcapng", model: "DSC-RX100M7")
    static let canon = Trace(
        hex: "ptp-real/canon-eos-r_ptpip-connect.hex",
        pcapng: "traces/canon-eos-r-ptpip-connect/connect-remote-mode.pcapng", model: "Canon EOS R")
    static let all = [sony, canon]

    static func session(_ camera: ReplayCamera) -> PTPSession {
        PTPSession(transport: camera.transport(), configuration: .init(timeout: .seconds(300)))
    }

    // MARK: The files

    @Test(
        .enabled(if: ProcessInfo.processInfo.environment["RAWCAP_RECORD"] == "1", "set RAWCAP_RECORD=1 to rewrite"),
        arguments: all)
    func rewriteTheFixture(trace: Trace) async throws {
        try? FileManager.default.removeItem(atPath: trace.path)
        try await PTPIPFlowFixture.convert(hexPath: trace.hex, to: trace.path, cameraModel: trace.model)
    }

    @Test(arguments: all) func theFixtureIsTheConvertedTranscription(trace: Trace) async throws {
        let folder = try TemporaryDirectory("realcam")
        let path = folder.file("trace.pcapng").path
        try await PTPIPFlowFixture.convert(hexPath: trace.hex, to: path, cameraModel: trace.model)
        let fresh = try Data(contentsOf: URL(fileURLWithPath: path))
        let committed = try Data(contentsOf: URL(fileURLWithPath: trace.path))
        #expect(fresh == committed, "rerun with RAWCAP_RECORD=1 if the converter changed on purpose")
    }

    @Test(arguments: all) func everyFixtureHasItsSource(trace: Trace) throws {
        let folder = URL(fileURLWithPath: trace.path).deletingLastPathComponent()
        let source = try String(contentsOf: folder.appendingPathComponent("SOURCE.md"), encoding: .utf8)
        for needle in ["licence", "camera", "https://github.com/", "substituted", trace.hex] {
            #expect(source.contains(needle), "SOURCE.md of \(trace) names \(needle)")
        }
    }

    /// Wireshark reads the traces as PTP/IP: the same requests, in the same order, as rawcap's loader finds.
    @Test(arguments: all) func tsharkDecodesTheTrace(trace: Trace) async throws {
        let result = try await Sessions.tshark([
            "-r", trace.path, "-Y", "ptpip.pktType == 0x00000006", "-T", "fields", "-e", "ptpip.opcode",
        ])
        #expect(result.status == 0)
        let conversation = try PTPConversation.load(path: trace.path)
        #expect(
            result.output.split(separator: "\n").map(String.init)
                == conversation.transactions.map { String(format: "0x%04x", $0.request.code.rawValue) })
    }

    // MARK: Sony DSC-RX100M7

    @Test func sonyTraceHoldsTheHandshakeAndThePropertyDump() throws {
        let conversation = try PTPConversation.load(path: Self.sony.path)
        #expect(conversation.transport == .ptpip)
        #expect(conversation.responderName == "DSC-RX100M7")
        #expect(
            conversation.transactions.map(\.request.code) == [
                .openSession, .getDeviceInfo, OperationCode.Sony.sdioConnect, OperationCode.Sony.sdioConnect,
                OperationCode.Sony.getSDIOExtDeviceInfo, OperationCode.Sony.sdioConnect,
                OperationCode(rawValue: 0x920D),
                OperationCode.Sony.getAllDevicePropData,
            ])
        #expect(
            conversation.transactions.map(\.request.parameters) == [
                [1], [], [1, 0, 0], [2, 0, 0], [0x12C], [3, 0, 0], [], [0],
            ])
        #expect(conversation.transactions.allSatisfy { $0.response.code == .ok })
        #expect(conversation.notes.isEmpty)
        #expect(conversation.deviceInfo?.model == "DSC-RX100M7")
    }

    @Test func sonyDatasetsDecode() throws {
        let conversation = try PTPConversation.load(path: Self.sony.path)
        let transactions = conversation.transactions
        let ext = try SonyExtDeviceInfo(ptpEncoded: try #require(transactions[4].dataIn))
        #expect(ext.version == 0x12C)
        #expect(ext.properties.count == 78)
        #expect(ext.properties.first == .batteryLevel || ext.properties.first == DevicePropertyCode(rawValue: 0x5005))
        #expect(ext.controls?.count == 23)
        #expect(ext.controls?.contains(DevicePropertyCode(rawValue: 0xD2C1)) == true)
        let dump = try #require(transactions[7].dataIn)
        #expect(dump.count == 3521)
        let all = try SonyAllDevicePropData(ptpEncoded: dump)
        #expect(all.descriptions.count == 78)
        #expect(all[DevicePropertyCode(rawValue: 0x5007)]?.currentValue == .uint16(0x0118))  // f/2.8
        #expect(all[SonyControl.pendingObjectsProperty] != nil)
        // Every property the ext device info lists is described, and nothing else.
        #expect(Set(all.descriptions.map(\.propertyCode)) == Set(ext.properties))
    }

    @Test func sonyHandshakeAndPropertyPollReplayThroughASession() async throws {
        let camera = ReplayCamera(
            conversation: try PTPConversation.load(path: Self.sony.path), mode: .lenient)
        let session = Self.session(camera)
        try await session.openSession()
        _ = try await session.getDeviceInfo()
        let ext = try await session.sonyConnect()
        #expect(ext.properties.count == 78)
        // rawcap sends GetAllDevicePropData without a parameter; the recording has Rocc's explicit 0.
        let all = try await session.sonyGetAllDevicePropData()
        #expect(all.descriptions.count == 78)
        #expect(try await session.sonyPendingObjectCount() == 0)
        // rawcap asks GetSDIOExtDeviceInfo with libgphoto2's (0x12C, 1) first; Rocc sent 0x12C alone, which the
        // replay answers once rawcap falls back to it.
        #expect(await camera.responder.answeredWithFallback == 1)
        await camera.stop()
    }

    @Test func sonyCaptureRunsUntilTheRecordingEnds() async throws {
        let result = try await replayCapture(fixture: Self.sony.pcapng, usbVendorID: .sony)
        #expect(result.family == .sony)
        // Rocc's flow stops before any shutter press: the first press is what the recording cannot answer. Before
        // it, two requests Rocc did not send: GetSDIOExtDeviceInfo with (0x12C, 1) and PriorityMode 0xD25A.
        #expect(result.objects.isEmpty)
        let stopped = try #require(result.stoppedBy)
        #expect(stopped.contains("0x9207") || stopped.lowercased().contains("operation"), "\(stopped)")
        #expect(result.answered.withFallback == 3)
    }

    // MARK: Canon EOS R

    @Test func canonTraceHoldsTheDeviceInfoAndRemoteMode() throws {
        let conversation = try PTPConversation.load(path: Self.canon.path)
        #expect(
            conversation.transactions.map(\.request.code) == [
                .openSession, .getDeviceInfo, OperationCode.Canon.setRemoteMode, OperationCode.Canon.setEventMode,
            ])
        #expect(conversation.transactions.map(\.request.parameters) == [[1], [], [5], [1]])
        #expect(conversation.notes.isEmpty)
        let info = try #require(conversation.deviceInfo)
        #expect(info.manufacturer == "Canon.Inc" && info.model == "Canon EOS R")
        #expect(info.deviceVersion == "3-1.6.0")
        #expect(info.vendorExtensionID == .microsoft || info.vendorExtensionID.rawValue == 6)
        #expect(info.supports(OperationCode.Canon.remoteReleaseOn) && info.supports(OperationCode.Canon.getEvent))
        #expect(CameraFamily.identify(info).family == .canonEOS)
        #expect(CameraFamily.identify(info, usbVendorID: .canon).family == .canonEOS)
    }

    @Test func canonCaptureStopsWhereTheRecordingDiffers() async throws {
        let result = try await replayCapture(fixture: Self.canon.pcapng, usbVendorID: .canon)
        #expect(result.family == .canonEOS)
        #expect(result.objects.isEmpty)
        // Rocc set remote mode 5 over Wi-Fi; rawcap asks for 1 (libgphoto2's USB value): the parameters differ.
        let stopped = try #require(result.stoppedBy)
        #expect(stopped.contains("ParameterNotSupported") || stopped.contains("0x2006"), "\(stopped)")
    }

    @Test func canonRemoteAndEventModeReplayWithTheRecordedParameters() async throws {
        let camera = ReplayCamera(conversation: try PTPConversation.load(path: Self.canon.path), mode: .lenient)
        let session = Self.session(camera)
        try await session.openSession()
        let info = try await session.getDeviceInfo()
        #expect(info.model == "Canon EOS R")
        try await session.canonSetRemoteMode(5)
        try await session.canonSetEventMode()
        #expect(await camera.responder.answeredWithFallback == 0)
        await camera.stop()
    }

    // MARK: The helper itself

    /// `replayCapture` on a recording that holds a whole shot: the standard capture of a MiniCamera, recorded on
    /// the USB seam, replays to the same object, ObjectInfo and bytes.
    @Test func replayCaptureFollowsARecordedShotToItsDownload() async throws {
        let folder = try TemporaryDirectory("realcam")
        let path = folder.file("shot.pcapng").path
        let recorder = try PcapngRecorder(
            path: path, configuration: .init(rawcapVersion: "test", clock: Sessions.steppingClock()))
        let memory = InMemoryBulkPipe(maxPacketSize: 512)
        let device = USBDeviceSide(pipe: memory, responder: MiniCamera(pictureByteCount: 3000))
        let running = Task { await device.run() }
        let pipe = try await RecordingBulkPipe.start(wrapping: memory, recorder: recorder)
        let session = PTPSession(transport: PTPUSBTransport(pipe: pipe), configuration: .init(timeout: .seconds(300)))
        try await session.openSession()
        _ = try await session.getDeviceInfo()
        let shot = try await StandardCaptureDriver().capture(
            session: session, expecting: 1, timing: CaptureTiming(lateGrace: .milliseconds(200)), announce: { _ in })
        let object = try #require(shot.first)
        let sink = PTPMemorySink(limit: 1 << 20)
        _ = try await session.getObject(object.handle, into: sink)
        let recordedBytes = await sink.bytes
        running.cancel()
        await memory.disconnect()
        await recorder.close()

        let replayed = try await replayCapture(fixture: path, usbVendorID: nil)
        #expect(replayed.family == .generic)
        #expect(replayed.stoppedBy == nil)
        #expect(replayed.objects.map(\.handle) == [object.handle])
        #expect(replayed.objects.first?.info == object.info)
        #expect(replayed.downloads[object.handle] == recordedBytes)
        #expect(recordedBytes.count > 1000)
        #expect(replayed.answered.withFallback == 0)
    }

    // MARK: Lenient matching

    @Test func lenientMatchingDropsTrailingZeroParameters() async throws {
        let conversation = PTPConversation(
            transport: .usb,
            transactions: [
                .init(
                    request: PTPRequest(
                        code: OperationCode.Sony.getAllDevicePropData, transactionID: 1, parameters: [0]),
                    dataIn: [0, 0, 0, 0, 0, 0, 0, 0], response: PTPResponse(code: .ok, transactionID: 1)),
                .init(
                    request: PTPRequest(code: .getObjectHandles, transactionID: 2, parameters: [0xFFFF_FFFF, 0, 0]),
                    dataIn: [1, 0, 0, 0, 7, 0, 0, 0], response: PTPResponse(code: .ok, transactionID: 2)),
            ])
        let camera = ReplayCamera(conversation: conversation, mode: .lenient)
        let session = Self.session(camera)
        #expect(try await session.sonyGetAllDevicePropData().descriptions.isEmpty)
        #expect(
            try await session.getObjectHandles(storage: StorageID(rawValue: 0xFFFF_FFFF)) == [ObjectHandle(rawValue: 7)]
        )
        // A parameter that is not zero still has to match.
        await #expect(throws: PTPError.self) {
            _ = try await session.getObjectHandles(storage: StorageID(rawValue: 0x0001_0001))
        }
        #expect(await camera.responder.answeredFromRecording == 2)
        await camera.stop()
    }
}
