import Foundation
import Logging
import PTP
import PTPIP
import PTPRecord
import PTPTestSupport
import TestSupport
import Testing

/// Recordings replayed through the real framing, strictly and leniently.
// One test at a time: they keep the CPU busy, and the test process shares its two pool threads with tests
// that have deadlines (ARCHITECTURE.md, Tests).
@Suite(.serialized) struct ReplayTests {
    static func record(_ kind: String, in folder: TemporaryDirectory) async throws -> (
        PTPConversation, Sessions.Outcome
    ) {
        let path = folder.file("\(kind).pcapng").path
        let outcome =
            kind == "usb" ? try await Sessions.recordUSB(to: path) : try await Sessions.recordPTPIP(to: path)
        return (try PTPConversation.load(path: path), outcome)
    }

    static func session(_ camera: ReplayCamera) -> PTPSession {
        PTPSession(transport: camera.transport(), configuration: .init(timeout: .seconds(300)))
    }

    @Test(arguments: ["usb", "ptpip"], ReplayResponder.Mode.allCases)
    func replayReproducesTheSession(kind: String, mode: ReplayResponder.Mode) async throws {
        let folder = try TemporaryDirectory("replay")
        let (conversation, recorded) = try await Self.record(kind, in: folder)
        let camera = ReplayCamera(conversation: conversation, mode: mode)
        let replayed = try await Sessions.run(Self.session(camera))
        #expect(replayed == recorded)
        #expect(await camera.responder.mismatch == nil)
        #expect(await camera.responder.answeredFromRecording == 10)
        await camera.stop()
    }

    @Test func strictReplayOverPTPIPServesTheSameSession() async throws {
        let folder = try TemporaryDirectory("replay")
        let (conversation, recorded) = try await Self.record("ptpip", in: folder)
        let server = PTPIPServer { _ in ReplayResponder(conversation: conversation, mode: .strict) }
        let (hostCommand, deviceCommand) = InMemoryByteStream.pair()
        await server.accept(deviceCommand)
        let transport = try await PTPIPTransport.connect(
            command: hostCommand,
            openEventStream: {
                let (hostEvent, deviceEvent) = InMemoryByteStream.pair()
                await server.accept(deviceEvent)
                return hostEvent
            }, identity: .init(guid: .random(), friendlyName: "replay-test"), timeout: .seconds(300))
        let replayed = try await Sessions.run(
            PTPSession(transport: transport, configuration: .init(timeout: .seconds(300))))
        #expect(replayed == recorded)
        await transport.close()
        await server.stop()
    }

    @Test func strictReplayNamesTheFirstDifference() async throws {
        let folder = try TemporaryDirectory("replay")
        let (conversation, _) = try await Self.record("usb", in: folder)
        let camera = ReplayCamera(conversation: conversation, mode: .strict)
        let session = Self.session(camera)
        try await session.openSession()
        _ = try await session.getDeviceInfo()
        // The recording goes on with GetStorageIDs; ask for the object handles instead.
        let error = await #expect(throws: TransportError(.ioError)) { _ = try await session.getObjectHandles() }
        let mismatch = try #require(error?.underlyingError as? ReplayMismatch)
        #expect(mismatch.index == 2)
        #expect(mismatch.expected?.request.code == .getStorageIDs)
        #expect(mismatch.received.code == .getObjectHandles)
        #expect(mismatch.description.contains("expected GetStorageIDs"))
        #expect(mismatch.description.contains("received GetObjectHandles"))
        // Everything after a divergence fails too.
        await #expect(throws: TransportError(.ioError)) { _ = try await session.getStorageIDs() }
        await camera.stop()
    }

