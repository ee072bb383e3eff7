import PTP
import WireFormat

/// Finds PTP/IP sessions in captured IP traffic and turns them into ``ConversationMessage``s.
///
/// TCP connections are reassembled per direction (``TCPStreamReassembler``). A connection is PTP/IP when its first
/// bytes are an Init Command Request or Init Event Request (on any port, so the event connection of a camera on a
/// non-standard port is found too), or when it uses port 15740 and its bytes frame as PTP/IP (a capture started
/// mid-session). Fujifilm's variant is recognised by its ports: 55740 carries a PTP/IP-style handshake followed by
/// USB-style containers, 55741 USB-style events, 55742 live-view JPEGs (ignored).
struct PTPIPCaptureDecoder: Sendable {
    /// The standard PTP/IP port.
    static let standardPort: UInt16 = 15740
    /// Fujifilm's command port.
    static let fujiCommandPort: UInt16 = 55740
    /// Fujifilm's event port.
    static let fujiEventPort: UInt16 = 55741
    /// Fujifilm's live-view port.
    static let fujiLiveViewPort: UInt16 = 55742
    /// Fujifilm's Init Command Request carries this where the protocol version would be (libgphoto2 `fujiptpip.c`).
    static let fujiInitMagic: UInt32 = 0x8F53_E4F2

    private enum Kind: Sendable {
        case undetermined
        case command
        case event
        case fujiCommand
        case fujiEvent
        case ignored
    }

    private enum StreamDecoder: Sendable {
        case ptpip(PTPIPFrameDecoder)
        case containers(ContainerStream)
        /// Fujifilm's handshake packet, then containers.
        case fujiHandshake([UInt8])
    }

    private struct Direction: Sendable {
        var reassembler = TCPStreamReassembler()
        var decoder: StreamDecoder?
        var data: DataPhaseBuffer?
        /// Bytes that arrived before the connection's kind was known.
        var early: [UInt8] = []
    }

    private struct Connection: Sendable {
        var client: TCPEndpoint
        var server: TCPEndpoint
        var kind = Kind.undetermined
        var fromClient = Direction()
        var fromServer = Direction()
        var firstBlockOffset: UInt64
    }

    private struct Key: Hashable, Sendable {
        var low: TCPEndpoint
        var high: TCPEndpoint
        init(_ a: TCPEndpoint, _ b: TCPEndpoint) { (low, high) = a < b ? (a, b) : (b, a) }
    }

    private var connections: [Key: Connection] = [:]
    private var filler = ZeroFillBudget()
    /// The messages found so far, in capture order.
    private(set) var messages: [StampedMessage] = []
    /// Whether any connection was recognised as PTP/IP.
    private(set) var sawPTPIP = false

    private static let serverPorts: Set<UInt16> = [standardPort, fujiCommandPort, fujiEventPort, fujiLiveViewPort]

    /// Adds one captured packet; packets that are not TCP are skipped.
    mutating func add(_ packet: CapturedPacket) throws(RecordError) {
        var segment: TCPSegment
        do {
            guard let ip = try LinkLayer.ipPacket(in: packet), let decoded = try TCPSegment.decode(ipPacket: ip) else {
                return
            }
            segment = decoded
        } catch {
            throw RecordError(.malformedPacket, at: packet.blockOffset, "\(packet.linkType) packet: \(error)")
        }
        let key = Key(segment.source, segment.destination)
        if connections[key] == nil {
            guard connections.count < CaptureLimits.maxConnectionCount else {
                throw RecordError(
                    .limitExceeded, at: packet.blockOffset, "over \(CaptureLimits.maxConnectionCount) TCP connections")
            }
            guard let roles = Self.roles(segment) else { return }
            connections[key] = Connection(
                client: roles.client, server: roles.server, firstBlockOffset: packet.blockOffset)
        }
        // Take the connection out of the dictionary while it changes, so its buffers are never copied.
        guard var connection = connections.removeValue(forKey: key) else { return }
        defer { connections[key] = connection }
        if case .ignored = connection.kind { return }
        let fromClient = segment.source == connection.client
        if segment.declaredPayloadByteCount > segment.payload.count, !segment.payload.isEmpty {
            // The snap length cut this segment: fill it in so the stream has no hole (see ZeroFillBudget).
            guard segment.declaredPayloadByteCount <= CaptureLimits.maxBlockByteCount else {
                throw RecordError(
                    .limitExceeded, at: packet.blockOffset, "a segment of \(segment.declaredPayloadByteCount) bytes")
            }
            let captured = segment.payload.count
            segment.payload = try filler.fill(
                Array(segment.payload), to: segment.declaredPayloadByteCount, at: packet.blockOffset)[...]
            messages.append(
                StampedMessage(
                    message: .note(
                        "the capture holds \(captured) of the \(segment.declaredPayloadByteCount) bytes of the segment at "
                            + "block offset 0x\(String(packet.blockOffset, radix: 16)); the rest is zeros"),
                    timestampNanoseconds: packet.timestampNanoseconds, blockOffset: packet.blockOffset))
        }
        let bytes: [UInt8]
        do {
            bytes =
                fromClient
                ? try connection.fromClient.reassembler.add(segment)
                : try connection.fromServer.reassembler.add(segment)
        } catch {
            throw RecordError(
                error.code, at: packet.blockOffset, "\(segment.source) → \(segment.destination): \(error.detail)")
        }
        guard !bytes.isEmpty else { return }
        let stamp = (packet.timestampNanoseconds, packet.blockOffset)
        if case .undetermined = connection.kind {
            if fromClient { connection.fromClient.early += bytes } else { connection.fromServer.early += bytes }
            let early = fromClient ? connection.fromClient.early : connection.fromServer.early
            guard early.count >= 12 || (early.count >= 8 && !fromClient) else { return }
            connection.kind = Self.classify(early, fromClient: fromClient, server: connection.server)
            switch connection.kind {
            case .ignored, .undetermined:
                connection.fromClient.early = []
                connection.fromServer.early = []
                return
            default:
                sawPTPIP = true
                // Feed what waited, the other direction's first: it can only be older if this one was still short.
                let otherEarly = fromClient ? connection.fromServer.early : connection.fromClient.early
                connection.fromClient.early = []
                connection.fromServer.early = []
                if !otherEarly.isEmpty { try feed(&connection, fromClient: !fromClient, otherEarly, stamp) }
                try feed(&connection, fromClient: fromClient, early, stamp)
            }
            return
        }
        try feed(&connection, fromClient: fromClient, bytes, stamp)
    }

