import Foundation
import PTP
import PTPRecord
import PTPTestSupport
import TestSupport
import Testing

/// Recorded sessions with ``MiniCamera``: the same steps over the USB seam and the PTP/IP seam.
enum Sessions {
    /// A fixed clock: one millisecond per packet from 2024-01-01, so recordings are byte-for-byte repeatable.
    static func steppingClock() -> @Sendable () -> UInt64 {
        let counter = Counter()
        return { 1_704_067_200_000_000_000 + counter.next() * 1_000_000 }
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value: UInt64 = 0
        func next() -> UInt64 {
            lock.lock()
            defer { lock.unlock() }
            value += 1
            return value
        }
    }

    /// What a session did, to compare with its replay.
    struct Outcome: Equatable {
        var deviceInfo: DeviceInfo
        var storageIDs: [StorageID]
        var handles: [ObjectHandle]
        var info: ObjectInfo
        var picture: [UInt8]
        var iso: PTPValue
        var events: [PTPEvent]
    }

    /// The steps: OpenSession, GetDeviceInfo, GetStorageIDs, GetObjectHandles, GetObjectInfo, GetObject,
    /// SetDevicePropValue, GetDevicePropValue, InitiateCapture (and its two events), CloseSession.
    static func run(_ session: PTPSession) async throws -> Outcome {
        try await session.openSession()
        let deviceInfo = try await session.getDeviceInfo()
        let storageIDs = try await session.getStorageIDs()
        let handles = try await session.getObjectHandles()
        let info = try await session.getObjectInfo(handles[0])
        let sink = PTPMemorySink(limit: 1 << 30)
        _ = try await session.getObject(handles[0], into: sink)
        try await session.setDevicePropValue(.exposureIndex, .uint16(400))
        let iso = try await session.getDevicePropValue(.exposureIndex, type: .uint16)
        try await session.initiateCapture()
        var events: [PTPEvent] = []
        while events.count < 2, let event = try await session.nextEvent(timeout: .seconds(300)) { events.append(event) }
        try await session.closeSession()
        return Outcome(
            deviceInfo: deviceInfo, storageIDs: storageIDs, handles: handles, info: info, picture: await sink.bytes,
            iso: iso, events: events)
    }

    /// Records a session with a MiniCamera behind the in-memory USB seam.
    static func recordUSB(to path: String, pictureByteCount: Int = 3000) async throws -> Outcome {
        let recorder = try PcapngRecorder(
            path: path, configuration: .init(rawcapVersion: "test", clock: steppingClock()))
        let memory = InMemoryBulkPipe(maxPacketSize: 512)
        let device = USBDeviceSide(pipe: memory, responder: MiniCamera(pictureByteCount: pictureByteCount))
        let running = Task { await device.run() }
        let pipe = try await RecordingBulkPipe.start(wrapping: memory, recorder: recorder)
        let session = PTPSession(transport: PTPUSBTransport(pipe: pipe), configuration: .init(timeout: .seconds(300)))
        let outcome = try await run(session)
        running.cancel()
        await memory.disconnect()
        await recorder.close()
        return outcome
    }

    static let host: [UInt8] = [10, 0, 0, 1]
    static let camera: [UInt8] = [10, 0, 0, 2]

    /// Records a session with a MiniCamera behind the in-memory PTP/IP seam (both connections recorded).
    static func recordPTPIP(to path: String, pictureByteCount: Int = 3000) async throws -> Outcome {
        let recorder = try PcapngRecorder(
            path: path, configuration: .init(rawcapVersion: "test", clock: steppingClock()))
        let (hostCommand, deviceCommand) = InMemoryByteStream.pair()
        let (hostEvent, deviceEvent) = InMemoryByteStream.pair()
        let device = PTPIPDeviceSide(
            command: deviceCommand, responder: MiniCamera(pictureByteCount: pictureByteCount),
            configuration: .init(friendlyName: "MiniCam 1"))
        let running = Task { await device.run(eventStream: { deviceEvent }) }
        let server = TCPEndpoint(address: camera, port: 15740)
        let command = try await RecordingByteStream.start(
            wrapping: hostCommand, recorder: recorder, client: TCPEndpoint(address: host, port: 50000), server: server,
            side: .client)
        let transport = try await PTPIPTransport.connect(
            command: command,
            openEventStream: {
                try await RecordingByteStream.start(
                    wrapping: hostEvent, recorder: recorder, client: TCPEndpoint(address: host, port: 50001),
                    server: server, side: .client)
            }, identity: .init(guid: PTPIPGUID(Array(1...16)) ?? .random(), friendlyName: "rawcap-test"),
            timeout: .seconds(300))
        let session = PTPSession(transport: transport, configuration: .init(timeout: .seconds(300)))
        let outcome = try await run(session)
        await transport.close()
        running.cancel()
        await recorder.close()
        return outcome
    }

    /// Runs tshark (without blocking a Swift pool thread); ends the test like `ExternalTool.require` when it is
    /// missing.
    static func tshark(_ arguments: [String]) async throws -> Subprocess.Result {
        let tshark = try ExternalTool.require("tshark")
        return try await Subprocess.runDetached(tshark, arguments)
    }
}
