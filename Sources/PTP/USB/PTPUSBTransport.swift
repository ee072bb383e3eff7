import Logging
import WireFormat

/// ``PTPTransport`` over any ``USBBulkPipe``: PTP's USB container framing (USB Still Image Capture Device
/// Definition §7), with the recovery rules of the class spec and libgphoto2's tolerance of real devices.
///
/// - A command container goes out on bulk OUT. A host data phase follows as one data container written in large
///   transfers, ending with a zero-length packet when its length is a multiple of the packet size.
/// - The device's data phase is read in transfers of ``Configuration/transferByteCount`` (1 MiB by default) and
///   streamed to the sink as bytes arrive; ``USBContainerFramer`` handles containers that span transfers, the
///   0xFFFFFFFF length, stray zero-length packets, a response instead of data and a response glued to the data.
/// - Events are read from the interrupt endpoint one packet at a time and reassembled when longer than a packet.
/// - A timeout or a cancel sends the class Cancel request (0x64) for the transaction, polls Get Device Status
///   (0x67) until the device is idle, clears halts it reports and forgets buffered bytes; a stall clears the halt
///   after reading the status. The transaction then fails with a ``TransportError``; the next one works.
public actor PTPUSBTransport: PTPTransport {
    /// Tuning.
    public struct Configuration: Sendable {
        /// Bytes asked for by each bulk IN read (rounded down to whole packets). libgphoto2 reads up to 512 KiB;
        /// larger reads mean fewer round trips for raw files.
        public var transferByteCount: Int
        /// Bytes of a host data phase written per bulk OUT transfer.
        public var dataOutChunkByteCount: Int
        /// Timeout of each step of a recovery (class requests, status polls).
        public var recoveryTimeout: Duration
        /// Pause between Get Device Status polls while the device reports DeviceBusy.
        public var statusPollInterval: Duration
        /// Most Get Device Status polls in one recovery.
        public var maxStatusPolls: Int

        /// Creates a configuration.
        public init(
            transferByteCount: Int = 1 << 20, dataOutChunkByteCount: Int = 1 << 20,
            recoveryTimeout: Duration = .seconds(2), statusPollInterval: Duration = .milliseconds(10),
            maxStatusPolls: Int = 100
        ) {
            self.transferByteCount = transferByteCount
            self.dataOutChunkByteCount = dataOutChunkByteCount
            self.recoveryTimeout = recoveryTimeout
            self.statusPollInterval = statusPollInterval
            self.maxStatusPolls = maxStatusPolls
        }
    }

    private let pipe: any USBBulkPipe
    private let logger: Logger
    private let configuration: Configuration
    private let readLength: Int
    private var framer = USBContainerFramer()
    private var eventFramer = USBContainerFramer()
    private var inTransaction = false
    private var cancelRequested = false
    private var closed = false
    private var failure: TransportError?
    /// A cancelled transaction the device had not finished aborting when recovery gave up waiting.
    private var unsettledTransactionID: UInt32?

    /// Creates a transport over `pipe`; containers are hex-dumped to `logger` at `.trace`.
    public init(
        pipe: any USBBulkPipe, logger: Logger = Logger(label: "rawcap.ptp.usb"),
        configuration: Configuration = Configuration()
    ) {
        self.pipe = pipe
        self.logger = logger
        self.configuration = configuration
        let packet = max(1, pipe.maxPacketSize)
        readLength = max(packet, configuration.transferByteCount - configuration.transferByteCount % packet)
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
        try await settle()

        let command = USBContainer.command(
            request.code, transactionID: request.transactionID, parameters: request.parameters)
        let commandBytes = command.usbEncoded
        logger.traceBytes("USB OUT \(command)", commandBytes)
        try await write(commandBytes, request: request, timeout: timeout)
        // With small packets (full-speed endpoints of 8–32 bytes) a command can fill whole packets; a zero-length
        // packet then ends the device's transfer.
        if commandBytes.count % max(1, pipe.maxPacketSize) == 0 {
            try await write([], request: request, timeout: timeout)
        }
        if let dataOut { try await sendData(dataOut, request: request, timeout: timeout) }
        return try await receive(request, into: dataIn, timeout: timeout)
    }

    /// The next event from the interrupt endpoint, or `nil` after `timeout`.
    public func nextEvent(timeout: Duration) async throws -> PTPEvent? {
        try checkUsable()
        let packet = max(1, pipe.interruptMaxPacketSize)
        while true {
            let item: USBContainerFramer.Item?
            do {
                item = try eventFramer.next()
            } catch {
                eventFramer.reset()
                throw PTPError(.malformedContainer, "interrupt endpoint: \(error)")
            }
            if let item {
                guard case .container(.event(let code, let transactionID, let parameters)) = item else {
                    eventFramer.reset()
                    throw PTPError(.unexpectedContainer, "interrupt endpoint carried \(item)")
                }
                let event = PTPEvent(code: code, transactionID: transactionID, parameters: parameters)
                logger.trace("USB event \(event)")
                return event
            }
            let bytes: [UInt8]
            do {
                bytes = try await pipe.readInterrupt(maxLength: packet, timeout: timeout)
            } catch {
                switch error.code {
                case .timeout:
                    if !error.partialData.isEmpty { eventFramer.append(error.partialData, endsTransfer: false) }
                    return nil
                case .stall:
                    try? await pipe.clearHalt(.interrupt)
                    throw TransportError(.stalled, underlyingError: error, "interrupt endpoint")
                case .disconnected:
                    throw markDisconnected(error)
                default:
                    throw TransportError(.ioError, underlyingError: error, "interrupt endpoint")
                }
            }
            logger.traceBytes("USB interrupt IN", bytes)
            eventFramer.append(bytes, endsTransfer: bytes.count < packet)
        }
    }

    /// Aborts the transaction in progress at its next read or write.
    public func cancel() async {
        if inTransaction { cancelRequested = true }
    }

    /// Closes the transport; the pipe itself belongs to whoever created it.
    public func close() async {
        closed = true
    }

    /// Sends the class Device Reset request (0x66), as libgphoto2 does when OpenSession fails with an I/O error,
    /// and forgets buffered bytes.
    public func resetDevice(timeout: Duration) async throws {
        try checkUsable()
        do {
            _ = try await pipe.classRequest(.deviceReset, data: [], maxLength: 0, timeout: timeout)
        } catch {
            throw error.code == .disconnected
                ? markDisconnected(error) : TransportError(.ioError, underlyingError: error, "device reset")
        }
        framer.reset()
        eventFramer.reset()
    }

    /// Asks the device for its status (class request 0x67).
    public func deviceStatus(timeout: Duration) async throws -> USBDeviceStatus {
        try checkUsable()
        do {
            let bytes = try await pipe.classRequest(.getDeviceStatus, data: [], maxLength: 64, timeout: timeout)
            return try USBDeviceStatus(usbEncoded: bytes)
        } catch let error as USBPipeError {
            throw error.code == .disconnected
                ? markDisconnected(error) : TransportError(.ioError, underlyingError: error, "device status")
        } catch {
            throw PTPError(.malformedContainer, "device status: \(error)")
        }
    }

    // MARK: Host data phase

    private func sendData(_ source: any PTPDataSource, request: PTPRequest, timeout: Duration) async throws {
        let packet = max(1, pipe.maxPacketSize)
        let total = source.byteCount
        let header = USBContainerHeader.data(
            code: request.code.rawValue, transactionID: request.transactionID, payloadByteCount: total)
        logger.trace("USB OUT Data(\(request.code), tid \(request.transactionID), \(total) bytes)")
        var pending = header.usbEncoded
        var offset: UInt64 = 0
        var written: UInt64 = 0
        let chunkSize = max(packet, configuration.dataOutChunkByteCount - configuration.dataOutChunkByteCount % packet)
        while offset < total {
            try await checkCancelled(request)
            let chunk = try await source.read(at: offset, maxByteCount: chunkSize)
            guard !chunk.isEmpty, UInt64(chunk.count) <= total - offset else {
                throw TransportError(
                    .ioError, "data source returned \(chunk.count) bytes at offset \(offset) of \(total)")
            }
            offset += UInt64(chunk.count)
            pending.append(contentsOf: chunk)
            // Only the last write may end with a short packet; anything else would end the phase early.
            let count = offset == total ? pending.count : pending.count - pending.count % packet
            if count > 0 {
                logger.traceBytes("USB OUT data", pending.prefix(count))
                try await write(Array(pending.prefix(count)), request: request, timeout: timeout)
                pending.removeFirst(count)
                written += UInt64(count)
            }
        }
        if !pending.isEmpty {
            try await write(pending, request: request, timeout: timeout)
            written += UInt64(pending.count)
        }
        if written % UInt64(packet) == 0 {
            logger.trace("USB OUT zero-length packet")
            try await write([], request: request, timeout: timeout)
        }
    }

    private func write(_ bytes: [UInt8], request: PTPRequest, timeout: Duration) async throws {
        do {
            try await pipe.writeBulkOut(bytes, timeout: timeout)
        } catch {
            throw await fail(error, request: request, endpoint: .bulkOut)
        }
    }

    // MARK: Device data phase and response

    private struct ReceiveState {
        var dataStarted = false
        var discarding = false
        var receivedByteCount: UInt64 = 0
        var staleCount = 0
    }

    /// Most leftovers of older transactions (responses, data phases) skipped in one transaction before the device
    /// counts as broken rather than late.
    static let maxStaleItems = 16

    private func skipStale(_ request: PTPRequest, _ state: inout ReceiveState) async throws {
        state.staleCount += 1
        guard state.staleCount <= Self.maxStaleItems else {
            throw await violation(
                .transactionIDMismatch, request, "more than \(Self.maxStaleItems) containers of older transactions")
        }
    }

    private func receive(_ request: PTPRequest, into sink: (any PTPDataSink)?, timeout: Duration) async throws
        -> PTPResponse
    {
        var state = ReceiveState()
        while true {
            if let response = try await drain(request, sink: sink, state: &state) { return response }
            try await checkCancelled(request)
            let bytes: [UInt8]
            do {
                bytes = try await pipe.readBulkIn(maxLength: readLength, timeout: timeout)
            } catch {
                if !error.partialData.isEmpty {
                    // Keep what the failed transfer carried: the sink gets every byte that arrived.
                    framer.append(error.partialData, endsTransfer: false)
                    if let response = try? await drain(request, sink: sink, state: &state) { return response }
                }
                throw await fail(error, request: request, endpoint: .bulkIn)
            }
            logger.traceBytes("USB IN (\(bytes.count) of \(readLength) asked)", bytes)
            framer.append(bytes, endsTransfer: bytes.count < readLength)
        }
    }

    /// Handles every item the framer has; returns the response when it arrives.
    private func drain(_ request: PTPRequest, sink: (any PTPDataSink)?, state: inout ReceiveState) async throws
        -> PTPResponse?
    {
        while true {
            let item: USBContainerFramer.Item?
            do {
                item = try framer.next()
            } catch {
                throw await violation(.malformedContainer, request, "\(error)")
            }
            guard let item else { return nil }
            switch item {
            case .dataStart(let code, let transactionID, let byteCount):
                logger.trace(
                    "USB IN Data(\(code), tid \(transactionID), \(byteCount.map(String.init) ?? "unknown") bytes)")
                if transactionID < request.transactionID {
                    logger.debug("skipping a data phase of old transaction \(transactionID)")
                    try await skipStale(request, &state)
                    state.discarding = true
                    continue
                }
                guard transactionID == request.transactionID else {
                    throw await violation(
                        .transactionIDMismatch, request, "data container for transaction \(transactionID)")
                }
                guard code == request.code else {
                    throw await violation(.unexpectedContainer, request, "data container with code \(code)")
                }
                guard let sink, !state.dataStarted else {
                    throw await violation(.unexpectedDataPhase, request, "device sent a data phase")
                }
                state.dataStarted = true
                try await deliver(request) { try await sink.dataPhaseWillStart(byteCount: byteCount) }
            case .dataBytes(let bytes):
                if state.discarding { continue }
                state.receivedByteCount += UInt64(bytes.count)
                if let sink { try await deliver(request) { try await sink.write(bytes) } }
            case .dataEnd:
                state.discarding = false
            case .container(.response(let code, let transactionID, let parameters)):
                let response = PTPResponse(code: code, transactionID: transactionID, parameters: parameters)
                logger.trace("USB IN \(response)")
                if transactionID < request.transactionID {
                    // libgphoto2 ptp_transaction_new: an older ID is a leftover reply; read on.
                    logger.debug("skipping an old response \(response)")
                    try await skipStale(request, &state)
                    continue
                }
                guard transactionID == request.transactionID else {
                    throw await violation(.transactionIDMismatch, request, "response for transaction \(transactionID)")
                }
                return response
            case .container(let container):
                throw await violation(.unexpectedContainer, request, "\(container) on bulk IN")
            }
        }
    }

    // MARK: Failure and recovery

    /// Runs a sink call; when the sink refuses (a size limit, a full disk), the device is still sending, so the
    /// transaction is cancelled and the link brought back to idle before the sink's error is passed on.
    private func deliver(_ request: PTPRequest, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            logger.debug("sink refused data of \(request.code): \(error); cancelling")
            await recover(request)
            throw error
        }
    }

    private func checkUsable() throws {
        if closed { throw TransportError(.closed, "transport closed") }
        if let failure { throw failure }
    }

    private func checkCancelled(_ request: PTPRequest) async throws {
        guard cancelRequested || Task.isCancelled else { return }
        cancelRequested = false
        await recover(request)
        throw TransportError(.cancelled, "\(request.code) cancelled")
    }

    private func markDisconnected(_ error: USBPipeError) -> TransportError {
        let failure = TransportError(.disconnected, underlyingError: error, "USB device disconnected")
        self.failure = failure
        return failure
    }

    /// Maps a pipe error to a transport error after bringing the link back to idle.
    private func fail(_ error: USBPipeError, request: PTPRequest, endpoint: USBEndpoint) async -> TransportError {
        switch error.code {
        case .disconnected:
            return markDisconnected(error)
        case .stall:
            logger.debug("\(endpoint) stalled during \(request)")
            let status = try? await deviceStatus(timeout: configuration.recoveryTimeout)
            try? await pipe.clearHalt(endpoint)
            await recover(request)
            return TransportError(
                .stalled, underlyingError: error,
                "\(endpoint) stalled during \(request.code); device status \(status.map(String.init(describing:)) ?? "unavailable")"
            )
        case .timeout:
            await recover(request)
            return failure ?? TransportError(.timeout, underlyingError: error, "\(endpoint) during \(request.code)")
        case .cancelled:
            await recover(request)
            return TransportError(.cancelled, underlyingError: error, "\(request.code)")
        default:
            await recover(request)
            return failure ?? TransportError(.ioError, underlyingError: error, "\(endpoint) during \(request.code)")
        }
    }

    private func violation(_ kind: PTPError.Violation, _ request: PTPRequest, _ detail: String) async -> Error {
        await recover(request)
        return PTPError(kind, operation: request.code, detail)
    }

    /// USB Still Image class cancellation: Cancel request, then Get Device Status until OK, clearing any halt the
    /// device reports; then forget buffered bytes. Best effort: a failing step is logged, not thrown, because the
    /// caller is already reporting the transaction's failure.
    private func recover(_ request: PTPRequest) async {
        var data = WireWriter(byteOrder: .little)
        data.write(EventCode.cancelTransaction.rawValue)
        data.write(request.transactionID)
        do {
            _ = try await pipe.classRequest(
                .cancel, data: data.bytes, maxLength: 0, timeout: configuration.recoveryTimeout)
            if try await waitUntilIdle() {
                unsettledTransactionID = nil
            } else {
                // Still busy: whatever it sends before it is idle belongs to the cancelled transaction, so the next
                // transaction waits for it first.
                logger.debug("device still busy after cancelling \(request)")
                unsettledTransactionID = request.transactionID
            }
        } catch let error as USBPipeError where error.code == .disconnected {
            _ = markDisconnected(error)
        } catch {
            logger.debug("recovery after \(request) incomplete: \(error)")
            unsettledTransactionID = request.transactionID
        }
        framer.reset()
    }

    /// Polls Get Device Status until the device reports OK, clearing any halt it lists; `false` when it is still
    /// busy after ``Configuration/maxStatusPolls`` polls.
    private func waitUntilIdle() async throws -> Bool {
        for _ in 0..<configuration.maxStatusPolls {
            let bytes = try await pipe.classRequest(
                .getDeviceStatus, data: [], maxLength: 64, timeout: configuration.recoveryTimeout)
            let status = try USBDeviceStatus(usbEncoded: bytes)
            logger.debug("device status: \(status)")
            for address in status.stalledEndpointAddresses {
                try await pipe.clearHalt(address & 0x80 != 0 ? .bulkIn : .bulkOut)
            }
            if status.code == .ok { return true }
            try? await Task.sleep(for: configuration.statusPollInterval)
        }
        return false
    }

    /// Before a transaction: if the last cancel left the device busy, wait for it to become idle and forget what it
    /// sent meanwhile.
    private func settle() async throws {
        guard let transactionID = unsettledTransactionID else { return }
        let idle: Bool
        do {
            idle = try await waitUntilIdle()
        } catch let error as USBPipeError {
            throw error.code == .disconnected
                ? markDisconnected(error) : TransportError(.ioError, underlyingError: error, "device status")
        } catch {
            throw TransportError(.ioError, "device status: \(error)")
        }
        guard idle else {
            throw TransportError(.busy, "device still busy after cancelling transaction \(transactionID)")
        }
        framer.reset()
        unsettledTransactionID = nil
    }
}