    /// Checks that every PTP/IP stream ended without a hole.
    func finish() throws(RecordError) {
        for connection in connections.values {
            switch connection.kind {
            case .ignored, .undetermined: continue
            default: break
            }
            for (direction, from, to) in [
                (connection.fromClient, connection.client, connection.server),
                (connection.fromServer, connection.server, connection.client),
            ] {
                if let gap = direction.reassembler.gapOffset {
                    throw RecordError(
                        .streamGap, at: connection.firstBlockOffset,
                        "\(from) → \(to) misses bytes at stream offset \(gap) (\(direction.reassembler.pendingByteCount) bytes wait behind the hole)"
                    )
                }
            }
        }
    }

    // MARK: Classification

    /// Who is the client: the sender of a lone SYN, else the end not on a PTP/IP port, else the first sender.
    private static func roles(_ segment: TCPSegment) -> (client: TCPEndpoint, server: TCPEndpoint)? {
        if segment.flags.contains(.syn) {
            return segment.flags.contains(.ack)
                ? (segment.destination, segment.source) : (segment.source, segment.destination)
        }
        if serverPorts.contains(segment.destination.port) { return (segment.source, segment.destination) }
        if serverPorts.contains(segment.source.port) { return (segment.destination, segment.source) }
        guard !segment.payload.isEmpty else { return nil }
        return (segment.source, segment.destination)
    }

    private static func classify(_ bytes: [UInt8], fromClient: Bool, server: TCPEndpoint) -> Kind {
        if server.port == fujiLiveViewPort { return .ignored }
        if server.port == fujiEventPort { return .fujiEvent }
        var reader = WireReader(bytes, byteOrder: .little)
        guard let length = try? reader.read(UInt32.self), let type = try? reader.read(UInt32.self) else {
            return .ignored
        }
        if fromClient {
            if type == PTPIPPacketType.initCommandRequest.rawValue, (30...4096).contains(length) {
                let magic = try? reader.read(UInt32.self)
                return magic == fujiInitMagic || server.port == fujiCommandPort ? .fujiCommand : .command
            }
            if type == PTPIPPacketType.initEventRequest.rawValue, length == 12 { return .event }
        } else if server.port == standardPort {
            switch PTPIPPacketType(rawValue: type) {
            case .initEventAck, .event, .probeRequest, .probeResponse: return .event
            default: break
            }
        }
        if server.port == fujiCommandPort { return .fujiCommand }
        return server.port == standardPort ? .command : .ignored
    }

    // MARK: Decoding

    private mutating func feed(
        _ connection: inout Connection, fromClient: Bool, _ bytes: [UInt8], _ stamp: (UInt64, UInt64)
    ) throws(RecordError) {
        if fromClient {
            try feed(&connection.fromClient, kind: connection.kind, fromClient: true, bytes, stamp)
        } else {
            try feed(&connection.fromServer, kind: connection.kind, fromClient: false, bytes, stamp)
        }
    }

