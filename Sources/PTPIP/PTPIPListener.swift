import Logging
import PTP

/// A TCP listener for the camera side of PTP/IP: the emulated camera's server and `sim serve --from replay:`.
///
/// It binds (to loopback by default, so an emulator is not reachable from the network unless asked), accepts
/// connections (each with `TCP_NODELAY`, see ``TCPListener``) and hands them to a ``PTPIPServer``, which pairs
/// command and event connections and serves one client after another with any ``PTP/PTPResponder``:
///
/// ```swift
/// let listener = try PTPIPListener(address: .loopback(port: 15740), server: PTPIPServer(responder: camera))
/// Task { await listener.run() }     // until listener.stop()
/// // gphoto2 --port ptpip:127.0.0.1:15740:15740 --summary
/// ```
public final class PTPIPListener: Sendable {
    /// Replaces an accepted connection with one that wraps it (a recorder) before the server sees it.
    public typealias ConnectionWrapper = @Sendable (TCPByteStream) async throws -> any ByteStream

    /// The server that serves accepted connections.
    public let server: PTPIPServer

    private let listener: TCPListener
    private let wrapConnection: ConnectionWrapper?
    private let logger: Logger

    /// Binds and listens on `address` (port 0 picks a free port; see ``localAddress``); `wrapConnection` sees each
    /// accepted connection before the server does (`--record` puts a recorder there).
    ///
    /// - Throws: ``SocketError`` when the address cannot be bound (`EADDRINUSE`, `EACCES`, `EADDRNOTAVAIL`).
    public init(
        address: SocketAddress = .loopback(port: PTPIPAddress.defaultPort), server: PTPIPServer, backlog: Int32 = 8,
        streamConfiguration: TCPByteStream.Configuration = .init(), wrapConnection: ConnectionWrapper? = nil,
        logger: Logger = Logger(label: "rawcap.ptpip")
    ) throws(SocketError) {
        listener = try TCPListener(
            address: address, backlog: backlog, streamConfiguration: streamConfiguration, logger: logger)
        self.server = server
        self.wrapConnection = wrapConnection
        self.logger = logger
    }

    /// The address actually bound.
    public var localAddress: SocketAddress { listener.localAddress }

    /// Accepts connections and hands them to ``server`` until ``stop()`` is called or the task is cancelled; the
    /// server is stopped on the way out.
    public func run() async {
        logger.info("PTP/IP responder listening on \(localAddress)")
        while true {
            let connection: TCPByteStream
            do {
                connection = try await listener.accept()
            } catch {
                break
            }
            guard let wrapConnection else {
                await server.accept(connection)
                continue
            }
            do {
                await server.accept(try await wrapConnection(connection))
            } catch {
                logger.error("dropping \(connection.remoteAddress): \(error)")
                await connection.close()
            }
        }
        listener.close()
        await server.stop()
        logger.info("PTP/IP responder on \(localAddress) stopped")
    }

    /// Stops listening and ends the server's client; ``run()`` returns.
    public func stop() async {
        listener.close()
        await server.stop()
    }
}
