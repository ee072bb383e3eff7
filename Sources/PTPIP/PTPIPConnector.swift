import Logging
import PTP

/// Opens a PTP/IP session with a camera on the network: resolves the host, connects the command connection,
/// performs the handshake through ``PTP/PTPIPTransport`` and, after the Init Command Ack, connects the event
/// connection to the same address, as CIPA DC-X005 §2.2 and real cameras require.
///
/// ```swift
/// let transport = try await PTPIPConnector.connect(to: PTPIPAddress(parsing: "192.168.1.10"))
/// let session = PTPSession(transport: transport)
/// ```
///
/// A ``Options/wrapStream`` hook sees each connected stream before the transport does; `--record` uses it to put a
/// recording stream (`PTPRecord`) around both connections.
public enum PTPIPConnector {
    /// Which of the two connections a stream is.
    public enum Connection: Sendable, Hashable {
        /// The command/data connection, opened first.
        case command
        /// The event connection, opened after the Init Command Ack.
        case event
    }

    /// Replaces a freshly connected stream with one that wraps it (a recorder).
    public typealias StreamWrapper = @Sendable (TCPByteStream, Connection) async throws -> any ByteStream

    /// How to connect.
    public struct Options: Sendable {
        /// Longest wait for each TCP handshake. libgphoto2 uses 2.5 s; Wi-Fi cameras waking up need longer.
        public var connectTimeout: Duration
        /// Longest wait for each Init Ack.
        public var handshakeTimeout: Duration
        /// Who rawcap says it is; ``PTPIPHostIdentity/load(environment:machineIDPaths:logger:)`` when `nil`.
        public var identity: PTPIPTransport.Identity?
        /// Socket tuning.
        public var stream: TCPByteStream.Configuration
        /// Transport tuning.
        public var transport: PTPIPTransport.Configuration
        /// Wraps each connected stream, e.g. in a recorder.
        public var wrapStream: StreamWrapper?

        /// Creates options.
        public init(
            connectTimeout: Duration = .seconds(5), handshakeTimeout: Duration = .seconds(5),
            identity: PTPIPTransport.Identity? = nil, stream: TCPByteStream.Configuration = .init(),
            transport: PTPIPTransport.Configuration = .init(), wrapStream: StreamWrapper? = nil
        ) {
            self.connectTimeout = connectTimeout
            self.handshakeTimeout = handshakeTimeout
            self.identity = identity
            self.stream = stream
            self.transport = transport
            self.wrapStream = wrapStream
        }
    }

    /// The command connection: resolves `address` and tries each resolved address in turn (IPv4 first) until one
    /// accepts; shared by standard and Fujifilm PTP/IP (`camera` names the kind in errors).
    ///
    /// - Throws: ``PTP/TransportError`` with a ``PTPIPConnectFailure`` underneath: `.ioError` when the name does not
    ///   resolve or no address accepts, `.timeout` when the last one timed out, `.cancelled` when the task was.
    public static func openCommandConnection(
        to address: PTPIPAddress, options: Options, camera: String, logger: Logger
    ) async throws -> TCPByteStream {
        let candidates: [SocketAddress]
        do {
            candidates = try await SocketAddress.resolve(host: address.host, port: address.port)
        } catch {
            throw TransportError(
                .ioError, underlyingError: PTPIPConnectFailure(address: address, reason: error), "\(camera) \(address)")
        }
        var lastError: ByteStreamError?
        for candidate in candidates {
            do {
                logger.debug("connecting to \(candidate)")
                return try await TCPByteStream.connect(
                    to: candidate, timeout: options.connectTimeout, configuration: options.stream)
            } catch {
                logger.debug("\(candidate): \(error)")
                lastError = error
                if error.code == .cancelled { break }
            }
        }
        let error = lastError ?? ByteStreamError(.ioError, "no address for \(address.host)")
        let code: TransportError.Code =
            switch error.code {
            case .timeout: .timeout
            case .cancelled: .cancelled
            default: .ioError
            }
        throw TransportError(
            code, underlyingError: PTPIPConnectFailure(address: address, reason: error),
            "cannot connect to \(camera) \(address)")
    }

    /// Connects to the camera at `address` and returns the connected transport.
    ///
    /// Each resolved address is tried in turn (IPv4 first) until one accepts the command connection; the event
    /// connection goes to that same address.
    ///
    /// - Throws: ``PTP/TransportError`` with a ``PTPIPConnectFailure`` underneath when the name does not resolve
    ///   (``PTP/TransportError/Code/ioError``) or no address accepts (``PTP/TransportError/Code/timeout`` or
    ///   ``PTP/TransportError/Code/ioError``); ``PTP/TransportError/Code/rejected`` when the camera answers Init
    ///   Fail; ``PTP/PTPError`` when it answers the handshake with something else.
    public static func connect(
        to address: PTPIPAddress, options: Options = Options(), logger: Logger = Logger(label: "rawcap.ptpip")
    ) async throws -> PTPIPTransport {
        let command = try await openCommandConnection(
            to: address, options: options, camera: "PTP/IP camera", logger: logger)
        let target = command.remoteAddress
        let identity = options.identity ?? PTPIPHostIdentity.load(logger: logger).transportIdentity
        let wrap = options.wrapStream
        let commandStream: any ByteStream
        do {
            commandStream = try await wrap?(command, .command) ?? command
        } catch {
            await command.close()
            throw error
        }
        let stream = options.stream
        let connectTimeout = options.connectTimeout
        let transport = try await PTPIPTransport.connect(
            command: commandStream,
            openEventStream: {
                let event = try await connectEvent(to: target, timeout: connectTimeout, configuration: stream)
                do {
                    return try await wrap?(event, .event) ?? event
                } catch {
                    await event.close()
                    throw error
                }
            },
            identity: identity, timeout: options.handshakeTimeout, logger: logger, configuration: options.transport)
        logger.info(
            "connected to PTP/IP camera \"\(transport.responder.friendlyName)\" at \(target) as \"\(identity.friendlyName)\""
        )
        return transport
    }

    /// Connects the event connection. A refused connection is retried twice after 100 ms: the Ricoh Theta opens
    /// its event port only just after sending the Ack (libgphoto2 `ptpip.c` does the same).
    private static func connectEvent(
        to target: SocketAddress, timeout: Duration, configuration: TCPByteStream.Configuration
    ) async throws -> TCPByteStream {
        var attempts = 0
        while true {
            do {
                return try await TCPByteStream.connect(to: target, timeout: timeout, configuration: configuration)
            } catch {
                let refused = (error.underlyingError as? SocketError)?.code == .connectionRefused
                if refused && attempts < 2 {
                    attempts += 1
                    try await Task.sleep(for: .milliseconds(100))
                    continue
                }
                throw TransportError(
                    error.code == .timeout ? .timeout : .ioError, underlyingError: error,
                    "event connection to \(target)")
            }
        }
    }
}
