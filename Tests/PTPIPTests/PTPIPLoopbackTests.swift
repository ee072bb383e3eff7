import Logging
import PTP
import PTPIP
import PTPTestSupport
import TestSupport
import Testing

/// The host connector and the camera listener over real loopback sockets.
// One test at a time: they keep the CPU busy, and the test process shares its two pool threads with tests
// that have deadlines (ARCHITECTURE.md, Tests).
@Suite(.serialized) struct PTPIPLoopbackTests {
    /// A listener on a free loopback port, running.
    struct Running {
        let listener: PTPIPListener
        let task: Task<Void, Never>
        var address: PTPIPAddress { PTPIPAddress(host: "127.0.0.1", port: listener.localAddress.port) }

        init(_ server: PTPIPServer) throws {
            listener = try PTPIPListener(address: .loopback(port: 0), server: server)
            let listener = self.listener
            task = Task { await listener.run() }
        }

        func stop() async {
            await listener.stop()
            await task.value
        }
    }

    static let options = PTPIPConnector.Options(
        connectTimeout: .seconds(300), handshakeTimeout: .seconds(300),
        identity: .init(guid: .random(), friendlyName: "loopback-test"))

    @Test func aSessionRunsOverTCP() async throws {
        let camera = MiniCamera(pictureByteCount: 2_000_000)
        let running = try Running(
            PTPIPServer(responder: camera, configuration: .init(device: .init(friendlyName: "MiniCam 1"))))
        let transport = try await PTPIPConnector.connect(to: running.address, options: Self.options)
        #expect(transport.responder.friendlyName == "MiniCam 1")
        let session = PTPSession(transport: transport, configuration: .init(timeout: .seconds(300)))
        try await session.openSession()
        let info = try await session.getDeviceInfo()
        #expect(info.model == "MiniCam 1")
        #expect(try await session.getStorageIDs() == [MiniCamera.storageID])
        let handles = try await session.getObjectHandles()
        #expect(handles == [MiniCamera.firstHandle])
        let sink = PTPMemorySink()
        #expect(try await session.getObject(handles[0], into: sink) == 2_000_000)
        #expect(
            await sink.bytes == MiniCamera.pictureBytes(byteCount: 2_000_000, seed: MiniCamera.firstHandle.rawValue))
        try await session.setDevicePropValue(.exposureIndex, .uint16(400))
        #expect(await camera.iso == 400)
        try await session.initiateCapture()
        let added = try await session.nextEvent(timeout: .seconds(300))
        #expect(added?.code == .objectAdded)
        let complete = try await session.nextEvent(timeout: .seconds(300))
        #expect(complete?.code == .captureComplete)
        await transport.close()
        await running.listener.server.waitForFinishedClients(1)
        await running.stop()
    }

    @Test func bothEndsSetNoDelay() async throws {
        // PTP/IP's small packets would otherwise wait for delayed ACKs: about 44 ms per exchange on loopback
        // (PTP notes §3.3 item 11). A timing test would flake on a loaded machine; the option itself does not.
        let noDelay = NoDelayLog()
        let server = PTPIPServer(responder: MiniCamera())
        let listener = try PTPIPListener(
            address: .loopback(port: 0), server: server,
            wrapConnection: { stream in
                await noDelay.add("camera", stream.isNoDelayEnabled)
                return stream
            })
        let running = Task { await listener.run() }
        var options = Self.options
        options.wrapStream = { stream, connection in
            await noDelay.add("host \(connection)", stream.isNoDelayEnabled)
            return stream
        }
        let address = PTPIPAddress(host: "127.0.0.1", port: listener.localAddress.port)
        let transport = try await PTPIPConnector.connect(to: address, options: options)
        let entries = await noDelay.entries
        #expect(entries.filter { $0.starts(with: "host") }.count == 2)
        #expect(entries.filter { $0.starts(with: "camera") }.count == 2)
        #expect(entries.allSatisfy { $0.hasSuffix("true") }, "\(entries)")
        await transport.close()
        await listener.stop()
        await running.value
    }

    @Test func aClientThatDisconnectsMidDataLeavesTheServerReady() async throws {
        let running = try Running(PTPIPServer { _ in MiniCamera(pictureByteCount: 3_000_000) })
        // A hand-driven client: handshake, OpenSession, GetObject, then it hangs up after the first bytes.
        let command = try await TCPByteStream.connect(to: running.listener.localAddress, timeout: .seconds(300))
        try await command.send(
            PTPIPPacket.initCommandRequest(.init(guid: .random(), friendlyName: "quitter")).ptpipEncoded)
        _ = try await command.receive(maxLength: 4096, timeout: .seconds(300))
        let event = try await TCPByteStream.connect(to: running.listener.localAddress, timeout: .seconds(300))
        try await event.send(PTPIPPacket.initEventRequest(connectionNumber: 1).ptpipEncoded)
        _ = try await event.receive(maxLength: 4096, timeout: .seconds(300))
        try await command.send(
            PTPIPPacket.operationRequest(dataPhase: .noneOrIn, code: .openSession, transactionID: 0, parameters: [1])
                .ptpipEncoded)
        _ = try await command.receive(maxLength: 4096, timeout: .seconds(300))
        try await command.send(
            PTPIPPacket.operationRequest(
                dataPhase: .noneOrIn, code: .getObject, transactionID: 1,
                parameters: [MiniCamera.firstHandle.rawValue]
            ).ptpipEncoded)
        _ = try await command.receive(maxLength: 1000, timeout: .seconds(300))
        await command.close()
        await event.close()
        await running.listener.server.waitForFinishedClients(1)
        // The next client gets the whole picture.
        let transport = try await PTPIPConnector.connect(to: running.address, options: Self.options)
        let session = PTPSession(transport: transport, configuration: .init(timeout: .seconds(300)))
        try await session.openSession()
        let sink = PTPMemorySink(limit: 32 << 20)
        #expect(try await session.getObject(MiniCamera.firstHandle, into: sink) == 3_000_000)
        await transport.close()
        await running.stop()
    }

    @Test func aServerThatGoesAwayIsADisconnect() async throws {
        let running = try Running(PTPIPServer(responder: MiniCamera()))
        let transport = try await PTPIPConnector.connect(to: running.address, options: Self.options)
        let session = PTPSession(transport: transport, configuration: .init(timeout: .seconds(300)))
        try await session.openSession()
        await running.stop()
        let error = await #expect(throws: TransportError(.disconnected)) { _ = try await session.getDeviceInfo() }
        #expect(error?.underlyingError is ByteStreamError)
        await transport.close()
    }

    @Test func aSlowCameraTimesOutTheTransaction() async throws {
        let running = try Running(PTPIPServer(responder: SlowResponder(delay: .seconds(2))))
        let transport = try await PTPIPConnector.connect(to: running.address, options: Self.options)
        let session = PTPSession(transport: transport, configuration: .init(timeout: .milliseconds(300)))
        let start = ContinuousClock.now
        await #expect(throws: TransportError(.timeout)) { try await session.openSession() }
        #expect(ContinuousClock.now - start < .seconds(120))
        await transport.close()
        await running.stop()
    }

    @Test func ipv6LoopbackWorksToo() async throws {
        let address = try #require(SocketAddress(numericHost: "::1", port: 0))
        let listener: PTPIPListener
        do {
            listener = try PTPIPListener(address: address, server: PTPIPServer(responder: MiniCamera()))
        } catch {
            // A machine without IPv6 (a container with it disabled) cannot run this test.
            try Test.cancel("no IPv6 loopback here: \(error)")
        }
        let running = Task { await listener.run() }
        let transport = try await PTPIPConnector.connect(
            to: try PTPIPAddress(parsing: "[::1]:\(listener.localAddress.port)"), options: Self.options)
        let session = PTPSession(transport: transport, configuration: .init(timeout: .seconds(300)))
        try await session.openSession()
        #expect(try await session.getDeviceInfo().model == "MiniCam 1")
        await transport.close()
        await listener.stop()
        await running.value
    }

    @Test func nothingListeningIsAConnectError() async throws {
        let listener = try TCPListener(address: .loopback(port: 0))
        let port = listener.localAddress.port
        listener.close()
        let error = await #expect(throws: TransportError(.ioError)) {
            _ = try await PTPIPConnector.connect(to: PTPIPAddress(host: "127.0.0.1", port: port), options: Self.options)
        }
        let failure = try #require(error?.underlyingError as? PTPIPConnectFailure)
        let stream = try #require(failure.reason as? ByteStreamError)
        #expect((stream.underlyingError as? SocketError)?.code == .connectionRefused)
        #expect(failure.description.contains("ECONNREFUSED"))
    }

    @Test func theStreamWrapperSeesBothConnections() async throws {
        let running = try Running(PTPIPServer(responder: MiniCamera()))
        let seen = Seen()
        var options = Self.options
        options.wrapStream = { stream, connection in
            await seen.add(connection, stream.remoteAddress.port)
            return stream
        }
        let transport = try await PTPIPConnector.connect(to: running.address, options: options)
        #expect(await seen.items == [.init(.command, running.address.port), .init(.event, running.address.port)])
        await transport.close()
        await running.stop()
    }
}

/// Records what the stream wrapper saw.
actor Seen {
    struct Item: Hashable {
        var connection: PTPIPConnector.Connection
        var port: UInt16
        init(_ connection: PTPIPConnector.Connection, _ port: UInt16) {
            (self.connection, self.port) = (connection, port)
        }
    }
    var items: [Item] = []
    func add(_ connection: PTPIPConnector.Connection, _ port: UInt16) { items.append(Item(connection, port)) }
}

/// Which streams had TCP_NODELAY.
actor NoDelayLog {
    var entries: [String] = []
    func add(_ who: String, _ enabled: Bool) { entries.append("\(who): \(enabled)") }
}

/// Answers everything after a delay.
struct SlowResponder: PTPResponder {
    let delay: Duration
    func respond(to request: PTPRequest, dataOut: [UInt8]?) async -> PTPResponderReply {
        try? await Task.sleep(for: delay)
        return PTPResponderReply()
    }
}
