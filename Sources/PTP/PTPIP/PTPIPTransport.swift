import Logging
import WireFormat

/// ``PTPTransport`` over PTP/IP (CIPA DC-X005): a command/data connection and an event connection, each a
/// ``ByteStream``, framed by ``PTPIPFrameDecoder``.
///
/// ``connect(command:openEventStream:identity:timeout:logger:configuration:)`` performs the handshake: Init Command
/// Request with the initiator's GUID and name, Init Command Ack with the connection number (Init Fail throws
/// ``TransportError/Code/rejected`` naming the reason), then — only after the Ack, as cameras require — opens the
/// event connection and exchanges Init Event Request/Ack.
///
/// A transaction sends an Operation Request (DataPhaseInfo 2 when the host sends data), then for data-out Start
/// Data, Data packets and a final End Data; for data-in it accepts both endings seen in the field: Data packets
/// followed by an empty End Data (Sony RX100M7) or everything in one End Data (Canon EOS R, Nikon Z 8). Packets of
/// older transactions are skipped. Probe Requests on the event connection are answered while polling events.
public actor PTPIPTransport: PTPTransport {
    /// Who the host says it is in Init Command Request.
    public struct Identity: Sendable, Hashable {
        /// The initiator's GUID; cameras pair on it, so keep one per host (libgphoto2 stores it in its settings).
        public var guid: PTPIPGUID
        /// The initiator's name (libgphoto2 sends the host name).
        public var friendlyName: String
        /// The protocol version, 0x00010000 for 1.0.
        public var protocolVersion: UInt32

        /// Creates an identity.
        public init(guid: PTPIPGUID, friendlyName: String, protocolVersion: UInt32 = PTPIPPacket.protocolVersion1_0) {
            (self.guid, self.friendlyName, self.protocolVersion) = (guid, friendlyName, protocolVersion)
        }
    }

    /// Tuning.
    public struct Configuration: Sendable {
        /// Payload bytes per Data packet of a host data phase (libgphoto2 sends 64 KiB).
        public var dataPacketByteCount: Int
        /// Bytes asked for per stream read.
        public var receiveByteCount: Int

        /// Creates a configuration.
        public init(dataPacketByteCount: Int = 64 * 1024, receiveByteCount: Int = 1 << 20) {
            self.dataPacketByteCount = max(1, dataPacketByteCount)
            self.receiveByteCount = max(1, receiveByteCount)
        }
    }

    /// The responder's Init Command Ack: connection number, GUID, name and version.
    public nonisolated let responder: PTPIPPacket.InitCommandAck

    private let command: any ByteStream
    private let event: any ByteStream
    private let logger: Logger
    private let configuration: Configuration
    private var commandDecoder: PTPIPFrameDecoder
    private var eventDecoder = PTPIPFrameDecoder()
    private var inTransaction = false
    private var cancelRequested = false
    private var closed = false
    private var failure: (any Error)?

    private init(
        command: any ByteStream, event: any ByteStream, responder: PTPIPPacket.InitCommandAck,
        commandDecoder: PTPIPFrameDecoder, logger: Logger, configuration: Configuration
    ) {
        self.command = command
        self.event = event
        self.responder = responder
        self.commandDecoder = commandDecoder
        self.logger = logger
        self.configuration = configuration
    }

    /// Connects: the handshake on `command`, then on the stream `openEventStream` opens after the Ack.
    ///
    /// - Throws: ``TransportError`` with ``TransportError/Code/rejected`` and a ``PTPIPInitFailure`` underneath
    ///   when the responder sends Init Fail; ``PTPError`` when it answers with anything else.
    public static func connect(
        command: any ByteStream, openEventStream: @Sendable () async throws -> any ByteStream, identity: Identity,
        timeout: Duration, logger: Logger = Logger(label: "rawcap.ptp.ip"),
        configuration: Configuration = Configuration()
    ) async throws -> PTPIPTransport {
        var commandDecoder = PTPIPFrameDecoder()
        let hello = PTPIPPacket.initCommandRequest(
            .init(guid: identity.guid, friendlyName: identity.friendlyName, protocolVersion: identity.protocolVersion))
        try await send(hello, on: command, logger: logger)
        let ack: PTPIPPacket.InitCommandAck
        switch try await receive(
            from: command, decoder: &commandDecoder, timeout: timeout, logger: logger, configuration: configuration)
        {
        case .initCommandAck(let value):
            ack = value
        case .initFail(let reason):
            await command.close()
            throw TransportError(
                .rejected, underlyingError: PTPIPInitFailure(reason: reason), "Init Command Request refused: \(reason)")
        case let other:
            await command.close()
            throw PTPError(.unexpectedContainer, "expected Init Command Ack, got \(other)")
        }
        let event: any ByteStream
        do {
            event = try await openEventStream()
        } catch {
            await command.close()
            throw error
        }
        var eventDecoder = PTPIPFrameDecoder()
        do {
            try await send(.initEventRequest(connectionNumber: ack.connectionNumber), on: event, logger: logger)
            switch try await receive(
                from: event, decoder: &eventDecoder, timeout: timeout, logger: logger, configuration: configuration)
            {
            case .initEventAck:
                break
            case .initFail(let reason):
                throw TransportError(
                    .rejected, underlyingError: PTPIPInitFailure(reason: reason),
                    "Init Event Request refused: \(reason)")
            case let other:
                throw PTPError(.unexpectedContainer, "expected Init Event Ack, got \(other)")
            }
        } catch {
            await command.close()
            await event.close()
            throw error
        }
        logger.debug("PTP/IP connected to \"\(ack.friendlyName)\" as connection \(ack.connectionNumber)")
        return PTPIPTransport(
            command: command, event: event, responder: ack, commandDecoder: commandDecoder, logger: logger,
            configuration: configuration)
    }

    // MARK: PTPTransport

    /// Runs one transaction (see ``PTPTransport``).
    public func transact(
        _ request: PTPRequest, dataOut: (any PTPDataSource)?, dataIn: (any PTPDataSink)?, timeout: Duration
    ) async throws -> PTPResponse {
        try checkUsable()
        guard !inTransaction else { throw TransportError(.busy, "a transaction is already in progress") }
        inTransaction = true
        cancelRequested = false
        defer { inTransaction = false }

        let operation = PTPIPPacket.operationRequest(
            dataPhase: dataOut == nil ? .noneOrIn : .out, code: request.code, transactionID: request.transactionID,
            parameters: request.parameters)
        try await sendCommand([operation])
        if let dataOut { try await sendData(dataOut, request: request) }
        return try await receive(request, into: dataIn, timeout: timeout)
    }

    /// The next event, answering Probe Requests on the way; `nil` after `timeout`.
    public func nextEvent(timeout: Duration) async throws -> PTPEvent? {
        try checkUsable()
        let deadline = ContinuousClock.now + timeout
        while true {
            let packet: PTPIPPacket
            do {
                packet = try await receiveEventPacket(timeout: max(.zero, deadline - .now))
            } catch let error as TransportError where error.code == .timeout {
                return nil
            } catch {
                throw record(error)
            }
            switch packet {
            case .event(let code, let transactionID, let parameters):
                return PTPEvent(code: code, transactionID: transactionID, parameters: parameters)
            case .probeRequest:
                try await Self.send(.probeResponse, on: event, logger: logger)
            case .probeResponse:
                continue
            default:
                throw record(PTPError(.unexpectedContainer, "\(packet) on the event connection"))
            }
        }
    }

    /// Aborts the transaction in progress at its next read or write.
    public func cancel() async {
        if inTransaction { cancelRequested = true }
    }

    /// Closes both connections.
    public func close() async {
        guard !closed else { return }
        closed = true
        await command.close()
        await event.close()
    }

    // MARK: Data phases

    private func sendData(_ source: any PTPDataSource, request: PTPRequest) async throws {
        let total = source.byteCount
        var batch: [PTPIPPacket] = [.startData(transactionID: request.transactionID, totalLength: total)]
        var offset: UInt64 = 0
        if total == 0 { batch.append(.endData(transactionID: request.transactionID, payload: [])) }
        while offset < total {
            try await checkCancelled(request)
            let chunk = try await source.read(at: offset, maxByteCount: configuration.dataPacketByteCount)
            guard !chunk.isEmpty, UInt64(chunk.count) <= total - offset else {
                throw TransportError(
                    .ioError, "data source returned \(chunk.count) bytes at offset \(offset) of \(total)")
            }
            offset += UInt64(chunk.count)
            let id = request.transactionID
            batch.append(
                offset == total ? .endData(transactionID: id, payload: chunk) : .data(transactionID: id, payload: chunk)
            )
            // Coalesce small packets into one write: separate small writes cost a delayed ACK each on TCP.
            if batch.count >= 8 || offset == total {
                try await sendCommand(batch)
                batch = []
            }
        }
        if !batch.isEmpty { try await sendCommand(batch) }
    }

    private struct ReceiveState {
        var started = false
        var ended = false
        var announced: UInt64?
        var received: UInt64 = 0
        var staleCount = 0
    }

    /// Most leftovers of older transactions (responses, data phase starts) skipped in one transaction before the
    /// device counts as broken rather than late.
    static let maxStaleItems = 16

    private func skipStale(_ packet: PTPIPPacket, _ request: PTPRequest, _ state: inout ReceiveState) throws {
        logger.debug("skipping \(packet) of an older transaction")
        state.staleCount += 1
        guard state.staleCount <= Self.maxStaleItems else {
            throw violation(
                .transactionIDMismatch, request, "more than \(Self.maxStaleItems) packets of older transactions")
        }
    }

    /// Receives the transaction's packets up to its response. Data and End Data payloads reach the sink piece by
    /// piece as they arrive (``PTPIPFrameDecoder/decodeStreaming()``); each packet's announced size is checked
    /// against Start Data and the limits at its header, before any of its bytes are passed on.
    private func receive(_ request: PTPRequest, into sink: (any PTPDataSink)?, timeout: Duration) async throws
        -> PTPResponse
    {
        var state = ReceiveState()
        // When the last packet of this transaction (or the request) went by: data of an older transaction keeps the
        // connection busy but is no progress, so a camera that never stops sending an abandoned data phase cannot
        // hold this transaction past `timeout`.
        var lastProgress = ContinuousClock.now
        while true {
            try await checkCancelled(request)
            let frame: PTPIPFrameDecoder.Frame
            do {
                frame = try await receiveCommandFrame(timeout: timeout)
            } catch {
                throw record(error)
            }
            let id = request.transactionID
            let packet: PTPIPPacket
            switch frame {
            case .payload(let piece):
                // Data of an older transaction (one that timed out or was cancelled) is skipped, in any amount, for
                // at most `timeout`; after that the link is given up (every later transaction would wait the same).
                if piece.transactionID < id {
                    guard ContinuousClock.now - lastProgress <= timeout else {
                        let error = TransportError(
                            .timeout,
                            "\(request.code): the camera was still sending data of abandoned transaction "
                                + "\(piece.transactionID) after \(timeout)")
                        failure = error
                        throw error
                    }
                    continue
                }
                lastProgress = .now
                try await accept(piece, request, into: sink, &state)
                continue
            case .packet(let whole):
                packet = whole
            }
            switch packet {
            case .startData(let transactionID, let total):
                if transactionID < id {
                    try skipStale(packet, request, &state)
                    continue
                }
                guard transactionID == id else { throw violation(.transactionIDMismatch, request, "\(packet)") }
                guard let sink, !state.started else { throw violation(.unexpectedDataPhase, request, "\(packet)") }
                state.started = true
                state.announced = total == PTPIPPacket.unknownTotalLength ? nil : total
                try await deliver(request) { try await sink.dataPhaseWillStart(byteCount: state.announced) }
            case .operationResponse(let code, let transactionID, let parameters):
                if transactionID < id {
                    try skipStale(packet, request, &state)
                    continue
                }
                guard transactionID == id else { throw violation(.transactionIDMismatch, request, "\(packet)") }
                if state.started && !state.ended {
                    throw violation(.dataPhaseTooShort, request, "response before End Data (\(state.received) bytes)")
                }
                return PTPResponse(code: code, transactionID: transactionID, parameters: parameters)
            default:
                throw violation(.unexpectedContainer, request, "\(packet) on the command connection")
            }
        }
    }

    /// Takes one piece of a Data or End Data packet of the current transaction: at the packet's first piece its
    /// whole size is checked against Start Data's total and ``WireFormat/WireLimits/maxObjectSize``; the bytes
    /// go to the sink; the last piece of End Data ends the data phase.
    private func accept(
        _ piece: PTPIPFrameDecoder.PayloadPiece, _ request: PTPRequest, into sink: (any PTPDataSink)?,
        _ state: inout ReceiveState
    ) async throws {
        let description = "\(piece.type)(tid \(piece.transactionID), \(piece.payloadByteCount) bytes)"
        guard piece.transactionID == request.transactionID else {
            throw violation(.transactionIDMismatch, request, description)
        }
        guard state.started, !state.ended, let sink else {
            throw violation(.unexpectedContainer, request, "\(description) outside a data phase")
        }
        if piece.isFirst {
            let total = state.received + UInt64(piece.payloadByteCount)
            if let announced = state.announced, total > announced {
                throw violation(.dataPhaseTooLong, request, "\(total) bytes after Start Data announced \(announced)")
            }
            if total > WireLimits.maxObjectSize {
                throw violation(
                    .dataPhaseTooLong, request, "over \(WireLimits.maxObjectSize) bytes of unannounced data")
            }
        }
        state.received += UInt64(piece.bytes.count)
        if !piece.bytes.isEmpty { try await deliver(request) { try await sink.write(piece.bytes) } }
        if piece.isLast && piece.type == .endData {
            state.ended = true
            if let announced = state.announced, state.received != announced {
                throw violation(.dataPhaseTooShort, request, "End Data at \(state.received) of \(announced) bytes")
            }
        }
    }

    // MARK: Plumbing

    private func sendCommand(_ packets: [PTPIPPacket]) async throws {
        var bytes: [UInt8] = []
        for packet in packets {
            let encoded = packet.ptpipEncoded
            logger.traceBytes("PTP/IP out \(packet)", encoded)
            bytes.append(contentsOf: encoded)
        }
        do {
            try await command.send(bytes)
        } catch {
            throw record(Self.map(error, "command connection"))
        }
    }

    private static func send(_ packet: PTPIPPacket, on stream: any ByteStream, logger: Logger) async throws {
        let bytes = packet.ptpipEncoded
        logger.traceBytes("PTP/IP out \(packet)", bytes)
        do {
            try await stream.send(bytes)
        } catch {
            throw map(error, "send \(packet.type)")
        }
    }

    private static func receive(
        from stream: any ByteStream, decoder: inout PTPIPFrameDecoder, timeout: Duration, logger: Logger,
        configuration: Configuration
    ) async throws -> PTPIPPacket {
        while true {
            do {
                if let packet = try decoder.decode() {
                    logger.trace("PTP/IP in \(packet)")
                    return packet
                }
            } catch {
                throw PTPError(.malformedContainer, "\(error)")
            }
            decoder.append(
                try await receiveBytes(
                    from: stream, configuration: configuration, timeout: timeout, what: "receive", logger: logger))
        }
    }

    /// Reads the next frame from the command connection: a whole packet, or a piece of a data payload.
    private func receiveCommandFrame(timeout: Duration) async throws -> PTPIPFrameDecoder.Frame {
        while true {
            do {
                if let frame = try commandDecoder.decodeStreaming() {
                    switch frame {
                    case .packet(let packet):
                        logger.trace("PTP/IP in \(packet)")
                    case .payload(let piece) where piece.isFirst:
                        logger.trace(
                            "PTP/IP in \(piece.type)(tid \(piece.transactionID), \(piece.payloadByteCount) bytes)")
                    case .payload:
                        break
                    }
                    return frame
                }
            } catch {
                throw PTPError(.malformedContainer, "\(error)")
            }
            commandDecoder.append(
                try await Self.receiveBytes(
                    from: command, configuration: configuration, timeout: timeout, what: "command connection",
                    logger: logger))
        }
    }

    /// Reads the next packet from the event connection.
    private func receiveEventPacket(timeout: Duration) async throws -> PTPIPPacket {
        while true {
            do {
                if let packet = try eventDecoder.decode() {
                    logger.trace("PTP/IP in \(packet)")
                    return packet
                }
            } catch {
                throw PTPError(.malformedContainer, "\(error)")
            }
            eventDecoder.append(
                try await Self.receiveBytes(
                    from: event, configuration: configuration, timeout: timeout, what: "event connection",
                    logger: logger))
        }
    }

    /// One `receive` from `stream` for a frame decoder, traced; a stream error becomes the transport's, naming `what`.
    private static func receiveBytes(
        from stream: any ByteStream, configuration: Configuration, timeout: Duration, what: String, logger: Logger
    ) async throws -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = try await stream.receive(maxLength: configuration.receiveByteCount, timeout: timeout)
        } catch {
            throw map(error, what)
        }
        logger.traceBytes("PTP/IP in bytes", bytes)
        return bytes
    }

    private static func map(_ error: ByteStreamError, _ what: String) -> TransportError {
        switch error.code {
        case .timeout: TransportError(.timeout, underlyingError: error, what)
        case .closed, .reset: TransportError(.disconnected, underlyingError: error, what)
        case .cancelled: TransportError(.cancelled, underlyingError: error, what)
        default: TransportError(.ioError, underlyingError: error, what)
        }
    }

    private func checkUsable() throws {
        if closed { throw TransportError(.closed, "transport closed") }
        if let failure { throw failure }
    }

    /// Remembers errors after which the connection cannot be used again (a disconnect, a stream that no longer
    /// frames); timeouts and cancels leave it usable, because stale packets are skipped by transaction ID.
    private func record(_ error: any Error) -> any Error {
        if let transport = error as? TransportError, transport.code == .disconnected { failure = error }
        if let ptp = error as? PTPError, ptp.violation == .malformedContainer { failure = error }
        return error
    }

    private func violation(_ kind: PTPError.Violation, _ request: PTPRequest, _ detail: String) -> PTPError {
        PTPError(kind, operation: request.code, detail)
    }

    /// Runs a sink call; when the sink refuses, tells the responder with a Cancel packet (its remaining packets
    /// are skipped by transaction ID later) and passes the sink's error on.
    private func deliver(_ request: PTPRequest, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            try? await sendCommand([.cancel(transactionID: request.transactionID)])
            throw error
        }
    }

    private func checkCancelled(_ request: PTPRequest) async throws {
        guard cancelRequested || Task.isCancelled else { return }
        cancelRequested = false
        try? await sendCommand([.cancel(transactionID: request.transactionID)])
        throw TransportError(.cancelled, "\(request.code) cancelled")
    }
}

/// The reason a PTP/IP responder gave in Init Fail; the ``TransportError/underlyingError`` of a rejected
/// connection.
public struct PTPIPInitFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The responder's reason.
    public let reason: PTPIPInitFailReason

    /// Wraps a reason.
    public init(reason: PTPIPInitFailReason) { self.reason = reason }

    /// E.g. `Init Fail: Busy (2)`.
    public var description: String { "Init Fail: \(reason) (\(reason.rawValue))" }
}
