import Capture
import Foundation
import Logging
import PTP
import PTPRecord
import TestSupport
import Testing

/// A lenient replay of a real Nikon's SDRAM capture (``NikonD5500Session``) through the production path: the
/// identity with GetVendorPropCodes, the Nikon driver, the runner's graceful quality handling, and a download that
/// falls back from GetPartialObject to GetObject.
@Suite(.serialized) struct RealNikonCaptureTests {
    static func replay(_ conversation: PTPConversation) async throws -> (ReplayCamera, PTPSession) {
        let camera = ReplayCamera(conversation: conversation, mode: .lenient, logger: Logger(label: "replay.test"))
        let session = PTPSession(transport: camera.transport(), configuration: .init(timeout: .seconds(60)))
        try await session.openSession()
        return (camera, session)
    }

    @Test func theIdentityMergesTheVendorPropertyList() async throws {
        let (camera, session) = try await Self.replay(NikonD5500Session.conversation())
        let identity = try await session.cameraIdentity()
        await camera.stop()
        #expect(identity.reportedDeviceInfo.devicePropertiesSupported.count == 22)
        #expect(identity.vendorPropertyCodes.count == 105)
        #expect(identity.deviceInfo.devicePropertiesSupported.count == 127)
        #expect(identity.deviceInfo.devicePropertiesSupported.contains(DevicePropertyCode(rawValue: 0xD10B)))
        #expect(identity.deviceInfo.devicePropertiesSupported.contains(DevicePropertyCode(rawValue: 0xD149)))
        #expect(identity.family == .nikon)
    }

    /// The "Done when" of the real-cameras issue: shoot and download complete, and the file is the camera's bytes.
    @Test func aJPEGShotIntoSDRAMLandsByteForByte() async throws {
        let (camera, session) = try await Self.replay(NikonD5500Session.conversation())
        let folder = try TemporaryDirectory("d5500")
        let store = try OutputStore(folder: folder.url.path)
        let logs = LogCollector()
        let runner = CaptureRunner(
            session: session,
            plan: ShootPlan(
                format: .jpeg, count: 1,
                timing: CaptureTiming(shotTimeout: .seconds(20), lateGrace: .milliseconds(200))),
            store: store, journal: try Journal(folder: store.folder), logger: logs.logger)
        let summary = try await runner.run()
        let answered = await camera.responder.answeredWithFallback
        await camera.stop()
        #expect(summary.files.count == 1)
        let path = try #require(summary.files.first?.path)
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(written == NikonD5500Session.jpeg)
        // The settings the recording does not hold (CompressionSetting's and RawBitMode's descriptors) are said once
        // and the run goes on; the journal carries the warning after run-started.
        let warnings = logs.messages.filter { $0.contains("CompressionSetting") }
        #expect(warnings.count == 1, "\(logs.messages)")
        let journal = Journal.read(folder: store.folder)
        let events = journal.map(\.event)
        #expect(events.first == JournalEntry.Event.runStarted)
        #expect(
            journal.contains { $0.event == JournalEntry.Event.warning && ($0.detail ?? "").contains("CompressionSetting") })
        #expect(events.last == JournalEntry.Event.runFinished)
        #expect(answered > 0)
    }

    /// A camera that lists GetPartialObject but refuses it for an object in its memory: the download is one GetObject.
    @Test func aRefusedGetPartialObjectFallsBackToGetObject() async throws {
        var conversation = NikonD5500Session.conversation(emptyPolls: 0)
        let handle = NikonD5500Session.shotHandle
        conversation.transactions.append(
            .init(
                request: PTPRequest(code: .getPartialObject, transactionID: 99, parameters: [handle, 0, 1 << 20]),
                response: PTPResponse(code: .invalidObjectHandle, transactionID: 99)))
        let (camera, session) = try await Self.replay(conversation)
        let info = try await session.getObjectInfo(ObjectHandle(rawValue: handle))
        let downloader = ObjectDownloader(operations: NikonD5500Session.deviceInfo.operationsSupported)
        #expect(downloader.usesPartialObject)
        let bytes = try await downloader.download(
            AnnouncedObject(handle: ObjectHandle(rawValue: handle), info: info), session: session) { _ in }
        await camera.stop()
        #expect(bytes == NikonD5500Session.jpeg)
    }

    /// A lenient replay answers GetPartialObject ranges from a recorded GetObject of the same handle.
    @Test func aLenientReplayServesRangesFromTheWholeObject() async throws {
        let (camera, session) = try await Self.replay(NikonD5500Session.conversation())
        let sink = PTPMemorySink(limit: 1 << 20)
        let sent = try await session.getPartialObject(
            ObjectHandle(rawValue: NikonD5500Session.shotHandle), offset: 1_000_000, maxByteCount: 1 << 20, into: sink)
        await camera.stop()
        #expect(sent == UInt32(NikonD5500Session.jpegByteCount - 1_000_000))
        #expect(await sink.bytes == Array(NikonD5500Session.jpeg[1_000_000...]))
    }
}

