import WireFormat

/// The camera side of the PTP/IP seam: it answers the handshake, serves operations over the command/data
/// connection by handing them to a ``PTPResponder``, and sends the responder's events on the event connection.
///
/// The socket server of `PTPIP` accepts the command connection, creates a device side on it, and hands over the
/// event connection when it arrives (``run(eventStream:)`` waits for it after the Init Command Ack, as a camera
/// does). Tests pass the ends of ``InMemoryByteStream/pair(capacity:)``.
public actor PTPIPDeviceSide {
    /// How the responder ends a data phase.
    public enum DataEnding: Sendable, Hashable {
        /// Data packets carry the payload, then an empty End Data (Sony RX100M7).
        case emptyEndData
        /// Data packets carry the payload and the last chunk travels in End Data (libgphoto2's data-out); with
        /// a large ``Configuration/dataPacketByteCount`` everything is in one End Data (Canon EOS R, Nikon Z 8).
        case payloadInEndData
    }

    /// The responder's identity and framing.
    public struct Configuration: Sendable {
        /// The responder's GUID in Init Command Ack.
        public var guid: PTPIPGUID
        /// The responder's name in Init Command Ack (the camera model).
        public var friendlyName: String
        /// The version in Init Command Ack; `nil` leaves it out, as some responders do.
        public var protocolVersion: UInt32?
        /// The connection number handed out.
        public var connectionNumber: UInt32
        /// When set, the handshake is refused with Init Fail and this reason.
        public var rejection: PTPIPInitFailReason?
        /// How data phases end.
        public var dataEnding: DataEnding
        /// Payload bytes per Data packet.
        public var dataPacketByteCount: Int
        /// Whether Start Data announces the total length (all ones otherwise).
        public var announcesTotalLength: Bool
        /// Largest host data phase accepted; a larger one is answered with GeneralError.
        public var maxDataOutByteCount: Int

        /// Creates a configuration.
        public init(
            guid: PTPIPGUID = PTPIPGUID.random(), friendlyName: String = "rawcap responder",
            protocolVersion: UInt32? = PTPIPPacket.protocolVersion1_0, connectionNumber: UInt32 = 1,
            rejection: PTPIPInitFailReason? = nil, dataEnding: DataEnding = .emptyEndData,
            dataPacketByteCount: Int = 64 * 1024, announcesTotalLength: Bool = true,
            maxDataOutByteCount: Int = WireLimits.maxInMemoryDataPhase
        ) {
            self.guid = guid
            self.friendlyName = friendlyName
            self.protocolVersion = protocolVersion
            self.connectionNumber = connectionNumber
            self.rejection = rejection
            self.dataEnding = dataEnding
            self.dataPacketByteCount = max(1, dataPacketByteCount)
            self.announcesTotalLength = announcesTotalLength
            self.maxDataOutByteCount = maxDataOutByteCount
        }
    }

    /// A misbehaviour to apply to one transaction.
    public enum Fault: Sendable, Hashable {
        /// Send this many payload bytes of the data phase, then close both connections.
        case disconnect(afterBytes: Int)
        /// Wait before answering.
        case delay(Duration)
        /// Answer with this transaction ID.
        case transactionID(UInt32)
        /// Send the previous transaction's response again before this one's.
        case repeatPreviousResponse
        /// Send this many bytes more than Start Data announces.
        case extraDataBytes(Int)
        /// Send each packet's bytes in single-byte writes (a stream split at every byte boundary).
        case byteByByte
    }

    private let command: any ByteStream
    private let responder: any PTPResponder
    private let configuration: Configuration
    private var event: (any ByteStream)?
    private var decoder = PTPIPFrameDecoder()
    private var faults: [(fault: Fault, operation: OperationCode?)] = []
    private var lastResponse: [UInt8]?
    private var tasks: [Task<Void, Never>] = []

    /// Every request received, in order.
    public private(set) var transcript: [PTPRequest] = []
    /// The initiator's Init Command Request, once received.
    public private(set) var initiator: PTPIPPacket.InitCommandRequest?
    /// Probe Responses received from the host.
    public private(set) var probeResponseCount = 0

    /// Creates the device side of a command connection.
    public init(command: any ByteStream, responder: any PTPResponder, configuration: Configuration = Configuration()) {
        self.command = command
        self.responder = responder
        self.configuration = configuration
    }

    /// Applies `fault` to the next transaction (of `operation`, when given).
    public func inject(_ fault: Fault, on operation: OperationCode? = nil) {
        faults.append((fault, operation))
    }

    /// Sends an event on the event connection.
    public func emit(_ value: PTPEvent) async throws {
        guard let event else { throw ByteStreamError(.closed, "no event connection yet") }
        try await event.send(
            PTPIPPacket.event(code: value.code, transactionID: value.transactionID, parameters: value.parameters)
                .ptpipEncoded)
    }

    /// Sends a Probe Request on the event connection; the host answers with a Probe Response.
    public func probe() async throws {
        guard let event else { throw ByteStreamError(.closed, "no event connection yet") }
        try await event.send(PTPIPPacket.probeRequest.ptpipEncoded)
    }

    /// Runs the handshake, then serves operations until the command connection closes.
    public func run(eventStream: @escaping @Sendable () async throws -> any ByteStream) async {
        defer { for task in tasks { task.cancel() } }
        do {
            guard case .initCommandRequest(let hello) = try await nextPacket(from: command) else {
                return await command.close()
            }
            initiator = hello
            if let reason = configuration.rejection {
                try await command.send(PTPIPPacket.initFail(reason: reason).ptpipEncoded)
                return await command.close()
            }
            let ack = PTPIPPacket.InitCommandAck(
                connectionNumber: configuration.connectionNumber, guid: configuration.guid,
                friendlyName: configuration.friendlyName, protocolVersion: configuration.protocolVersion)
            try await command.send(PTPIPPacket.initCommandAck(ack).ptpipEncoded)
            let event = try await eventStream()
            var eventDecoder = PTPIPFrameDecoder()
            guard case .initEventRequest(let number) = try await Self.nextPacket(from: event, decoder: &eventDecoder),
                number == configuration.connectionNumber
            else {
                try await event.send(PTPIPPacket.initFail(reason: .unspecified).ptpipEncoded)
                await event.close()
                return await command.close()
            }
            try await event.send(PTPIPPacket.initEventAck.ptpipEncoded)
            self.event = event
            startEventTasks(event, decoder: eventDecoder)
            while !Task.isCancelled {
                guard
                    case .operationRequest(let phase, let code, let id, let parameters) = try await nextPacket(
                        from: command)
                else { continue }
                try await serve(PTPRequest(code: code, transactionID: id, parameters: parameters), dataPhase: phase)
            }
        } catch {
            await command.close()
            await event?.close()
        }
    }

    private func startEventTasks(_ event: any ByteStream, decoder: PTPIPFrameDecoder) {
        let events = responder.events
        tasks.append(
            Task { [weak self] in
                for await value in events {
                    guard let self else { return }
                    do { try await self.emit(value) } catch { return }
                }
            })
        tasks.append(
            Task { [weak self] in
                var decoder = decoder
                while !Task.isCancelled {
                    guard let packet = try? await Self.nextPacket(from: event, decoder: &decoder) else { return }
                    switch packet {
                    case .probeRequest: try? await event.send(PTPIPPacket.probeResponse.ptpipEncoded)
                    case .probeResponse: await self?.countProbeResponse()
                    default: continue
                    }
                }
            })
    }

    private func countProbeResponse() { probeResponseCount += 1 }

    // MARK: Serving one transaction

    private func serve(_ request: PTPRequest, dataPhase: PTPIPDataPhase) async throws {
        transcript.append(request)
        var fault = takeFault(for: request.code)
        var dataOut: [UInt8]?
        if dataPhase == .out { dataOut = try await readDataOut(request) }
        var reply: PTPResponderReply
        if let dataOut, dataOut.count > configuration.maxDataOutByteCount {
            reply = PTPResponderReply(.generalError)
        } else {
            reply = await responder.respond(to: request, dataOut: dataOut)
        }
        if fault == nil, let linkFault = reply.linkFault {
            switch linkFault {
            // PTP/IP has no stall: the nearest failure is a connection that closes without an answer.
            case .stall: throw ByteStreamError(.closed, "fault: link stalled during \(request.code)")
            case .disconnect(let count): fault = .disconnect(afterBytes: count)
            case .drop: throw ByteStreamError(.closed, "fault: the camera left the network during \(request.code)")
            }
        }
        if case .delay(let duration) = fault { try await Task.sleep(for: duration) }
        var id = request.transactionID
        if case .transactionID(let other) = fault { id = other }
        if case .repeatPreviousResponse = fault, let lastResponse { try await send(lastResponse, fault: fault) }
        if let source = reply.dataIn {
            try await sendData(source, transactionID: id, fault: fault)
        }
        let response = PTPIPPacket.operationResponse(code: reply.code, transactionID: id, parameters: reply.parameters)
            .ptpipEncoded
        try await send(response, fault: fault)
        lastResponse = response
    }

    private func sendData(_ source: any PTPDataSource, transactionID id: UInt32, fault: Fault?) async throws {
        let total = source.byteCount
        var extra: UInt64 = 0
        if case .extraDataBytes(let count) = fault { extra = UInt64(count) }
        var cutAt: UInt64?
        if case .disconnect(let count) = fault { cutAt = UInt64(count) }
        let announced = configuration.announcesTotalLength ? total : PTPIPPacket.unknownTotalLength
        try await send(PTPIPPacket.startData(transactionID: id, totalLength: announced).ptpipEncoded, fault: fault)
        if fault == nil, total > 0, source.bytesInMemory(at: 0, maxByteCount: 1) != nil {
            return try await sendInMemoryData(source, transactionID: id)
        }
        let payloadTotal = total + extra
        var offset: UInt64 = 0
        while offset < payloadTotal {
            var chunk: [UInt8]
            if offset < total {
                chunk = try await source.read(at: offset, maxByteCount: configuration.dataPacketByteCount)
                guard !chunk.isEmpty else { throw ByteStreamError(.ioError, "data source ended at \(offset)") }
            } else {
                chunk = [UInt8](
                    repeating: 0xEE, count: Int(min(payloadTotal - offset, UInt64(configuration.dataPacketByteCount))))
            }
            if let cutAt, offset + UInt64(chunk.count) >= cutAt {
                chunk = Array(chunk.prefix(Int(cutAt - offset)))
                try await send(PTPIPPacket.data(transactionID: id, payload: chunk).ptpipEncoded, fault: fault)
                throw ByteStreamError(.closed, "fault: disconnect after \(cutAt) bytes")
            }
            offset += UInt64(chunk.count)
            let last = offset >= payloadTotal
            if last && configuration.dataEnding == .payloadInEndData {
                try await send(PTPIPPacket.endData(transactionID: id, payload: chunk).ptpipEncoded, fault: fault)
                return
            }
            try await send(PTPIPPacket.data(transactionID: id, payload: chunk).ptpipEncoded, fault: fault)
        }
        try await send(PTPIPPacket.endData(transactionID: id, payload: []).ptpipEncoded, fault: fault)
    }

    /// Most bytes of Data packets written to the socket at once by ``sendInMemoryData(_:transactionID:)``.
    static let sendBatchByteCount = 1 << 20

    /// The Data packets (and End Data) of a source whose bytes are in memory, the same packets as the general path
    /// sends, encoded straight from the source into batches of about ``sendBatchByteCount`` bytes: one copy and one
    /// write per batch rather than two copies and a write per packet.
    private func sendInMemoryData(_ source: any PTPDataSource, transactionID id: UInt32) async throws {
        let total = source.byteCount
        let packetSize = configuration.dataPacketByteCount
        var batch: [UInt8] = []
        var offset: UInt64 = 0
        while offset < total {
            if batch.isEmpty { batch.reserveCapacity(Self.sendBatchByteCount + packetSize + 64) }
            guard let chunk = source.bytesInMemory(at: offset, maxByteCount: packetSize), !chunk.isEmpty else {
                throw ByteStreamError(.ioError, "data source ended at \(offset)")
            }
            offset += UInt64(chunk.count)
            let type: PTPIPPacketType =
                offset >= total && configuration.dataEnding == .payloadInEndData ? .endData : .data
            Self.appendDataPacket(type, transactionID: id, payload: chunk, to: &batch)
            if offset >= total && type == .data {
                Self.appendDataPacket(.endData, transactionID: id, payload: [], to: &batch)
            }
            if batch.count >= Self.sendBatchByteCount || offset >= total {
                try await command.send(batch)
                batch = []
            }
        }
    }

    /// Appends a Data or End Data packet as ``PTPIPPacket/ptpipEncoded`` lays it out.
    private static func appendDataPacket(
        _ type: PTPIPPacketType, transactionID: UInt32, payload: ArraySlice<UInt8>, to bytes: inout [UInt8]
    ) {
        let length = UInt32(truncatingIfNeeded: PTPIPPacket.headerByteCount + 4 + payload.count)
        for value in [length, type.rawValue, transactionID] {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        bytes.append(contentsOf: payload)
    }

    private func readDataOut(_ request: PTPRequest) async throws -> [UInt8]? {
        var bytes: [UInt8] = []
        var started = false
        while true {
            let packet = try await nextPacket(from: command)
            switch packet {
            case .startData(let id, _) where id == request.transactionID:
                started = true
            case .data(let id, let payload) where id == request.transactionID && started:
                if bytes.count <= configuration.maxDataOutByteCount { bytes.append(contentsOf: payload) }
            case .endData(let id, let payload) where id == request.transactionID && started:
                if bytes.count <= configuration.maxDataOutByteCount { bytes.append(contentsOf: payload) }
                return bytes
            case .cancel:
                return nil
            default:
                continue
            }
        }
    }

    // MARK: Plumbing

    private func send(_ bytes: [UInt8], fault: Fault?) async throws {
        if case .byteByByte = fault {
            for byte in bytes { try await command.send([byte]) }
        } else {
            try await command.send(bytes)
        }
    }

    private func nextPacket(from stream: any ByteStream) async throws -> PTPIPPacket {
        while true {
            if let packet = try decoder.decode() { return packet }
            decoder.append(try await Self.receive(from: stream))
        }
    }

    private static func nextPacket(from stream: any ByteStream, decoder: inout PTPIPFrameDecoder) async throws
        -> PTPIPPacket
    {
        while true {
            if let packet = try decoder.decode() { return packet }
            decoder.append(try await receive(from: stream))
        }
    }

    /// Waits for bytes as long as it takes: a camera idles until the host speaks.
    private static func receive(from stream: any ByteStream) async throws -> [UInt8] {
        while true {
            do {
                return try await stream.receive(maxLength: 1 << 20, timeout: .seconds(60))
            } catch {
                if error.code != .timeout || Task.isCancelled { throw error }
            }
        }
    }

    private func takeFault(for operation: OperationCode) -> Fault? {
        guard let index = faults.firstIndex(where: { $0.operation == nil || $0.operation == operation }) else {
            return nil
        }
        return faults.remove(at: index).fault
    }
}
