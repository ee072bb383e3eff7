import Logging
import PTP

/// Serves a ``PTP/PTPResponder`` the way a Fujifilm body on Wi-Fi does: the command port (55740 by default), the
/// event port right above it (55741) and the live-view port above that (55742), one host at a time
/// (``PTP/FujiPTPIPDeviceSide`` per connection).
///
/// A port of 0 picks three free neighbouring ports. Event and live-view connections attach to the host being
/// served.
public final class FujiPTPIPListener: Sendable {
    /// Wraps each accepted connection (a recorder) before it is served.
    public typealias ConnectionWrapper = @Sendable (TCPByteStream) async throws -> any ByteStream

    /// The command port's address.
    public var localAddress: SocketAddress { command.localAddress }
    /// The event port's address (the command port + 1).
    public var eventAddress: SocketAddress { event.localAddress }
    /// The live-view port's address (the command port + 2).
    public var liveViewAddress: SocketAddress { liveView.localAddress }

    private let command: TCPListener
    private let event: TCPListener
    private let liveView: TCPListener
    private let state: State
    private let makeResponder: @Sendable (FujiPTPIPHandshake.Request?) async -> any PTPResponder
    private let friendlyName: String
    private let wrapConnection: ConnectionWrapper?
    private let logger: Logger

    /// The host being served, for event connections to attach to.
    actor State {
        var current: FujiPTPIPDeviceSide?
        var stream: (any ByteStream)?
        var served = 0
        func set(_ device: FujiPTPIPDeviceSide?, stream: (any ByteStream)?) {
            current = device
            self.stream = stream
            if device != nil { served += 1 }
        }
    }

    /// Binds the three ports.
    ///
    /// - Parameters:
    ///   - makeResponder: the responder for each new host (called after its connection is accepted).
    /// - Throws: ``SocketError`` when a port cannot be bound.
    public init(
        address: SocketAddress = .loopback(port: FujifilmPTPIP.commandPort), friendlyName: String,
        wrapConnection: ConnectionWrapper? = nil, logger: Logger = Logger(label: "rawcap.fujiptpip"),
        makeResponder: @escaping @Sendable (FujiPTPIPHandshake.Request?) async -> any PTPResponder
    ) throws(SocketError) {
        (command, event, liveView) = try Self.bindPorts(address, logger: logger)
        state = State()
        self.friendlyName = friendlyName
        self.wrapConnection = wrapConnection
        self.logger = logger
        self.makeResponder = makeResponder
    }

    /// The command listener at `address`, the event listener at its port + 1 and the live-view listener at its
    /// port + 2; with port 0, the first free three.
    private static func bindPorts(_ address: SocketAddress, logger: Logger) throws(SocketError) -> (
        TCPListener, TCPListener, TCPListener
    ) {
        var attempt = 0
        while true {
            let command = try TCPListener(address: address, logger: logger)
            func above(_ offset: UInt16) -> SocketAddress {
                SocketAddress(
                    family: address.family, addressBytes: address.addressBytes,
                    port: command.localAddress.port &+ offset)
            }
            var event: TCPListener?
            do throws(SocketError) {
                let events = try TCPListener(address: above(1), logger: logger)
                event = events
                return (command, events, try TCPListener(address: above(2), logger: logger))
            } catch {
                command.close()
                event?.close()
                // With port 0 other free ports may exist; a fixed port is what it is.
                attempt += 1
                guard address.port == 0, attempt < 32 else { throw error }
            }
        }
    }

    /// How many hosts have been served.
    public var servedCount: Int { get async { await state.served } }

    /// Serves hosts one after another until ``stop()``.
    public func run() async {
        logger.info(
            "Fujifilm PTP/IP responder listening on \(localAddress), \(eventAddress) and \(liveViewAddress)")
        let events = Task { await acceptEvents() }
        let liveViews = Task { await acceptLiveViews() }
        while true {
            let connection: TCPByteStream
            do {
                connection = try await command.accept()
            } catch {
                break
            }
            let stream: any ByteStream
            do {
                stream = try await wrapConnection?(connection) ?? connection
            } catch {
                logger.error("dropping \(connection.remoteAddress): \(error)")
                await connection.close()
                continue
            }
            let responder = await makeResponder(nil)
            let device = FujiPTPIPDeviceSide(
                command: stream, responder: responder, configuration: .init(friendlyName: friendlyName))
            await state.set(device, stream: stream)
            await device.run()
            await state.set(nil, stream: nil)
            logger.info("host \(connection.remoteAddress) gone")
        }
        events.cancel()
        liveViews.cancel()
        event.close()
        liveView.close()
        logger.info("Fujifilm PTP/IP responder on \(localAddress) stopped")
    }

    private func acceptEvents() async {
        while !Task.isCancelled {
            let connection: TCPByteStream
            do {
                connection = try await event.accept()
            } catch {
                return
            }
            let stream: any ByteStream
            do {
                stream = try await wrapConnection?(connection) ?? connection
            } catch {
                await connection.close()
                continue
            }
            guard let device = await state.current else {
                await stream.close()
                continue
            }
            await device.attachEventConnection(stream)
        }
    }

    private func acceptLiveViews() async {
        while !Task.isCancelled {
            let connection: TCPByteStream
            do {
                connection = try await liveView.accept()
            } catch {
                return
            }
            // Live-view frames are not recorded (a recording holds the command and event connections).
            guard let device = await state.current else {
                await connection.close()
                continue
            }
            await device.attachLiveViewConnection(connection)
        }
    }

    /// Stops accepting; the host being served is cut off.
    public func stop() async {
        command.close()
        event.close()
        liveView.close()
        await state.stream?.close()
    }
}
