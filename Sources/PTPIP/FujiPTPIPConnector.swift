import Logging
import PTP

/// Connects to a Fujifilm body on Wi-Fi: TCP to its command port (55740 unless told), the Fujifilm handshake, then
/// ``PTP/FujiPTPIPTransport``, which opens the event port (the command port + 1, 55741) and the live-view port (the
/// command port + 2, 55742) after InitiateOpenCapture, as libgphoto2 `fujiptpip.c` `ptp_fujiptpip_connect` and
/// `ptp_fujiptpip_init_event` do.
public enum FujiPTPIPConnector {
    /// Connects to `address` (its port is the command port).
    ///
    /// - Throws: ``PTP/TransportError`` with a ``PTPIPConnectFailure`` when nothing answers at the address,
    ///   `.rejected` when the body refuses this host, or what the handshake throws.
    public static func connect(
        to address: PTPIPAddress, options: PTPIPConnector.Options = .init(),
        logger: Logger = Logger(label: "rawcap.fujiptpip")
    ) async throws -> FujiPTPIPTransport {
        let command = try await PTPIPConnector.openCommandConnection(
            to: address, options: options, camera: "Fujifilm camera", logger: logger)
        let target = command.remoteAddress
        // The event port is the command port + 1 (55741), on the address the command connection reached.
        let eventTarget = SocketAddress(
            family: target.family, addressBytes: target.addressBytes, port: target.port &+ 1)
        let liveViewTarget = SocketAddress(
            family: target.family, addressBytes: target.addressBytes, port: target.port &+ 2)
        let identity = options.identity ?? PTPIPHostIdentity.load(logger: logger).transportIdentity
        let wrap = options.wrapStream
        let stream = options.stream
        let connectTimeout = options.connectTimeout
        let commandStream: any ByteStream
        do {
            commandStream = try await wrap?(command, .command) ?? command
        } catch {
            await command.close()
            throw error
        }
        @Sendable func open(_ target: SocketAddress, _ what: String, recorded: Bool) async throws -> any ByteStream {
            let connection: TCPByteStream
            do throws(ByteStreamError) {
                connection = try await TCPByteStream.connect(to: target, timeout: connectTimeout, configuration: stream)
            } catch {
                throw TransportError(
                    error.code == .timeout ? .timeout : .ioError, underlyingError: error, "\(what) to \(target)")
            }
            // A recording holds the command and event connections; live-view frames are not recorded.
            guard recorded else { return connection }
            do {
                return try await wrap?(connection, .event) ?? connection
            } catch {
                await connection.close()
                throw error
            }
        }
        let transport = try await FujiPTPIPTransport.connect(
            command: commandStream,
            openEventStream: { try await open(eventTarget, "event connection", recorded: true) },
            openLiveViewStream: { try await open(liveViewTarget, "live-view connection", recorded: false) },
            identity: identity, timeout: options.handshakeTimeout, logger: logger)
        logger.info(
            "connected to Fujifilm camera \"\(transport.cameraName)\" at \(target) as \"\(identity.friendlyName)\"")
        return transport
    }
}
