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
    /// The server that serves accepted connections.
    public let server: PTPIPServer

    private let listener: TCPListener
    private let logger: Logger

    /// Binds and listens on `address` (port 0 picks a free port; see ``localAddress``).
    ///
    /// - Throws: ``SocketError`` when the address cannot be bound (`EADDRINUSE`, `EACCES`, `EADDRNOTAVAIL`).
    public init(
        address: SocketAddress = .loopback(port: PTPIPAddress.defaultPort), server: PTPIPServer, backlog: Int32 = 8,
        streamConfiguration: TCPByteStream.Configuration = .init(), logger: Logger = Logger(label: "rawcap.ptpip")
    ) throws(SocketError) {
        listener = try TCPListener(
            address: address, backlog: backlog, streamConfiguration: streamConfiguration, logger: logger)
        self.server = server
        self.logger = logger
    }

    /// The address actually bound.
    public var localAddress: SocketAddress { listener.localAddress }

    /// Accepts connections and hands them to ``server`` until ``stop()`` is called or the task is cancelled; the
    /// server is stopped on the way out.
    public func run() async {
        logger.info("PTP/IP responder listening on \(localAddress)")
        while true {
            do {
                let connection = try await listener.accept()
                await server.accept(connection)
            } catch {
                break
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