    @Test func strictReplayComparesParametersAndHostData() async throws {
        let folder = try TemporaryDirectory("replay")
        let (conversation, _) = try await Self.record("usb", in: folder)
        let camera = ReplayCamera(conversation: conversation, mode: .strict)
        let session = Self.session(camera)
        try await session.openSession()
        _ = try await session.getDeviceInfo()
        _ = try await session.getStorageIDs()
        let handles = try await session.getObjectHandles()
        _ = try await session.getObjectInfo(handles[0])
        _ = try await session.getObject(handles[0], into: PTPMemorySink())
        // The recording set ISO 400.
        let error = await #expect(throws: TransportError(.ioError)) {
            try await session.setDevicePropValue(.exposureIndex, .uint16(800))
        }
        let mismatch = try #require(error?.underlyingError as? ReplayMismatch)
        #expect(mismatch.difference == "host data differs")
        await camera.stop()
    }

    @Test func strictReplayRejectsRequestsPastTheEnd() async throws {
        let conversation = PTPConversation(
            transport: .usb,
            transactions: [
                .init(
                    request: PTPRequest(code: .openSession, transactionID: 0, parameters: [1]),
                    response: PTPResponse(code: .ok, transactionID: 0))
            ])
        let camera = ReplayCamera(conversation: conversation, mode: .strict)
        let session = Self.session(camera)
        try await session.openSession()
        let error = await #expect(throws: TransportError(.ioError)) { _ = try await session.getDeviceInfo() }
        #expect((error?.underlyingError as? ReplayMismatch)?.expected == nil)
        #expect(error?.description.contains("the end of the recording") == true)
        await camera.stop()
    }

    @Test func lenientReplayAnswersRequestsInAnyOrder() async throws {
        let folder = try TemporaryDirectory("replay")
        let (conversation, recorded) = try await Self.record("usb", in: folder)
        let camera = ReplayCamera(conversation: conversation, mode: .lenient)
        let session = Self.session(camera)
        try await session.openSession()
        // Reordered, and without GetStorageIDs.
        let handles = try await session.getObjectHandles()
        let sink = PTPMemorySink()
        _ = try await session.getObject(handles[0], into: sink)
        #expect(await sink.bytes == recorded.picture)
        #expect(try await session.getObjectInfo(handles[0]) == recorded.info)
        #expect(try await session.getDeviceInfo() == recorded.deviceInfo)
        await camera.stop()
    }

    @Test func lenientReplayGivesCamerasAnswersToWhatItCannotAnswer() async throws {
        let folder = try TemporaryDirectory("replay")
        let (conversation, _) = try await Self.record("usb", in: folder)
        let camera = ReplayCamera(conversation: conversation, mode: .lenient)
        let session = Self.session(camera)
        try await session.openSession()
        await #expect(throws: PTPError(response: .invalidObjectHandle, operation: .getObjectInfo)) {
            _ = try await session.getObjectInfo(ObjectHandle(rawValue: 0x999))
        }
        await #expect(throws: PTPError(response: .devicePropNotSupported, operation: .getDevicePropDesc)) {
            _ = try await session.getDevicePropDesc(.batteryLevel)
        }
        await #expect(throws: PTPError(response: .invalidStorageID, operation: .getStorageInfo)) {
            _ = try await session.getStorageInfo(MiniCamera.storageID)
        }
        await #expect(throws: PTPError(response: .invalidStorageID, operation: .formatStore)) {
            _ = try await session.execute(.formatStore, parameters: [MiniCamera.storageID.rawValue])
        }
        await #expect(throws: PTPError(response: .operationNotSupported, operation: OperationCode(rawValue: 0x9999))) {
            _ = try await session.execute(OperationCode(rawValue: 0x9999), parameters: [])
        }
        await #expect(throws: PTPError(response: .parameterNotSupported, operation: .getObjectHandles)) {
            _ = try await session.getObjectHandles(storage: StorageID(rawValue: 0x0002_0001))
        }
        #expect(await camera.responder.answeredWithFallback == 6)
        await camera.stop()
    }

    @Test func lenientReplayRepeatsTheLastReplyAndSaysSo() async throws {
        let folder = try TemporaryDirectory("replay")
        let (conversation, recorded) = try await Self.record("usb", in: folder)
        let (logger, store) = CapturingLogHandler.logger(level: .info)
        let camera = ReplayCamera(conversation: conversation, mode: .lenient, logger: logger)
        let session = Self.session(camera)
        try await session.openSession()
        for _ in 0..<3 { #expect(try await session.getDeviceInfo() == recorded.deviceInfo) }
        #expect(await camera.responder.answeredByRepeating == 2)
        let notices = store.all.filter { $0.contains("repeating its last reply") }
        #expect(notices.count == 1, "\(store.all)")
        await camera.stop()
    }

    @Test func lenientReplayOpensASessionTheCaptureStartedInside() async throws {
        let conversation = PTPConversation(
            transport: .usb,
            transactions: [
                .init(
                    request: PTPRequest(code: .getStorageIDs, transactionID: 7),
                    dataIn: StorageIDArray([MiniCamera.storageID]).ptpEncoded,
                    response: PTPResponse(code: .ok, transactionID: 7))
            ])
        let camera = ReplayCamera(conversation: conversation, mode: .lenient)
        let session = Self.session(camera)
        try await session.openSession()
        #expect(try await session.getStorageIDs() == [MiniCamera.storageID])
        try await session.closeSession()
        await camera.stop()
    }

    @Test func eventsFollowTheirTransaction() async throws {
        let folder = try TemporaryDirectory("replay")
        let (conversation, _) = try await Self.record("ptpip", in: folder)
        let camera = ReplayCamera(conversation: conversation, mode: .lenient)
        let session = Self.session(camera)
        try await session.openSession()
        #expect(try await session.nextEvent(timeout: .milliseconds(200)) == nil, "no event before InitiateCapture")
        try await session.initiateCapture()
        #expect(try await session.nextEvent(timeout: .seconds(300))?.code == .objectAdded)
        #expect(try await session.nextEvent(timeout: .seconds(300))?.code == .captureComplete)
        await camera.stop()
    }
}
