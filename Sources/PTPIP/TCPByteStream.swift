import PTP

#if canImport(Glibc)
    import Glibc
#endif

/// A ``PTP/ByteStream`` over a TCP socket: the link under ``PTP/PTPIPTransport`` to a Wi-Fi camera, and under
/// ``PTP/PTPIPDeviceSide`` in the emulated camera's server.
///
/// - `TCP_NODELAY` is set: PTP/IP exchanges many small packets, and Nagle's algorithm plus delayed ACKs cost about
///   44 ms per exchange on loopback (measured with gphoto2; PTP notes §3.3 item 11).
/// - The socket is non-blocking; waits happen in `poll(2)` on a dispatch queue, never on Swift's cooperative pool
///   (see ``SocketDescriptor``). Task cancellation and ``close()`` end a wait at once.
/// - ``receive(maxLength:timeout:)`` returns what one `recv` delivers; ``send(_:)`` writes everything or throws,
///   giving up after ``Configuration/sendTimeout`` without progress (a peer that stopped reading).
/// - ``close()`` sends FIN after the queued bytes, so the peer reads everything that was sent, then sees the end.
///
/// Errors are ``PTP/ByteStreamError``s whose `underlyingError` is a ``SocketError`` naming the `errno`.
public final class TCPByteStream: ByteStream, Sendable, CustomStringConvertible {
    /// Tuning.
    public struct Configuration: Sendable, Hashable {
        /// How long a send may wait for room in the socket buffer before it fails with
        /// ``PTP/ByteStreamError/Code/timeout``.
        public var sendTimeout: Duration
        /// Largest single `recv`; ``receive(maxLength:timeout:)`` asks for at most this much.
        public var receiveChunkByteCount: Int

        /// Creates a configuration.
        public init(sendTimeout: Duration = .seconds(10), receiveChunkByteCount: Int = 256 * 1024) {
            self.sendTimeout = sendTimeout
            self.receiveChunkByteCount = max(1, receiveChunkByteCount)
        }
    }

    /// This end's address.
    public let localAddress: SocketAddress
    /// The peer's address.
    public let remoteAddress: SocketAddress
    /// The configuration in use.
    public let configuration: Configuration

    private let socket: SocketDescriptor
    private let sendLock = SendLock()

    /// Adopts a connected, non-blocking socket and sets `TCP_NODELAY` on it.
    convenience init(
        adopting descriptor: Int32, local: SocketAddress, remote: SocketAddress, configuration: Configuration
    ) {
        self.init(
            socket: SocketDescriptor(descriptor, label: "\(remote)"), local: local, remote: remote,
            configuration: configuration)
    }

    private init(socket: SocketDescriptor, local: SocketAddress, remote: SocketAddress, configuration: Configuration) {
        _ = try? socket.withDescriptor("TCP_NODELAY") { descriptor throws(ByteStreamError) in
            var one: Int32 = 1
            setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        self.socket = socket
        localAddress = local
        remoteAddress = remote
        self.configuration = configuration
    }

    /// Connects to `address`, waiting at most `timeout` for the TCP handshake.
    ///
    /// - Throws: ``PTP/ByteStreamError`` with ``PTP/ByteStreamError/Code/timeout`` when the handshake does not
    ///   finish in time, ``PTP/ByteStreamError/Code/reset`` with the ``SocketError`` (`ECONNREFUSED`,
    ///   `EHOSTUNREACH`, …) when it fails, ``PTP/ByteStreamError/Code/cancelled`` when the task is cancelled.
    public static func connect(
        to address: SocketAddress, timeout: Duration, configuration: Configuration = Configuration()
    ) async throws(ByteStreamError) -> TCPByteStream {
        let what = "connect \(address)"
        let descriptor = try Socket.makeStream(family: address.family, what)
        let pending = SocketDescriptor(descriptor, label: "\(address)")
        let status = address.withSockaddr { Glibc.connect(descriptor, $0, $1) }
        if status != 0 {
            guard errno == EINPROGRESS else {
                let error = SocketError.current(what)
                pending.close()
                throw ByteStreamError(.reset, underlyingError: error, what)
            }
            do {
                try await pending.wait(.writable, until: .now + timeout, what)
            } catch {
                pending.close()
                throw error
            }
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length)
            if failure != 0 {
                pending.close()
                throw ByteStreamError(.reset, underlyingError: SocketError(.init(rawValue: failure), what), what)
            }
        }
        let local = SocketAddress.of(socket: descriptor, peer: false) ?? address
        return TCPByteStream(socket: pending, local: local, remote: address, configuration: configuration)
    }

