import Logging
import PTP

/// Connects to a Fujifilm body on Wi-Fi: TCP to its command port (55740 unless told), the Fujifilm handshake, then
/// ``PTP/FujiPTPIPTransport``, which opens the event port (the command port + 1, 55741) after InitiateOpenCapture,
/// as libgphoto2 `fujiptpip.c` `ptp_fujiptpip_connect` and `ptp_fujiptpip_init_event` do.
public enum FujiPTPIPConnector {
    /// Connects to `address` (its port is the command port).
    ///
    /// - Throws: ``PTP/TransportError`` with a ``PTPIPConnectFailure`` when nothing answers at the address,
    ///   `.rejected` when the body refuses this host, or what the handshake throws.
    public static func connect(
        to address: PTPIPAddress, options: PTPIPConnector.Options = .init(),
        logger: Logger = Logger(label: "rawcap.fujiptpip")
    ) async throws -> FujiPTPIPTransport {
        let candidates: [SocketAddress]
        do {
            candidates = try await SocketAddress.resolve(host: address.host, port: address.port)
        } catch {
            throw TransportError(
                .ioError, underlyingError: PTPIPConnectFailure(address: address, reason: error),
                "Fujifilm camera \(address)")
        }
        var lastError: ByteStreamError?
        var command: TCPByteStream?
        for candidate in candidates {
            do {
                command = try await TCPByteStream.connect(
                    to: candidate, timeout: options.connectTimeout, configuration: options.stream)
                break
            } catch {
                lastError = error
                if error.code == .cancelled { break }
            }
        }
        guard let command else {
            let error = lastError ?? ByteStreamError(.ioError, "no address for \(address.host)")
            throw TransportError(
                error.code == .timeout ? .timeout : .ioError,
                underlyingError: PTPIPConnectFailure(address: address, reason: error),
                "cannot connect to Fujifilm camera \(address)")
        }
        let target = command.remoteAddress
        // The event port is the command port + 1 (55741), on the address the command connection reached.
        let eventTarget = SocketAddress(
            family: target.family, addressBytes: target.addressBytes, port: target.port &+ 1)
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
        let transport = try await FujiPTPIPTransport.connect(
            command: commandStream,
            openEventStream: {
                let event: TCPByteStream
                do throws(ByteStreamError) {
                    event = try await TCPByteStream.connect(
                        to: eventTarget, timeout: connectTimeout, configuration: stream)
                } catch {
                    throw TransportError(
                        error.code == .timeout ? .timeout : .ioError, underlyingError: error,
                        "event connection to \(eventTarget)")
                }
                do {
                    return try await wrap?(event, .event) ?? event
                } catch {
                    await event.close()
                    throw error
                }
            },
            identity: identity, timeout: options.handshakeTimeout, logger: logger)
        logger.info(
            "connected to Fujifilm camera \"\(transport.cameraName)\" at \(target) as \"\(identity.friendlyName)\"")
        return transport
    }
}
