import Logging
import PTP

#if canImport(Glibc)
    import Glibc
#endif

/// A listening TCP socket that hands out each accepted connection as a ``TCPByteStream`` (with `TCP_NODELAY`).
///
/// ``PTPIPListener`` builds on it; tests use it directly to stand in for a camera or a host at the socket level.
public final class TCPListener: Sendable {
    /// The address actually bound (the real port when port 0 was asked for).
    public let localAddress: SocketAddress

    private let socket: SocketDescriptor
    private let streamConfiguration: TCPByteStream.Configuration
    private let logger: Logger

    /// Binds and listens on `address`; port 0 picks a free port (see ``localAddress``).
    ///
    /// - Throws: ``SocketError`` when the address cannot be bound (`EADDRINUSE`, `EACCES`, `EADDRNOTAVAIL`).
    public init(
        address: SocketAddress, backlog: Int32 = 8, streamConfiguration: TCPByteStream.Configuration = .init(),
        logger: Logger = Logger(label: "rawcap.ptpip")
    ) throws(SocketError) {
        let descriptor = Glibc.socket(address.family == .ipv4 ? AF_INET : AF_INET6, Socket.streamType, 0)
        guard descriptor >= 0 else { throw SocketError.current("socket") }
        var one: Int32 = 1
        // Restarting a server must not wait out TIME_WAIT of the previous run's connections.
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard address.withSockaddr({ bind(descriptor, $0, $1) }) == 0 else {
            let error = SocketError.current("bind \(address)")
            Glibc.close(descriptor)
            throw error
        }
        guard listen(descriptor, backlog) == 0 else {
            let error = SocketError.current("listen \(address)")
            Glibc.close(descriptor)
            throw error
        }
        localAddress = SocketAddress.of(socket: descriptor, peer: false) ?? address
        socket = SocketDescriptor(descriptor, label: "listen.\(localAddress.port)", isStream: false)
        self.streamConfiguration = streamConfiguration
        self.logger = logger
    }

    /// Waits for the next connection.
    ///
    /// - Throws: ``PTP/ByteStreamError/Code/closed`` after ``close()``, ``PTP/ByteStreamError/Code/cancelled``
    ///   when the task is cancelled, ``PTP/ByteStreamError/Code/timeout`` after `timeout`.
    public func accept(timeout: Duration? = nil) async throws(ByteStreamError) -> TCPByteStream {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while true {
            let outcome = try socket.withDescriptor("accept") { descriptor throws(ByteStreamError) in
                try acceptOne(descriptor)
            }
            switch outcome {
            case .accepted(let stream):
                logger.debug("accepted \(stream.remoteAddress) on \(localAddress)")
                return stream
            case .nothingWaiting:
                try await socket.wait(.readable, until: deadline, "accept on \(localAddress)")
            case .outOfResources(let error):
                // The connection stays queued, so the socket stays readable: pause instead of spinning.
                logger.warning("accept: \(error); retrying in 100 ms")
                do {
                    try await Task.sleep(for: .milliseconds(100))
                } catch {
                    throw ByteStreamError(.cancelled, "accept on \(localAddress)")
                }
            }
        }
    }

    /// Stops listening; a waiting ``accept(timeout:)`` throws ``PTP/ByteStreamError/Code/closed``.
    public func close() {
        socket.close()
    }

    private enum AcceptOutcome {
        case accepted(TCPByteStream)
        case nothingWaiting
        case outOfResources(SocketError)
    }

    /// One non-blocking `accept`.
    private func acceptOne(_ descriptor: Int32) throws(ByteStreamError) -> AcceptOutcome {
        while true {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(descriptor, $0, &length) }
            }
            if client < 0 {
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EAGAIN, EWOULDBLOCK: return .nothingWaiting
                case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .outOfResources(SocketError.current("accept"))
                default:
                    throw ByteStreamError(.ioError, underlyingError: SocketError.current("accept"), "accept")
                }
            }
            // Accepted sockets do not inherit O_NONBLOCK on Linux.
            _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            let remote = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress($0) }
            }
            let local = SocketAddress.of(socket: client, peer: false) ?? localAddress
            return .accepted(
                TCPByteStream(
                    adopting: client, local: local, remote: remote ?? localAddress, configuration: streamConfiguration))
        }
    }
}