    private mutating func feed(
        _ direction: inout Direction, kind: Kind, fromClient: Bool, _ bytes: [UInt8], _ stamp: (UInt64, UInt64)
    ) throws(RecordError) {
        let (time, blockOffset) = stamp
        if direction.decoder == nil {
            switch kind {
            case .fujiCommand: direction.decoder = .fujiHandshake([])
            case .fujiEvent: direction.decoder = .containers(ContainerStream(direction: fromClient ? .out : .in))
            default: direction.decoder = .ptpip(PTPIPFrameDecoder())
            }
        }
        // Each case takes its decoder out of `direction` before changing it, so the buffer is never copied.
        switch direction.decoder {
        case .ptpip(var decoder):
            direction.decoder = nil
            decoder.append(bytes)
            while true {
                let packet: PTPIPPacket?
                do {
                    packet = try decoder.decode()
                } catch {
                    throw RecordError(.malformedPTP, at: blockOffset, "PTP/IP stream: \(error)")
                }
                guard let packet else { break }
                try handle(packet, direction: &direction, fromClient: fromClient, time, blockOffset)
            }
            direction.decoder = .ptpip(decoder)
        case .containers(var stream):
            direction.decoder = nil
            for message in try stream.feed(bytes, endsTransfer: false, at: blockOffset) {
                append(message, time, blockOffset)
            }
            direction.decoder = .containers(stream)
        case .fujiHandshake(var pending):
            pending += bytes
            guard pending.count >= 4 else {
                direction.decoder = .fujiHandshake(pending)
                return
            }
            let length = Int(pending[0]) | Int(pending[1]) << 8 | Int(pending[2]) << 16 | Int(pending[3]) << 24
            guard (8...4096).contains(length) else {
                throw RecordError(.malformedPTP, at: blockOffset, "Fujifilm handshake packet of \(length) bytes")
            }
            guard pending.count >= length else {
                direction.decoder = .fujiHandshake(pending)
                return
            }
            var handshake = pending[0..<length]
            let decoded = try? PTPIPPacket.decode(&handshake)
            if !fromClient, case .initCommandAck(let ack)? = decoded ?? nil {
                append(.responderName(ack.friendlyName), time, blockOffset)
            }
            // After the handshake the command connection speaks USB-style containers (libgphoto2 fujiptpip.c).
            direction.decoder = .containers(ContainerStream(direction: fromClient ? .out : .in))
            let rest = Array(pending[length...])
            if !rest.isEmpty { try feed(&direction, kind: kind, fromClient: fromClient, rest, stamp) }
        case nil:
            return
        }
    }

    private mutating func handle(
        _ packet: PTPIPPacket, direction: inout Direction, fromClient: Bool, _ time: UInt64, _ blockOffset: UInt64
    ) throws(RecordError) {
        let dataDirection: ConversationMessage.Direction = fromClient ? .out : .in
        switch packet {
        case .initCommandAck(let ack):
            append(.responderName(ack.friendlyName), time, blockOffset)
        case .operationRequest(_, let code, let transactionID, let parameters):
            append(
                .request(PTPRequest(code: code, transactionID: transactionID, parameters: parameters)), time,
                blockOffset)
        case .operationResponse(let code, let transactionID, let parameters):
            if let data = direction.data {
                // A response after Data without End Data: keep what came.
                append(.data(dataDirection, transactionID: data.transactionID, bytes: data.bytes), time, blockOffset)
                direction.data = nil
            }
            append(
                .response(PTPResponse(code: code, transactionID: transactionID, parameters: parameters)), time,
                blockOffset)
        case .event(let code, let transactionID, let parameters):
            append(
                .event(PTPEvent(code: code, transactionID: transactionID, parameters: parameters)), time, blockOffset)
        case .startData(let transactionID, _):
            direction.data = DataPhaseBuffer(transactionID: transactionID)
        case .data(let transactionID, let payload):
            if direction.data == nil { direction.data = DataPhaseBuffer(transactionID: transactionID) }
            try direction.data?.append(payload, at: blockOffset)
        case .endData(let transactionID, let payload):
            var data = direction.data ?? DataPhaseBuffer(transactionID: transactionID)
            direction.data = nil
            try data.append(payload, at: blockOffset)
            append(.data(dataDirection, transactionID: data.transactionID, bytes: data.bytes), time, blockOffset)
        case .cancel:
            direction.data = nil
        case .initCommandRequest, .initEventRequest, .initEventAck, .initFail, .probeRequest, .probeResponse:
            break
        }
    }

    private mutating func append(_ message: ConversationMessage, _ time: UInt64, _ blockOffset: UInt64) {
        messages.append(StampedMessage(message: message, timestampNanoseconds: time, blockOffset: blockOffset))
    }
}
