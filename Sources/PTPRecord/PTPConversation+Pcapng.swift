import PTP
import WireFormat

extension PTPConversation {
    /// The conversation as a pcapng recording that ``init(capture:)`` reads back to the same transactions, events
    /// and cut marks; Wireshark opens it. Pure: bytes out, no file.
    ///
    /// - USB conversations become Linux usbmon packets (link type 220) of one device (bus 1, address 2): each
    ///   request and host data phase an OUT submission on endpoint 0x01, each device data phase and response an IN
    ///   completion on 0x81 (data phases over 1 MiB in several), each event an interrupt completion on 0x82.
    /// - PTP/IP conversations become TCP over IPv4 (link type 101): a command connection from 10.0.0.1:50000 and an
    ///   event connection from 10.0.0.1:50001 to the camera at 10.0.0.2:15740, each opened with a handshake;
    ///   requests are Operation Request packets, data phases Start Data + End Data, responses and events as such.
    ///   The camera's PTP/IP Init packets are not written (a source rarely holds them); the responder's name goes
    ///   into the section header's comment.
    /// - A data phase the source held only in part is written as the bytes it holds (a USB container's length is
    ///   then that of the bytes written; PTP/IP's Start Data keeps the announced total) and the transaction's
    ///   response packet carries the cut mark as an opt_comment (``DataPhaseCut``). A response the source lost is
    ///   written as OK, and the comment says so.
    ///
    /// Timestamps are the transactions' and events' own, one microsecond apart where they tie, so the file's order
    /// is the conversation's.
    ///
    /// - Parameters:
    ///   - application: shb_userappl and the first section comment (e.g. `rawcap 0.1.0 replay import`).
    ///   - comments: further section comments (the source, what was imported).
    public func pcapngEncoded(application: String, comments: [String] = []) -> [UInt8] {
        var options: [PcapngEncoder.Option] = [.init(code: PcapngEncoder.Option.comment, text: application)]
        if let model = cameraModel {
            options.append(.init(code: PcapngEncoder.Option.comment, text: "camera: \(model)"))
        }
        for comment in comments { options.append(.init(code: PcapngEncoder.Option.comment, text: comment)) }
        options.append(.init(code: PcapngEncoder.Option.userApplication, text: application))
        var file = PcapngEncoder.sectionHeader(options: options)
        var writer = PcapngPacketSequence()
        func interface(_ linkType: LinkType, _ name: String, _ description: String) -> [UInt8] {
            PcapngEncoder.interfaceDescription(
                linkType: linkType, snapLength: 0,
                options: [
                    .init(code: PcapngEncoder.Option.interfaceName, text: name),
                    .init(code: PcapngEncoder.Option.interfaceDescription, text: description),
                    .init(code: PcapngEncoder.Option.timestampResolution, value: [9]),
                ])
        }
        switch transport {
        case .usb:
            file += interface(.usbLinuxMmapped, "usbmon1", "PTP over USB, imported by rawcap")
            writeUSB(into: &writer)
        case .ptpip:
            file += interface(.raw, "ptpip", "PTP/IP over TCP, imported by rawcap")
            writePTPIP(into: &writer)
        }
        return file + writer.bytes
    }

    /// The events to write after each transaction (index `nil`: before the first).
    private func eventsByPosition() -> [Int?: [Event]] {
        Dictionary(grouping: events, by: \.afterTransaction)
    }

    // MARK: USB

