import PTP
import PTPIP
import PTPTestSupport
import Testing

/// The server's pairing and one-client-at-a-time rules, over in-memory streams.
// One test at a time: they keep the CPU busy, and the test process shares its two pool threads with tests
// that have deadlines (ARCHITECTURE.md, Tests).
@Suite(.serialized) struct PTPIPServerTests {
    static func connect(
        to server: PTPIPServer, name: String = "host", eventNumber: UInt32? = nil
    ) async throws -> PTPIPTransport {
        let (hostCommand, deviceCommand) = InMemoryByteStream.pair()
        await server.accept(deviceCommand)
        return try await PTPIPTransport.connect(
            command: hostCommand,
            openEventStream: {
                let (hostEvent, deviceEvent) = InMemoryByteStream.pair()
                await server.accept(deviceEvent)
                return hostEvent
            }, identity: .init(guid: .random(), friendlyName: name), timeout: .seconds(300))
    }

    @Test func aClientIsServedWithOperationsAndEvents() async throws {
        let camera = MiniCamera()
        let server = PTPIPServer(responder: camera, configuration: .init(device: .init(friendlyName: "MiniCam 1")))
        let transport = try await Self.connect(to: server)
        #expect(transport.responder.friendlyName == "MiniCam 1")
        #expect(transport.responder.connectionNumber == 1)
        let session = PTPSession(transport: transport, configuration: .init(timeout: .seconds(300)))
        try await session.openSession()
        #expect(try await session.getDeviceInfo().model == "MiniCam 1")
        try await session.setDevicePropValue(.exposureIndex, .uint16(800))
        #expect(await camera.iso == 800)
        try await session.initiateCapture()
        let event = try await session.nextEvent(timeout: .seconds(300))
        #expect(event?.code == .objectAdded)
        #expect(await server.isServing)
        await transport.close()
        await server.waitForFinishedClients(1)
        let record = try #require(await server.finishedClients.first)
        #expect(record.friendlyName == "host")
        #expect(record.requests.map(\.code) == [.openSession, .getDeviceInfo, .setDevicePropValue, .initiateCapture])
        await server.stop()
    }

    @Test func clientsAreServedOneAfterAnotherWithNewConnectionNumbers() async throws {
        let server = PTPIPServer(configuration: .init(firstConnectionNumber: 5)) { _ in MiniCamera() }
        for expected: UInt32 in [5, 6, 7] {
            let transport = try await Self.connect(to: server)
            #expect(transport.responder.connectionNumber == expected)
            let session = PTPSession(transport: transport, configuration: .init(timeout: .seconds(300)))
            try await session.openSession()
            await transport.close()
            await server.waitForFinishedClients(Int(expected - 4))
        }
        await server.stop()
    }

    @Test func aSecondClientIsToldBusy() async throws {
        let server = PTPIPServer(responder: MiniCamera())
        let first = try await Self.connect(to: server, name: "first")
        let error = await #expect(throws: TransportError(.rejected)) {
            _ = try await Self.connect(to: server, name: "second")
        }
        #expect((error?.underlyingError as? PTPIPInitFailure)?.reason == .busy)
        #expect(await server.refusedBusyCount == 1)
        // The first client is unaffected.
        let session = PTPSession(transport: first, configuration: .init(timeout: .seconds(300)))
        try await session.openSession()
        await first.close()
        await server.stop()
    }

    @Test func anEventConnectionWithAWrongNumberIsRefused() async throws {
        let server = PTPIPServer(
            responder: MiniCamera(), configuration: .init(handshakeTimeout: .milliseconds(500)))
        let (hostCommand, deviceCommand) = InMemoryByteStream.pair()
        await server.accept(deviceCommand)
        await #expect(throws: TransportError.self) {
            _ = try await PTPIPTransport.connect(
                command: hostCommand,
                openEventStream: {
                    let (hostEvent, deviceEvent) = InMemoryByteStream.pair()
                    await server.accept(deviceEvent)
                    // Quote another connection number than the Ack gave.
                    try await hostEvent.send(PTPIPPacket.initEventRequest(connectionNumber: 99).ptpipEncoded)
                    return PrefixSkippingStream(hostEvent)
                }, identity: .init(guid: .random(), friendlyName: "h"), timeout: .seconds(300))
        }
        await server.stop()
    }

    @Test func aSilentConnectionIsDroppedAfterTheHandshakeTimeout() async throws {
        let server = PTPIPServer(
            responder: MiniCamera(), configuration: .init(handshakeTimeout: .milliseconds(200)))
        let (host, device) = InMemoryByteStream.pair()
        await server.accept(device)
        await #expect(throws: ByteStreamError(.closed)) {
            _ = try await host.receive(maxLength: 10, timeout: .seconds(300))
        }
        // The server still serves a real client afterwards.
        let transport = try await Self.connect(to: server)
        await transport.close()
        await server.stop()
    }

    @Test func aClientWithoutEventConnectionIsDroppedAndTheNextIsServed() async throws {
        let server = PTPIPServer(
            responder: MiniCamera(), configuration: .init(handshakeTimeout: .milliseconds(300)))
        let (hostCommand, deviceCommand) = InMemoryByteStream.pair()
        await server.accept(deviceCommand)
        await #expect(throws: (any Error).self) {
            _ = try await PTPIPTransport.connect(
                command: hostCommand,
                openEventStream: {
                    // Never connects the event connection.
                    try await Task.sleep(for: .seconds(1))
                    throw CancellationError()
                }, identity: .init(guid: .random(), friendlyName: "h"), timeout: .seconds(300))
        }
        await server.waitForFinishedClients(1)
        let transport = try await Self.connect(to: server)
        await transport.close()
        await server.stop()
    }
}

/// Sends its own Init Event Request already (see the test), so the transport's one is swallowed: the transport
/// then reads the server's answer to the first.
final class PrefixSkippingStream: ByteStream, Sendable {
    let base: InMemoryByteStream
    init(_ base: InMemoryByteStream) { self.base = base }
    func send(_ bytes: [UInt8]) async throws(ByteStreamError) {}
    func receive(maxLength: Int, timeout: Duration) async throws(ByteStreamError) -> [UInt8] {
        try await base.receive(maxLength: maxLength, timeout: timeout)
    }
    func close() async { await base.close() }
}
