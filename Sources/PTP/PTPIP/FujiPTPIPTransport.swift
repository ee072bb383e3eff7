import Logging
import WireFormat

/// A host transport for Fujifilm's Wi-Fi PTP/IP variant (X and GFX bodies on Wi-Fi, TCP port 55740).
///
/// Only the handshake resembles PTP/IP (``FujiPTPIPHandshake``); after it the command connection carries USB-style
/// containers (libgphoto2 `fujiptpip.c`): UINT32 length, UINT16 type (1 command, 2 data, 3 response, 4 event),
/// UINT16 code, UINT32 transaction ID, then parameters or data. The host sends a command (its type field is 1
/// whether or not data follows, as libgphoto2 sends it), then for data-out one data container; the camera answers
/// with a data container for data-in, then a response. Events come on a second connection (port 55741) that the
/// camera opens only after InitiateOpenCapture (0x101C): the transport connects it through `openEventStream` after
/// that operation succeeds, and until then ``nextEvent(timeout:)`` just waits out its timeout (Fujifilm bodies
/// report changes through the 0xD212 property anyway). Live view comes on a third connection (port 55742), opened
/// at the same moment through `openLiveViewStream` (libgphoto2 `ptp_fujiptpip_init_event` connects both); its
/// blobs are read with ``nextLiveViewBlob(timeout:)``. A camera that does not take the live-view connection leaves
/// the transport working without it.
///
/// A body in tether mode answers the first Init Command Request with Init Fail and accepts it sent again on the same
/// connection (``FujifilmPTPIP``): the transport sends it once more after ``FujifilmPTPIP/initRetryPause``, as
/// libgphoto2 and Fujifilm's own app do, and gives up on the second Init Fail.
///
/// Every length from the wire is checked before anything is allocated: data phases stream into the sink in
/// chunks, responses carry at most 5 parameters and events at most 3.
public actor FujiPTPIPTransport: LiveViewStreamingTransport {
    /// The camera's name from the Init Command Ack.
    public nonisolated let cameraName: String
    /// The connection number the camera assigned.
    public nonisolated let connectionNumber: UInt32
    /// Bytes per data container written for data-out, and per read for data-in.
    public static let chunkByteCount = 1 << 20

    private let command: ByteStreamBuffer
    private let openEventStream: (@Sendable () async throws -> any ByteStream)?
    private let openLiveViewStream: (@Sendable () async throws -> any ByteStream)?
    private var event: ByteStreamBuffer?
    private var liveView: ByteStreamBuffer?
    private let logger: Logger
    private var inTransaction = false
    private var cancelRequested = false
    private var closed = false
    private var failure: (any Error)?

    private init(
        command: ByteStreamBuffer, openEventStream: (@Sendable () async throws -> any ByteStream)?,
        openLiveViewStream: (@Sendable () async throws -> any ByteStream)?, cameraName: String,
        connectionNumber: UInt32, logger: Logger
    ) {
        self.command = command
        self.openEventStream = openEventStream
        self.openLiveViewStream = openLiveViewStream
        self.cameraName = cameraName
        self.connectionNumber = connectionNumber
        self.logger = logger
    }

    /// Runs the handshake on `command`, sending the Init Command Request a second time after a first Init Fail.
    ///
    /// - Throws: ``TransportError`` `.rejected` when the camera answers Init Fail twice (libgphoto2 takes it as
    ///   access denied: the camera has not approved this host); ``PTPError`` for any other answer.
    public static func connect(
        command: any ByteStream, openEventStream: (@Sendable () async throws -> any ByteStream)? = nil,
        openLiveViewStream: (@Sendable () async throws -> any ByteStream)? = nil,
        identity: PTPIPTransport.Identity, timeout: Duration, retryPause: Duration = FujifilmPTPIP.initRetryPause,
        logger: Logger = Logger(label: "rawcap.ptp.fujiip")
    ) async throws -> FujiPTPIPTransport {
        let buffer = ByteStreamBuffer(command)
        do {
            let hello = FujiPTPIPHandshake.Request(guid: identity.guid, name: identity.friendlyName).encoded
            var attempt = 0
            while true {
                attempt += 1
                logger.traceBytes("Fuji PTP/IP out Init Command Request", hello)
                try await command.send(hello)
                let head = try await buffer.read(exactly: 4, timeout: timeout)
                let length = try FujiPTPIPHandshake.announcedLength(head)
                let packet = head + (try await buffer.read(exactly: length - 4, timeout: timeout))
                switch try FujiPTPIPHandshake.Answer(packet: packet) {
                case .ack(let connectionNumber, _, let name):
                    logger.debug("Fujifilm PTP/IP connected to \"\(name)\" as connection \(connectionNumber)")
                    return FujiPTPIPTransport(
                        command: buffer, openEventStream: openEventStream, openLiveViewStream: openLiveViewStream,
                        cameraName: name, connectionNumber: connectionNumber, logger: logger)
                case .fail(let reason) where attempt == 1:
                    logger.debug("Init Fail \(reason) to the first request; asking again in \(retryPause)")
                    try await Task.sleep(for: retryPause)
                case .fail(let reason):
                    throw TransportError(
                        .rejected,
                        "the camera refused the connection (Init Fail \(reason)): approve this computer on the camera")
                }
            }
        } catch let error as ByteStreamError {
            await command.close()
            throw Self.map(error, "handshake")
        } catch let error as WireError {
            await command.close()
            throw PTPError(.malformedContainer, "Fujifilm handshake: \(error)")
        } catch {
            await command.close()
            throw error
        }
    }

    // MARK: PTPTransport

    /// Runs one transaction (see ``PTPTransport``).
    public func transact(
        _ request: PTPRequest, dataOut: (any PTPDataSource)?, dataIn: (any PTPDataSink)?, timeout: Duration
    ) async throws -> PTPResponse {
        if closed { throw TransportError(.closed, "transport closed") }
        if let failure { throw failure }
        guard !inTransaction else { throw TransportError(.busy, "a transaction is already in progress") }
        inTransaction = true
        cancelRequested = false
        defer { inTransaction = false }
        do {
            try await send(container(.command, request.code.rawValue, request.transactionID, request.parameters))
            if let dataOut { try await sendData(dataOut, request: request) }
            let response = try await receive(request, into: dataIn, timeout: timeout)
            if request.code == .initiateOpenCapture, response.code == .ok {
                // The camera listens on its event and live-view ports only from now on (fujiptpip.c header comment).
                if event == nil, let openEventStream { event = ByteStreamBuffer(try await openEventStream()) }
                if liveView == nil, let openLiveViewStream {
                    do {
                        liveView = ByteStreamBuffer(try await openLiveViewStream())
                    } catch {
                        logger.notice("the camera's live-view connection did not open: \(error)")
                    }
                }
            }
            return response
        } catch {
            throw record(error)
        }
    }

    /// The next event from the event connection, or `nil` after `timeout` (at once-closed connections aside, also
    /// when the event connection is not open yet).
    public func nextEvent(timeout: Duration) async throws -> PTPEvent? {
        if closed { throw TransportError(.closed, "transport closed") }
        guard let event else {
            try await Task.sleep(for: timeout)
            return nil
        }
        do {
            let header = try await readHeader(event, timeout: timeout)
            let body = try await event.read(
                exactly: Int(header.length) - USBContainerHeader.byteCount, timeout: timeout)
            guard header.type == .event, body.count % 4 == 0, body.count / 4 <= USBContainer.maxEventParameters else {
                throw PTPError(
                    .malformedContainer, "\(header.type) container of \(header.length) bytes on the event connection")
            }
            return PTPEvent(
                code: EventCode(rawValue: header.code), transactionID: header.transactionID,
                parameters: Self.words(body))
        } catch let error as ByteStreamError where error.code == .timeout {
            return nil
        } catch let error as ByteStreamError {
            throw record(Self.map(error, "event connection"))
        }
    }

    /// Whether the live-view connection is open.
    public var liveViewConnectionIsOpen: Bool { liveView != nil }

    /// The next blob from the live-view connection (see ``LiveViewStreamingTransport``): the bytes after its length
    /// word, ``FujifilmPTPIP/liveViewHeaderByteCount`` bytes of header and then the JPEG.
    public func nextLiveViewBlob(timeout: Duration) async throws -> [UInt8] {
        if closed { throw TransportError(.closed, "transport closed") }
        guard let liveView else { throw TransportError(.closed, "the camera's live-view connection is not open") }
        let head: [UInt8]
        do {
            head = try await liveView.read(exactly: 4, timeout: timeout)
        } catch {
            // A timeout leaves the bytes buffered for the next call; anything else ends the connection.
            if error.code != .timeout { await dropLiveView() }
            throw Self.map(error, "live-view connection")
        }
        // From here a failure leaves the connection out of step: it is closed.
        let length: Int
        do {
            length = try FujifilmPTPIP.liveViewBlobLength(head)
        } catch {
            await dropLiveView()
            throw PTPError(.malformedContainer, "live-view connection: \(error)")
        }
        do {
            return try await liveView.read(exactly: length - 4, timeout: timeout)
        } catch {
            await dropLiveView()
            throw Self.map(error, "live-view connection")
        }
    }

    private func dropLiveView() async {
        let stream = liveView?.stream
        liveView = nil
        await stream?.close()
    }

    /// Aborts the transaction in progress at its next read or write.
    public func cancel() async {
        if inTransaction { cancelRequested = true }
    }

    /// Closes the three connections.
    public func close() async {
        guard !closed else { return }
        closed = true
        await command.stream.close()
        await event?.stream.close()
        await liveView?.stream.close()
    }

    // MARK: Containers

    private func container(_ type: USBContainerType, _ code: UInt16, _ transactionID: UInt32, _ parameters: [UInt32])
        -> [UInt8]
    {
        var writer = WireWriter(byteOrder: .little)
        USBContainerHeader(
            length: UInt32(USBContainerHeader.byteCount + 4 * parameters.count), type: type, code: code,
            transactionID: transactionID
        ).encode(into: &writer)
        for parameter in parameters { writer.write(parameter) }
        return writer.bytes
    }

    private func send(_ bytes: [UInt8]) async throws {
        logger.traceBytes("Fuji PTP/IP out", bytes.prefix(64))
        do {
            try await command.stream.send(bytes)
        } catch {
            throw Self.map(error, "command connection")
        }
    }

    private func sendData(_ source: any PTPDataSource, request: PTPRequest) async throws {
        let total = source.byteCount
        guard total <= UInt64(UInt32.max) - UInt64(USBContainerHeader.byteCount) else {
            throw TransportError(.ioError, "a data phase of \(total) bytes does not fit one container")
        }
        try await send(
            USBContainerHeader.data(
                code: request.code.rawValue, transactionID: request.transactionID, payloadByteCount: total
            )
            .usbEncoded)
        var offset: UInt64 = 0
        while offset < total {
            if cancelRequested { throw TransportError(.cancelled, "\(request.code) cancelled") }
            let chunk = try await source.read(at: offset, maxByteCount: Self.chunkByteCount)
            guard !chunk.isEmpty, UInt64(chunk.count) <= total - offset else {
                throw TransportError(
                    .ioError, "data source returned \(chunk.count) bytes at offset \(offset) of \(total)")
            }
            try await send(chunk)
            offset += UInt64(chunk.count)
        }
    }

    private func readHeader(_ buffer: ByteStreamBuffer, timeout: Duration) async throws -> USBContainerHeader {
        let bytes = try await buffer.read(exactly: USBContainerHeader.byteCount, timeout: timeout)
        var reader = WireReader(bytes[...], byteOrder: .little)
        let header = try USBContainerHeader(from: &reader)
        guard header.length >= UInt32(USBContainerHeader.byteCount), header.length != USBContainerHeader.unknownLength
        else {
            throw PTPError(.malformedContainer, "container length \(header.length)")
        }
        return header
    }

    private func receive(_ request: PTPRequest, into sink: (any PTPDataSink)?, timeout: Duration) async throws
        -> PTPResponse
    {
        var sawData = false
        var staleCount = 0
        while true {
            if cancelRequested { throw TransportError(.cancelled, "\(request.code) cancelled") }
            let header: USBContainerHeader
            do {
                header = try await readHeader(command, timeout: timeout)
            } catch let error as ByteStreamError {
                throw Self.map(error, "command connection")
            }
            let payloadCount = Int(header.length) - USBContainerHeader.byteCount
            if header.transactionID != request.transactionID {
                // A late answer to an older (timed-out) transaction: read past it.
                staleCount += 1
                guard header.transactionID < request.transactionID, staleCount <= 16 else {
                    throw PTPError(
                        .transactionIDMismatch, operation: request.code,
                        "\(header.type) for transaction \(header.transactionID), expected \(request.transactionID)")
                }
                try await skip(payloadCount, timeout: timeout)
                continue
            }
            switch header.type {
            case .data:
                guard let sink, !sawData else {
                    throw PTPError(
                        .unexpectedDataPhase, operation: request.code, "data container of \(header.length) bytes")
                }
                sawData = true
                try await sink.dataPhaseWillStart(byteCount: UInt64(payloadCount))
                var remaining = payloadCount
                while remaining > 0 {
                    if cancelRequested { throw TransportError(.cancelled, "\(request.code) cancelled") }
                    let chunk: [UInt8]
                    do {
                        chunk = try await command.read(upTo: min(remaining, Self.chunkByteCount), timeout: timeout)
                    } catch {
                        throw Self.map(error, "command connection")
                    }
                    try await sink.write(chunk[...])
                    remaining -= chunk.count
                }
            case .response:
                guard payloadCount % 4 == 0, payloadCount / 4 <= USBContainer.maxParameters else {
                    throw PTPError(.malformedContainer, operation: request.code, "response of \(header.length) bytes")
                }
                let body: [UInt8]
                do {
                    body = try await command.read(exactly: payloadCount, timeout: timeout)
                } catch {
                    throw Self.map(error, "command connection")
                }
                return PTPResponse(
                    code: ResponseCode(rawValue: header.code), transactionID: header.transactionID,
                    parameters: Self.words(body))
            default:
                throw PTPError(.unexpectedContainer, operation: request.code, "\(header.type) container")
            }
        }
    }

    private func skip(_ count: Int, timeout: Duration) async throws {
        var remaining = count
        while remaining > 0 {
            do {
                remaining -= try await command.read(upTo: min(remaining, Self.chunkByteCount), timeout: timeout).count
            } catch {
                throw Self.map(error, "command connection")
            }
        }
    }

    private static func words(_ bytes: [UInt8]) -> [UInt32] {
        var reader = WireReader(bytes[...], byteOrder: .little)
        var words: [UInt32] = []
        while reader.remainingCount >= 4, let word = try? reader.read(UInt32.self) { words.append(word) }
        return words
    }

    static func map(_ error: ByteStreamError, _ what: String) -> TransportError {
        switch error.code {
        case .timeout: TransportError(.timeout, underlyingError: error, what)
        case .closed, .reset: TransportError(.disconnected, underlyingError: error, what)
        case .cancelled: TransportError(.cancelled, underlyingError: error, what)
        default: TransportError(.ioError, underlyingError: error, what)
        }
    }

    /// Errors after which the connection is out of step (a disconnect, a container that does not frame, a read cut
    /// short) are kept and thrown by every later call; timeouts between containers leave it usable.
    private func record(_ error: any Error) -> any Error {
        if let transport = error as? TransportError, transport.code != .timeout, transport.code != .busy {
            failure = error
        }
        if error is PTPError || error is WireError { failure = error }
        return error
    }
}