    private func writeUSB(into writer: inout PcapngPacketSequence) {
        var urb: UInt64 = 0x1000
        func usbmon(
            _ type: USBMonPacket.TransferType, endpoint: UInt8, submission: Bool, _ data: [UInt8]
        ) -> [UInt8] {
            urb += 0x40
            let packet = USBMonPacket(
                id: urb, eventType: submission ? .submission : .completion, transferType: type, endpoint: endpoint,
                deviceAddress: 2, busNumber: 1, status: submission ? USBMonPacket.statusInProgress : 0,
                length: UInt32(data.count), data: data)
            return packet.mmappedEncoded()
        }
        let grouped = eventsByPosition()
        func writeEvents(after index: Int?, at time: UInt64, _ writer: inout PcapngPacketSequence) {
            for event in grouped[index] ?? [] {
                let container = USBContainer.event(
                    event.event.code, transactionID: event.event.transactionID,
                    parameters: Array(event.event.parameters.prefix(USBContainer.maxEventParameters)))
                writer.append(
                    usbmon(.interrupt, endpoint: 0x82, submission: false, container.usbEncoded),
                    at: max(event.timestampNanoseconds, time))
            }
        }
        writeEvents(after: nil, at: 0, &writer)
        for (index, transaction) in transactions.enumerated() {
            let request = transaction.request
            let time = transaction.requestTimestampNanoseconds
            writer.append(
                usbmon(
                    .bulk, endpoint: 0x01, submission: true,
                    USBContainer.command(
                        request.code, transactionID: request.transactionID,
                        parameters: Array(request.parameters.prefix(USBContainer.maxParameters))
                    ).usbEncoded),
                at: time)
            if let data = transaction.dataOut {
                for chunk in Self.dataContainerChunks(request, data) {
                    writer.append(usbmon(.bulk, endpoint: 0x01, submission: true, chunk), at: time)
                }
            }
            if let data = transaction.dataIn {
                for chunk in Self.dataContainerChunks(request, data) {
                    writer.append(usbmon(.bulk, endpoint: 0x81, submission: false, chunk), at: time)
                }
            }
            let response = transaction.response
            writer.append(
                usbmon(
                    .bulk, endpoint: 0x81, submission: false,
                    USBContainer.response(
                        response.code, transactionID: response.transactionID,
                        parameters: Array(response.parameters.prefix(USBContainer.maxParameters))
                    ).usbEncoded),
                at: transaction.responseTimestampNanoseconds,
                comment: transaction.cut.map { $0.comment(for: request) })
            writeEvents(after: index, at: transaction.responseTimestampNanoseconds, &writer)
        }
    }

    /// A data container of `data` (its length the bytes held), in pieces of at most 1 MiB.
    private static func dataContainerChunks(_ request: PTPRequest, _ data: [UInt8]) -> [[UInt8]] {
        var header = WireWriter(byteOrder: .little)
        let total = data.count + USBContainerHeader.byteCount
        header.write(UInt32(clamping: total))
        header.write(UInt16(2))
        header.write(request.code.rawValue)
        header.write(request.transactionID)
        let piece = 1 << 20
        var chunks: [[UInt8]] = []
        var offset = 0
        var first = header.bytes
        repeat {
            let end = min(data.count, offset + piece - first.count)
            chunks.append(first + data[offset..<end])
            first = []
            offset = end
        } while offset < data.count
        return chunks
    }

    // MARK: PTP/IP

    private func writePTPIP(into writer: inout PcapngPacketSequence) {
        let camera = TCPEndpoint(address: [10, 0, 0, 2], port: 15740)
        var command = TCPFlow(
            client: TCPEndpoint(address: [10, 0, 0, 1], port: 50000), server: camera, clientStart: 0x1000_0000,
            serverStart: 0x8000_0000)
        var event = TCPFlow(
            client: TCPEndpoint(address: [10, 0, 0, 1], port: 50001), server: camera, clientStart: 0x2000_0000,
            serverStart: 0x9000_0000)
        let firstTime = transactions.first?.requestTimestampNanoseconds ?? events.first?.timestampNanoseconds ?? 0
        command.open(at: firstTime, &writer)
        let grouped = eventsByPosition()
        var eventOpened = false
        func writeEvents(after index: Int?, at time: UInt64, _ writer: inout PcapngPacketSequence) {
            for item in grouped[index] ?? [] {
                if !eventOpened {
                    event.open(at: time, &writer)
                    eventOpened = true
                }
                let packet = PTPIPPacket.event(
                    code: item.event.code, transactionID: item.event.transactionID,
                    parameters: Array(item.event.parameters.prefix(3)))
                event.send(fromClient: false, packet.ptpipEncoded, at: max(item.timestampNanoseconds, time), &writer)
            }
        }
        writeEvents(after: nil, at: firstTime, &writer)
        for (index, transaction) in transactions.enumerated() {
            let request = transaction.request
            let time = transaction.requestTimestampNanoseconds
            let phase: PTPIPDataPhase = transaction.dataOut != nil ? .out : .noneOrIn
            command.send(
                fromClient: true,
                PTPIPPacket.operationRequest(
                    dataPhase: phase, code: request.code, transactionID: request.transactionID,
                    parameters: Array(request.parameters.prefix(5))
                ).ptpipEncoded, at: time, &writer)
            let announcedIn = transaction.cut?.direction == .in ? transaction.cut?.announcedByteCount : nil
            let announcedOut = transaction.cut?.direction == .out ? transaction.cut?.announcedByteCount : nil
            if let data = transaction.dataOut {
                for packet in Self.ptpipDataPackets(request.transactionID, data, announced: announcedOut) {
                    command.send(fromClient: true, packet, at: time, &writer)
                }
            }
            if let data = transaction.dataIn {
                for packet in Self.ptpipDataPackets(request.transactionID, data, announced: announcedIn) {
                    command.send(fromClient: false, packet, at: time, &writer)
                }
            }
            let response = transaction.response
            command.send(
                fromClient: false,
                PTPIPPacket.operationResponse(
                    code: response.code, transactionID: response.transactionID,
                    parameters: Array(response.parameters.prefix(5))
                ).ptpipEncoded, at: transaction.responseTimestampNanoseconds, &writer,
                comment: transaction.cut.map { $0.comment(for: request) })
            writeEvents(after: index, at: transaction.responseTimestampNanoseconds, &writer)
        }
    }

