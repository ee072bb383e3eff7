/// A ``ByteStream`` in memory; ``pair(capacity:)`` makes two connected ends, like a TCP connection on loopback.
///
/// Each direction holds at most `capacity` bytes before the sender waits, so a device streaming a large object
/// keeps pace with the reader. ``close()`` ends the stream for the peer after it has read what was sent;
/// ``disconnect()`` breaks both directions at once, as a connection reset does.
public final class InMemoryByteStream: ByteStream, Sendable {
    private let incoming: InMemoryChannel
    private let outgoing: InMemoryChannel

    private init(incoming: InMemoryChannel, outgoing: InMemoryChannel) {
        self.incoming = incoming
        self.outgoing = outgoing
    }

    /// Two connected ends: what one sends, the other receives.
    public static func pair(capacity: Int = 4 * 1024 * 1024) -> (InMemoryByteStream, InMemoryByteStream) {
        let forward = InMemoryChannel(packetSize: 1, capacity: capacity)
        let backward = InMemoryChannel(packetSize: 1, capacity: capacity)
        return (
            InMemoryByteStream(incoming: backward, outgoing: forward),
            InMemoryByteStream(incoming: forward, outgoing: backward)
        )
    }

    /// Sends all of `bytes`, waiting while the peer is behind.
    public func send(_ bytes: [UInt8]) async throws(ByteStreamError) {
        do {
            try await outgoing.write(bytes, deadline: nil)
        } catch {
            throw Self.map(error, "send")
        }
    }

    /// Receives what is there, up to `maxLength` bytes.
    public func receive(maxLength: Int, timeout: Duration) async throws(ByteStreamError) -> [UInt8] {
        do {
            return try await incoming.readAvailable(maxLength: max(1, maxLength), deadline: .now + timeout)
        } catch {
            throw Self.map(error, "receive")
        }
    }

    /// Ends this end's sending direction and stops receiving.
    public func close() async {
        await outgoing.close()
        await incoming.close()
    }

    /// Breaks both directions at once.
    public func disconnect() async {
        await outgoing.disconnect()
        await incoming.disconnect()
    }

    private static func map(_ failure: InMemoryChannel.Failure, _ what: String) -> ByteStreamError {
        switch failure {
        case .timeout: ByteStreamError(.timeout, what)
        case .closed: ByteStreamError(.closed, what)
        case .disconnected, .stalled: ByteStreamError(.reset, what)
        case .cancelled: ByteStreamError(.cancelled, what)
        }
    }
}