    // MARK: ByteStream

    /// Sends all of `bytes`, waiting for room as needed; a peer that stops reading for
    /// ``Configuration/sendTimeout`` makes it throw ``PTP/ByteStreamError/Code/timeout``.
    public func send(_ bytes: [UInt8]) async throws(ByteStreamError) {
        guard !bytes.isEmpty else { return }
        try await sendLock.withLock { () async throws(ByteStreamError) in
            var offset = 0
            var deadline = ContinuousClock.now + configuration.sendTimeout
            while offset < bytes.count {
                let sent = try socket.withDescriptor("send to \(remoteAddress)") { descriptor throws(ByteStreamError) in
                    try Self.sendSome(descriptor, bytes, from: offset, remote: remoteAddress)
                }
                if sent > 0 {
                    offset += sent
                    deadline = .now + configuration.sendTimeout
                } else {
                    try await socket.wait(.writable, until: deadline, "send to \(remoteAddress)")
                }
            }
        }
    }

    /// Returns the bytes one `recv` delivers (up to `maxLength`), waiting up to `timeout` for the first one.
    public func receive(maxLength: Int, timeout: Duration) async throws(ByteStreamError) -> [UInt8] {
        let what = "receive from \(remoteAddress)"
        let deadline = ContinuousClock.now + timeout
        let capacity = max(1, min(maxLength, configuration.receiveChunkByteCount))
        while true {
            let received = try socket.withDescriptor(what) { descriptor throws(ByteStreamError) in
                try Self.receiveSome(descriptor, capacity: capacity, what)
            }
            if let received { return received }
            try await socket.wait(.readable, until: deadline, what)
        }
    }

    /// Sends FIN after the queued bytes and releases the socket; waits in progress end with
    /// ``PTP/ByteStreamError/Code/closed``.
    public func close() async {
        socket.close()
    }

    /// Whether `TCP_NODELAY` is set on the socket (`getsockopt`); `false` once closed.
    public var isNoDelayEnabled: Bool {
        (try? socket.withDescriptor("TCP_NODELAY") { descriptor throws(ByteStreamError) -> Bool in
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &value, &length) == 0 && value != 0
        }) ?? false
    }

    /// E.g. `TCP 127.0.0.1:50312 → 127.0.0.1:15740`.
    public var description: String { "TCP \(localAddress) → \(remoteAddress)" }

    // MARK: Socket calls

    /// One non-blocking `send`; returns 0 when the buffer is full.
    private static func sendSome(_ descriptor: Int32, _ bytes: [UInt8], from offset: Int, remote: SocketAddress)
        throws(ByteStreamError) -> Int
    {
        while true {
            let count = bytes.withUnsafeBytes { raw in
                Glibc.send(
                    descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset,
                    Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if count >= 0 { return count }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return 0
            default: throw Socket.streamError(SocketError.current("send to \(remote)"))
            }
        }
    }

    /// One non-blocking `recv` into a new array (not zero-filled first: `recv` writes what it returns); `nil` when
    /// nothing is there yet.
    private static func receiveSome(_ descriptor: Int32, capacity: Int, _ what: String) throws(ByteStreamError)
        -> [UInt8]?
    {
        while true {
            var failure: Int32 = 0
            var closed = false
            let buffer = [UInt8](unsafeUninitializedCapacity: capacity) { raw, initialized in
                let count = recv(descriptor, raw.baseAddress, raw.count, Int32(MSG_DONTWAIT))
                if count < 0 { failure = errno }
                closed = count == 0
                initialized = max(0, count)
            }
            if !buffer.isEmpty {
                // Do not keep a large, mostly empty buffer alive behind a small packet (a copy; `Array(buffer[...])`
                // would keep the whole allocation).
                return buffer.count < capacity / 2 ? buffer.withUnsafeBufferPointer { Array($0) } : buffer
            }
            if closed { throw ByteStreamError(.closed, "\(what): the peer closed the connection") }
            switch failure {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return nil
            default: throw Socket.streamError(SocketError(.init(rawValue: failure), what))
            }
        }
    }
}