    /// Start Data (with the announced total when the source cut the phase), Data packets of up to 1 MiB, End Data.
    private static func ptpipDataPackets(_ transactionID: UInt32, _ data: [UInt8], announced: Int?) -> [[UInt8]] {
        var packets = [
            PTPIPPacket.startData(transactionID: transactionID, totalLength: UInt64(announced ?? data.count))
                .ptpipEncoded
        ]
        let piece = 1 << 20
        var offset = 0
        while data.count - offset > piece {
            packets.append(
                PTPIPPacket.data(transactionID: transactionID, payload: Array(data[offset..<(offset + piece)]))
                    .ptpipEncoded)
            offset += piece
        }
        packets.append(
            PTPIPPacket.endData(transactionID: transactionID, payload: Array(data[offset...])).ptpipEncoded)
        return packets
    }
}

/// Enhanced Packet Blocks on interface 0, with timestamps that never go backwards.
struct PcapngPacketSequence {
    private(set) var bytes: [UInt8] = []
    private var last: UInt64 = 0

    mutating func append(_ packet: [UInt8], at time: UInt64, comment: String? = nil) {
        let stamp = time > last ? time : last + 1000
        last = stamp
        bytes += PcapngEncoder.enhancedPacket(
            interfaceID: 0, timestamp: stamp, packet: packet,
            options: comment.map { [.init(code: PcapngEncoder.Option.comment, text: $0)] } ?? [])
    }
}

/// One TCP connection written as IPv4 packets: its handshake, then payload in segments, acknowledged implicitly.
struct TCPFlow {
    var client: TCPEndpoint
    var server: TCPEndpoint
    var clientNext: UInt32
    var serverNext: UInt32
    private var identification: UInt16 = 1

    init(client: TCPEndpoint, server: TCPEndpoint, clientStart: UInt32, serverStart: UInt32) {
        (self.client, self.server) = (client, server)
        (clientNext, serverNext) = (clientStart, serverStart)
    }

    mutating func open(at time: UInt64, _ writer: inout PcapngPacketSequence) {
        segment(client, server, clientNext, 0, .syn, [], at: time, &writer)
        segment(server, client, serverNext, clientNext &+ 1, [.syn, .ack], [], at: time, &writer)
        clientNext &+= 1
        serverNext &+= 1
        segment(client, server, clientNext, serverNext, .ack, [], at: time, &writer)
    }

    mutating func send(
        fromClient: Bool, _ payload: [UInt8], at time: UInt64, _ writer: inout PcapngPacketSequence,
        comment: String? = nil
    ) {
        var offset = 0
        repeat {
            let end = min(payload.count, offset + TCPSegment.maxEncodedPayloadByteCount)
            let last = end == payload.count
            if fromClient {
                segment(
                    client, server, clientNext, serverNext, [.ack, .psh], payload[offset..<end], at: time,
                    &writer, comment: last ? comment : nil)
                clientNext &+= UInt32(end - offset)
            } else {
                segment(
                    server, client, serverNext, clientNext, [.ack, .psh], payload[offset..<end], at: time,
                    &writer, comment: last ? comment : nil)
                serverNext &+= UInt32(end - offset)
            }
            offset = end
        } while offset < payload.count
    }

    private mutating func segment(
        _ source: TCPEndpoint, _ destination: TCPEndpoint, _ sequence: UInt32, _ acknowledgment: UInt32,
        _ flags: TCPSegment.Flags, _ payload: ArraySlice<UInt8>, at time: UInt64,
        _ writer: inout PcapngPacketSequence, comment: String? = nil
    ) {
        let segment = TCPSegment(
            source: source, destination: destination, sequenceNumber: sequence, acknowledgmentNumber: acknowledgment,
            flags: flags, payload: payload)
        writer.append(segment.ipv4Encoded(identification: identification), at: time, comment: comment)
        identification &+= 1
    }
}
