import WireFormat

/// The camera side of the USB seam: it reads command and data containers from bulk OUT, hands each operation to a
/// ``PTPResponder``, and writes the data phase and the response to bulk IN in packets of the endpoints'
/// `maxPacketSize`; it forwards the responder's events to the interrupt endpoint and answers the class requests
/// (Cancel, Device Reset, Get Device Status). It works over any ``USBDeviceEndpoints``: the device end of an
/// ``InMemoryBulkPipe``, or an adapter that serves real libusb through umockdev.
///
/// Injected ``Fault``s reproduce what real cameras and cables do, one transaction at a time, so tests can drive the
/// host transport through every recovery path:
///
/// ```swift
/// let pipe = InMemoryBulkPipe()
/// let camera = USBDeviceSide(pipe: pipe, responder: MyResponder())
/// let running = Task { await camera.run() }
/// await camera.inject(.stallBulkIn, on: .getObject)
/// ```
public actor USBDeviceSide {
    /// How the device frames its data phases.
    public struct Configuration: Sendable {
        /// Whether a data phase whose container length is an exact multiple of the packet size ends with a
        /// zero-length packet (the spec's rule). Without it, the response follows in the same transfer, glued to
        /// the data, as some cameras do.
        public var sendsZeroLengthPackets: Bool
        /// Bytes read from the responder's data source per step (rounded to whole packets when written).
        public var chunkByteCount: Int
        /// Largest host data phase accepted; a larger one is answered with GeneralError.
        public var maxDataOutByteCount: Int

        /// Creates a configuration.
        public init(
            sendsZeroLengthPackets: Bool = true, chunkByteCount: Int = 1 << 20,
            maxDataOutByteCount: Int = WireLimits.maxInMemoryDataPhase
        ) {
            self.sendsZeroLengthPackets = sendsZeroLengthPackets
            self.chunkByteCount = max(1, chunkByteCount)
            self.maxDataOutByteCount = maxDataOutByteCount
        }
    }

    /// A misbehaviour to apply to one transaction.
    public enum Fault: Sendable, Hashable {
        /// Stall bulk IN instead of sending the data phase and response; the transaction is abandoned and Get
        /// Device Status reports GeneralError with endpoint 0x81 until the host clears the halt.
        case stallBulkIn
        /// Stall bulk OUT instead of reading the host's data phase; the transaction is abandoned and Get Device
        /// Status reports GeneralError with endpoint 0x02 until the host clears the halt.
        case stallBulkOut
        /// Send this many payload bytes of the data phase (rounded down to whole packets), then fall silent and
        /// abandon the transaction, as a camera that hangs does; the host times out.
        case stopDataIn(afterBytes: Int)
        /// Send this many payload bytes of the data phase, then disconnect the pipe for good.
        case disconnect(afterBytes: Int)
        /// Wait before answering.
        case delay(Duration)
        /// Send a zero-length packet before the data phase (a leftover ZLP, which hosts must skip).
        case strayZeroLengthPacket
        /// Send the data container's header in a transfer of its own (libgphoto2's `split_header_data` devices).
        case splitHeader
        /// Answer with this transaction ID instead of the request's.
        case transactionID(UInt32)
        /// Send the previous transaction's response again before this one's (a duplicate the host must skip).
        case repeatPreviousResponse
        /// Send this many bytes more than the data container's length announces.
        case extraDataBytes(Int)
        /// Send only the response, without the data phase the responder produced.
        case dropDataPhase
    }

    private let device: any USBDeviceEndpoints
    private let responder: any PTPResponder
    private let configuration: Configuration
    private var framer = USBContainerFramer()
    private var faults: [(fault: Fault, operation: OperationCode?)] = []
    private var lastResponse: [UInt8]?
    private var currentTransactionID: UInt32?
    private var abortRequested = false
    private var stallStatus = false

    /// Every request received, in order.
    public private(set) var transcript: [PTPRequest] = []

    /// Creates a device side on `endpoints`, answering with `responder`.
    public init(
        endpoints: any USBDeviceEndpoints, responder: any PTPResponder, configuration: Configuration = Configuration()
    ) {
        self.device = endpoints
        self.responder = responder
        self.configuration = configuration
    }

    /// Creates the device side of an in-memory pipe.
    public init(pipe: InMemoryBulkPipe, responder: any PTPResponder, configuration: Configuration = Configuration()) {
        self.init(endpoints: pipe.device, responder: responder, configuration: configuration)
    }

    /// Applies `fault` to the next transaction (of `operation`, when given).
    public func inject(_ fault: Fault, on operation: OperationCode? = nil) {
        faults.append((fault, operation))
    }

    /// Sends an event on the interrupt endpoint.
    ///
    /// An event that fills whole packets (16 bytes with Canon's 8-byte interrupt packets) is followed by a
    /// zero-length packet: a host that asks for more than one packet (libgphoto2 reads 24 bytes) would otherwise
    /// wait for the transfer to end.
    public func emit(_ event: PTPEvent) async throws(USBPipeError) {
        let bytes = USBContainer.event(event.code, transactionID: event.transactionID, parameters: event.parameters)
            .usbEncoded
        try await device.writeInterrupt(bytes)
        if bytes.count % max(1, device.interruptMaxPacketSize) == 0 { try await device.writeInterrupt([]) }
    }

    /// Serves operations until the pipe disconnects or the task is cancelled.
    public func run() async {
        await device.setControlHandler { [weak self] request, data in
            guard let self else { return .stall }
            return await self.handleControl(request, data)
        }
        let events = responder.events
        // The event pump is a child task, so it runs wherever the caller chose to run the device side (a task
        // executor preference is inherited by child tasks, not by unstructured ones).
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [weak self] in
                for await event in events {
                    guard let self else { return }
                    do { try await self.emit(event) } catch { return }
                }
            }
            await serveCommands()
            group.cancelAll()
        }
    }

    private func serveCommands() async {
        while !Task.isCancelled {
            do {
                guard let command = try await nextCommand() else { continue }
                try await serve(command)
            } catch let error as USBPipeError where error.code == .disconnected || error.code == .cancelled {
                return
            } catch {
                // Anything else (a malformed container from the host): forget the bytes and wait for the next
                // command, as a device resynchronising on its OUT endpoint would.
                framer.reset()
            }
        }
    }

    // MARK: Serving one transaction

    private func serve(_ request: PTPRequest) async throws {
        transcript.append(request)
        currentTransactionID = request.transactionID
        abortRequested = false
        defer { currentTransactionID = nil }
        var fault = takeFault(for: request.code)

        var dataOut: [UInt8]?
        if await responder.expectsDataOut(request) {
            if case .stallBulkOut = fault {
                stallStatus = true
                await device.stall(.bulkOut)
                await responder.transactionCancelled(request.transactionID)
                return
            }
            dataOut = try await readDataOut(request)
            if abortRequested { return }
        }
        var reply: PTPResponderReply
        if let dataOut, dataOut.count > configuration.maxDataOutByteCount {
            reply = PTPResponderReply(.generalError)
        } else {
            reply = await responder.respond(to: request, dataOut: dataOut)
        }
        if fault == nil, let linkFault = reply.linkFault {
            switch linkFault {
            case .stall: fault = .stallBulkIn
            case .disconnect(let count): fault = .disconnect(afterBytes: count)
            case .drop:
                await device.disconnect()
                return
            }
        }
        if case .delay(let duration) = fault { try await Task.sleep(for: duration) }
        if abortRequested { return }
        if case .stallBulkIn = fault {
            stallStatus = true
            await device.stall(.bulkIn)
            return
        }
        var transactionID = request.transactionID
        if case .transactionID(let id) = fault { transactionID = id }
        if case .repeatPreviousResponse = fault, let lastResponse { try await device.writeBulkIn(lastResponse) }
        if case .dropDataPhase = fault { reply.dataIn = nil }
        if let source = reply.dataIn {
            let completed = try await sendData(source, code: request.code, transactionID: transactionID, fault: fault)
            if !completed || abortRequested { return await abandonIfCancelled() }
        }
        let response = USBContainer.response(reply.code, transactionID: transactionID, parameters: reply.parameters)
            .usbEncoded
        try await device.writeBulkIn(response)
        // A response that fills whole packets needs a zero-length packet to end the host's transfer.
        if response.count % device.maxPacketSize == 0 { try await device.writeBulkIn([]) }
        if abortRequested { return await abandonIfCancelled() }
        lastResponse = response
    }

    /// After a cancel: a write that was waiting for the host when the Cancel request came (the last chunk, the
    /// response) lands after the request's discard, so discard again before reporting idle.
    private func abandonIfCancelled() async {
        if abortRequested { await device.discardBulkIn() }
    }

    /// Streams a data phase; returns `false` when a fault or a cancel abandoned the transaction.
    private func sendData(
        _ source: any PTPDataSource, code: OperationCode, transactionID: UInt32, fault: Fault?
    ) async throws -> Bool {
        let packet = device.maxPacketSize
        let total = source.byteCount
        var extra = 0
        if case .extraDataBytes(let count) = fault { extra = count }
        let header = USBContainerHeader.data(code: code.rawValue, transactionID: transactionID, payloadByteCount: total)
        var cutAt: Int?
        if case .stopDataIn(let count) = fault { cutAt = count }
        if case .disconnect(let count) = fault { cutAt = count }

        if case .strayZeroLengthPacket = fault { try await device.writeBulkIn([]) }
        var pending = header.usbEncoded
        var written = 0
        if case .splitHeader = fault {
            try await device.writeBulkIn(pending)
            written = pending.count
            pending = []
        }
        var offset: UInt64 = 0
        let payloadTotal = total + UInt64(extra)
        while offset < payloadTotal || !pending.isEmpty {
            if abortRequested { return false }
            if offset < payloadTotal {
                let chunk: [UInt8]
                if offset < total {
                    chunk = try await source.read(at: offset, maxByteCount: configuration.chunkByteCount)
                    guard !chunk.isEmpty else { throw USBPipeError(.ioError, "data source ended at \(offset)") }
                } else {
                    chunk = [UInt8](repeating: 0xEE, count: Int(payloadTotal - offset))
                }
                pending.append(contentsOf: chunk)
                offset += UInt64(chunk.count)
            }
            let isLast = offset >= payloadTotal
            let count = isLast ? pending.count : pending.count - pending.count % packet
            if let cutAt, written + count >= USBContainerHeader.byteCount + cutAt {
                var prefix = USBContainerHeader.byteCount + cutAt - written
                // A silent camera leaves the host waiting: no short packet may end the transfer.
                if case .stopDataIn = fault { prefix -= prefix % packet }
                if prefix > 0 { try await device.writeBulkIn(Array(pending.prefix(prefix))) }
                if case .disconnect = fault { await device.disconnect() }
                return false
            }
            if count > 0 {
                try await device.writeBulkIn(Array(pending.prefix(count)))
                written += count
                pending.removeFirst(count)
            }
        }
        var splitHeader = false
        if case .splitHeader = fault { splitHeader = true }
        let lastTransfer = splitHeader ? written - USBContainerHeader.byteCount : written
        let mustEndShort = header.length == USBContainerHeader.unknownLength
        if lastTransfer % packet == 0 && (configuration.sendsZeroLengthPackets || mustEndShort) {
            try await device.writeBulkIn([])
        }
        return true
    }

    // MARK: Reading from bulk OUT

    private func nextCommand() async throws -> PTPRequest? {
        while true {
            guard let item = try await nextItem() else { return nil }
            switch item {
            case .container(.command(let code, let transactionID, let parameters)):
                return PTPRequest(code: code, transactionID: transactionID, parameters: parameters)
            case .dataStart, .dataBytes, .dataEnd:
                // A host data phase nobody asked for: skip it.
                continue
            case .container:
                continue
            }
        }
    }

    private func readDataOut(_ request: PTPRequest) async throws -> [UInt8]? {
        var bytes: [UInt8] = []
        var started = false
        while true {
            guard let item = try await nextItem() else { return nil }
            switch item {
            case .dataStart(_, let transactionID, let count):
                guard transactionID == request.transactionID else { return nil }
                started = true
                if let count, count <= UInt64(configuration.maxDataOutByteCount) { bytes.reserveCapacity(Int(count)) }
            case .dataBytes(let chunk):
                if started && bytes.count <= configuration.maxDataOutByteCount { bytes.append(contentsOf: chunk) }
            case .dataEnd:
                return bytes
            case .container:
                return nil
            }
        }
    }

    private func nextItem() async throws -> USBContainerFramer.Item? {
        while true {
            if let item = try framer.next() { return item }
            let maxLength = max(
                device.maxPacketSize, configuration.chunkByteCount - configuration.chunkByteCount % device.maxPacketSize
            )
            let bytes: [UInt8]
            do {
                bytes = try await device.readBulkOut(maxLength: maxLength, timeout: .seconds(3600))
            } catch {
                // Swift 6.3.1 crashes on `catch let error where` with typed throws here, hence the switch.
                switch error.code {
                case .timeout: return nil
                case .stall:
                    try await Task.sleep(for: .milliseconds(5))
                    continue
                default: throw error
                }
            }
            framer.append(bytes, endsTransfer: bytes.count < maxLength)
        }
    }

    // MARK: Class requests

    private func handleControl(_ request: StillImageClassRequest, _ data: [UInt8]) async
        -> USBControlReply
    {
        switch request {
        case .cancel:
            var reader = WireReader(data, byteOrder: .little)
            guard (try? reader.read(UInt16.self)) == EventCode.cancelTransaction.rawValue,
                let transactionID = try? reader.read(UInt32.self)
            else { return .stall }
            abortRequested = currentTransactionID != nil
            await device.discardBulkIn()
            await device.discardBulkOut()
            framer.reset()
            await responder.transactionCancelled(transactionID)
            return .data([])
        case .deviceReset:
            abortRequested = currentTransactionID != nil
            await device.discardBulkIn()
            await device.discardBulkOut()
            framer.reset()
            stallStatus = false
            await responder.transactionCancelled(nil)
            return .data([])
        case .getDeviceStatus:
            var stalled: [UInt32] = []
            if await device.isStalled(.bulkIn) { stalled.append(USBEndpoint.bulkIn.conventionalAddress) }
            if await device.isStalled(.bulkOut) { stalled.append(USBEndpoint.bulkOut.conventionalAddress) }
            if stalled.isEmpty { stallStatus = false }
            let code: ResponseCode =
                stallStatus ? .generalError : (abortRequested && currentTransactionID != nil ? .deviceBusy : .ok)
            return .data(USBDeviceStatus(code: code, stalledEndpointAddresses: stalled).usbEncoded)
        case .getExtendedEventData:
            return .data([])
        default:
            return .stall
        }
    }

    private func takeFault(for operation: OperationCode) -> Fault? {
        guard let index = faults.firstIndex(where: { $0.operation == nil || $0.operation == operation }) else {
            return nil
        }
        return faults.remove(at: index).fault
    }
}
