import PTP
import PTPIP
import Testing

/// The socket layer on loopback: what ``ByteStream`` promises, with real TCP underneath.
// One test at a time: they keep the CPU busy, and the test process shares its two pool threads with tests
// that have deadlines (ARCHITECTURE.md, Tests).
@Suite(.serialized) struct TCPByteStreamTests {
    /// A connected pair: (client, server end).
    static func connectedPair(
        _ configuration: TCPByteStream.Configuration = .init()
    ) async throws -> (TCPByteStream, TCPByteStream, TCPListener) {
        let listener = try TCPListener(address: .loopback(port: 0), streamConfiguration: configuration)
        async let accepted = listener.accept(timeout: .seconds(300))
        let client = try await TCPByteStream.connect(
            to: listener.localAddress, timeout: .seconds(300), configuration: configuration)
        return (client, try await accepted, listener)
    }

    /// Reads exactly `count` bytes.
    static func receive(_ count: Int, from stream: TCPByteStream) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        while bytes.count < count {
            bytes += try await stream.receive(maxLength: count - bytes.count, timeout: .seconds(300))
        }
        return bytes
    }

    @Test func bytesArriveInOrderBothWays() async throws {
        let (client, server, listener) = try await Self.connectedPair()
        let big = (0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        async let sent: Void = client.send(big)
        #expect(try await Self.receive(big.count, from: server) == big)
        try await sent
        try await server.send([1, 2, 3])
        #expect(try await Self.receive(3, from: client) == [1, 2, 3])
        #expect(client.remoteAddress == listener.localAddress)
        #expect(server.remoteAddress == client.localAddress)
        await client.close()
        await server.close()
        listener.close()
    }

    @Test func aReceiveReturnsWhatIsThereWithoutWaitingForMaxLength() async throws {
        let (client, server, listener) = try await Self.connectedPair()
        try await client.send([9, 8, 7])
        let start = ContinuousClock.now
        let bytes = try await server.receive(maxLength: 1 << 20, timeout: .seconds(300))
        #expect(bytes == [9, 8, 7])
        #expect(ContinuousClock.now - start < .seconds(60))
        await client.close()
        await server.close()
        listener.close()
    }

    @Test func aQuietPeerTimesOut() async throws {
        let (client, server, listener) = try await Self.connectedPair()
        let start = ContinuousClock.now
        await #expect(throws: ByteStreamError(.timeout)) {
            _ = try await client.receive(maxLength: 10, timeout: .milliseconds(200))
        }
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(190) && elapsed < .seconds(120))
        await client.close()
        await server.close()
        listener.close()
    }

    @Test func thePeersCloseEndsTheStreamAfterItsBytes() async throws {
        let (client, server, listener) = try await Self.connectedPair()
        try await server.send([1, 2, 3, 4])
        await server.close()
        #expect(try await Self.receive(4, from: client) == [1, 2, 3, 4])
        await #expect(throws: ByteStreamError(.closed)) {
            _ = try await client.receive(maxLength: 10, timeout: .seconds(300))
        }
        await client.close()
        listener.close()
    }

    @Test func closingEndsAWaitingReceiveAtOnce() async throws {
        let (client, server, listener) = try await Self.connectedPair()
        let waiting = Task { try await client.receive(maxLength: 10, timeout: .seconds(300)) }
        try await Task.sleep(for: .milliseconds(50))
        let start = ContinuousClock.now
        await client.close()
        await #expect(throws: ByteStreamError(.closed)) { _ = try await waiting.value }
        #expect(ContinuousClock.now - start < .seconds(120))
        await #expect(throws: ByteStreamError(.closed)) { try await client.send([1]) }
        await server.close()
        listener.close()
    }

    @Test func cancellingEndsAWaitingReceiveAtOnce() async throws {
        let (client, server, listener) = try await Self.connectedPair()
        let waiting = Task { try await client.receive(maxLength: 10, timeout: .seconds(300)) }
        try await Task.sleep(for: .milliseconds(50))
        let start = ContinuousClock.now
        waiting.cancel()
        await #expect(throws: ByteStreamError(.cancelled)) { _ = try await waiting.value }
        #expect(ContinuousClock.now - start < .seconds(120))
        // The stream is still usable after a cancelled wait.
        try await server.send([5])
        #expect(try await client.receive(maxLength: 10, timeout: .seconds(300)) == [5])
        await client.close()
        await server.close()
        listener.close()
    }

    @Test func aPeerThatStopsReadingMakesSendTimeOut() async throws {
        let (client, server, listener) = try await Self.connectedPair(.init(sendTimeout: .milliseconds(300)))
        // Far more than the socket buffers hold; the server never reads.
        let error = await #expect(throws: ByteStreamError(.timeout)) {
            try await client.send([UInt8](repeating: 0x55, count: 16 << 20))
        }
        #expect(error != nil)
        await client.close()
        await server.close()
        listener.close()
    }

    @Test func aRefusedConnectionNamesTheErrno() async throws {
        // Bind a port, then close it: nothing listens there any more.
        let listener = try TCPListener(address: .loopback(port: 0))
        let address = listener.localAddress
        listener.close()
        let error = await #expect(throws: ByteStreamError(.reset)) {
            _ = try await TCPByteStream.connect(to: address, timeout: .seconds(300))
        }
        let underlying = try #require(error?.underlyingError as? SocketError)
        #expect(underlying == SocketError(.connectionRefused))
        #expect(underlying.description.contains("ECONNREFUSED"))
    }

    @Test func concurrentSendsStayWhole() async throws {
        let (client, server, listener) = try await Self.connectedPair()
        let a = [UInt8](repeating: 0xAA, count: 1 << 20)
        let b = [UInt8](repeating: 0xBB, count: 1 << 20)
        async let first: Void = client.send(a)
        async let second: Void = client.send(b)
        let received = try await Self.receive(2 << 20, from: server)
        try await first
        try await second
        #expect(received == a + b || received == b + a)
        await client.close()
        await server.close()
        listener.close()
    }

    @Test func anOccupiedPortIsABindError() throws {
        let listener = try TCPListener(address: .loopback(port: 0))
        #expect(throws: SocketError(.addressInUse)) {
            _ = try TCPListener(address: listener.localAddress)
        }
        listener.close()
    }
}