/// libgphoto2's generic capture does not give up on a GeneralError answer to InitiateCapture (a Nikon V1 answers it
/// and shoots): the objects the camera then announces are the shot.
@Suite struct GeneralErrorCaptureTests {
    @Test func aGeneralErrorAnswerToInitiateCaptureStillCollectsTheShot() async throws {
        var info = NikonD5500Session.deviceInfo
        info.manufacturer = "Example"
        info.vendorExtensionID = VendorExtensionID(rawValue: 6)
        let handle: UInt32 = 0x0001_0002
        let objectInfo = NikonD5500Session.objectInfo
        func request(_ code: OperationCode, _ id: UInt32, _ parameters: [UInt32] = []) -> PTPRequest {
            PTPRequest(code: code, transactionID: id, parameters: parameters)
        }
        let conversation = PTPConversation(
            transport: .usb,
            transactions: [
                .init(request: request(.openSession, 0, [1]), response: PTPResponse(code: .ok, transactionID: 0)),
                .init(
                    request: request(.getDeviceInfo, 1), dataIn: info.ptpEncoded,
                    response: PTPResponse(code: .ok, transactionID: 1)),
                .init(
                    request: request(.getObjectHandles, 2, [0xFFFF_FFFF]), dataIn: [0, 0, 0, 0],
                    response: PTPResponse(code: .ok, transactionID: 2)),
                .init(
                    request: request(.initiateCapture, 3), response: PTPResponse(code: .generalError, transactionID: 3)),
                .init(
                    request: request(.getObjectInfo, 4, [handle]), dataIn: objectInfo.ptpEncoded,
                    response: PTPResponse(code: .ok, transactionID: 4)),
            ],
            events: [
                .init(event: PTPEvent(code: .objectAdded, transactionID: 3, parameters: [handle]), afterTransaction: 3),
                .init(event: PTPEvent(code: .captureComplete, transactionID: 3), afterTransaction: 3),
            ])
        let camera = ReplayCamera(conversation: conversation, mode: .lenient)
        let session = PTPSession(transport: camera.transport(), configuration: .init(timeout: .seconds(30)))
        try await session.openSession()
        let objects = try await StandardCaptureDriver().capture(
            session: session, expecting: 1,
            timing: CaptureTiming(shotTimeout: .seconds(30), lateGrace: .milliseconds(300)), announce: { _ in })
        await camera.stop()
        #expect(objects.map(\.handle.rawValue) == [handle])
    }
}

/// The Canon EOS 60D's BatteryLevel (a UINT8 enumeration with 16-bit entries, from a real body's debug log in
/// `Fixtures/ptp-real`) reads through the session without the caller naming the quirk.
@Suite struct WideEnumerationTests {
    @Test func aCanon60DBatteryLevelReadsThroughTheSession() async throws {
        let records = try HexFixture("ptp-real/canon-eos-60d_devicepropdesc.hex").records
        let battery = Array(try #require(records.first).bytes.dropFirst(12))
        let conversation = PTPConversation(
            transport: .usb,
            transactions: [
                .init(
                    request: PTPRequest(code: .openSession, transactionID: 0, parameters: [1]),
                    response: PTPResponse(code: .ok, transactionID: 0)),
                .init(
                    request: PTPRequest(code: .getDevicePropDesc, transactionID: 1, parameters: [0x5001]),
                    dataIn: battery, response: PTPResponse(code: .ok, transactionID: 1)),
            ])
        let camera = ReplayCamera(conversation: conversation, mode: .lenient)
        let session = PTPSession(transport: camera.transport())
        try await session.openSession()
        let descriptor = try await session.getDevicePropDesc(.batteryLevel)
        await camera.stop()
        #expect(descriptor.dataType == .uint8)
        #expect(descriptor.form == .enumeration([.uint8(100), .uint8(75), .uint8(50), .uint8(25), .uint8(0)]))
    }
}

/// The same session as a pcapng recording, through the built binary: `rawcap shoot --camera replay:FILE --format
/// jpeg` completes and writes the camera's JPEG byte for byte.
@Suite(.serialized) struct RealNikonReplayCommandTests {
    @Test func shootFromAReplayOfTheD5500WritesItsJPEG() async throws {
        let binary = try #require(ChildProcess.builtProduct(named: "rawcap"), "the rawcap binary was not built")
        let folder = try TemporaryDirectory("d5500-cli")
        let recording = folder.file("d5500.pcapng").path
        try Data(NikonD5500Session.conversation().pcapngEncoded(application: "rawcap tests")).write(
            to: URL(fileURLWithPath: recording))
        let output = folder.file("captures").path
        let result = try await Subprocess.runDetached(
            binary, ["shoot", "--camera", "replay:\(recording)", "--format", "jpeg", "-o", output, "--json"])
        #expect(result.status == 0, "\(result.errorOutput)")
        let files = try FileManager.default.contentsOfDirectory(atPath: output).filter { $0.hasSuffix(".jpg") }
        #expect(files.count == 1, "\(files)")
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output + "/" + (files.first ?? ""))))
        #expect(written == NikonD5500Session.jpeg)
        #expect(result.errorOutput.contains("CompressionSetting"), "the quality it goes on without is said")
    }
}
