import PTPRecord

extension FuzzSeeds {
    /// Small captures covering each reader path: a PTP/IP session in pcapng (both connections, data in and out,
    /// an event), the same packets as big-endian pcap over Ethernet and as Linux cooked v2 with nanosecond
    /// timestamps, a USB session as usbmon (64- and 48-byte headers) and as USBPcap, and Fujifilm's variant.
    static func pcapSeeds() throws -> [(String, [UInt8])] {
        let ptpip = ptpipPackets()
        let usb = usbPackets()
        return [
            ("ptpip.pcapng", pcapng(linkType: .raw, ptpip, bigEndian: false)),
            ("ptpip-ethernet-be.pcap", pcap(linkType: .ethernet, ptpip.map { ethernet + $0 }, bigEndian: true)),
            (
                "ptpip-sll2-ns.pcap",
                pcap(linkType: .linuxSLL2, ptpip.map { sll2 + $0 }, bigEndian: false, nanoseconds: true)
            ),
            ("usbmon64.pcapng", pcapng(linkType: .usbLinuxMmapped, usb.map { $0.mmappedEncoded() }, bigEndian: false)),
            (
                "usbmon48.pcap",
                pcap(linkType: .usbLinux, usb.map { Array($0.mmappedEncoded()[0..<48]) + $0.data }, bigEndian: false)
            ),
            ("usbpcap.pcap", pcap(linkType: .usbPcap, usb.map(usbPcap), bigEndian: false)),
            ("fuji.pcapng", pcapng(linkType: .raw, fujiPackets(), bigEndian: false)),
        ]
    }

    static let ethernet: [UInt8] = [2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00]
    static let sll2: [UInt8] = [0x08, 0x00, 0, 0, 0, 0, 0, 2, 0, 1, 0, 6, 2, 0, 0, 0, 0, 1, 0, 0]

    /// A little-endian integer's bytes.
    static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    /// A PTP/IP packet: length, type, payload.
    static func ptpip(_ type: UInt32, _ payload: [UInt8]) -> [UInt8] {
        le(UInt32(8 + payload.count)) + le(type) + payload
    }

    /// A USB container: length, type, code, transaction ID, payload.
    static func container(_ type: UInt16, _ code: UInt16, _ transactionID: UInt32, _ payload: [UInt8]) -> [UInt8] {
        le(UInt32(12 + payload.count)) + le(type) + le(code) + le(transactionID) + payload
    }

    /// Two TCP connections to 15740 carrying a handshake, GetDeviceInfo, SetDevicePropValue and an event.
    static func ptpipPackets() -> [[UInt8]] {
        let host = TCPEndpoint(address: [10, 0, 0, 1], port: 50000)
        let hostEvent = TCPEndpoint(address: [10, 0, 0, 1], port: 50001)
        let camera = TCPEndpoint(address: [10, 0, 0, 2], port: 15740)
        let name: [UInt8] = Array("h".utf16).flatMap { le($0) } + [0, 0]
        let info =
            [100, 0] + le(UInt32(0)) + [0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 20) + [0, 0, 0, 2, 0x4D, 0, 0, 0]
        var conversation = TCPConversation(client: host, server: camera)
        var events = TCPConversation(client: hostEvent, server: camera)
        var packets = conversation.open()
        packets += conversation.send(
            .client, ptpip(1, [UInt8](repeating: 7, count: 16) + name + le(UInt32(0x0001_0000))))
        packets += conversation.send(
            .server, ptpip(2, le(UInt32(1)) + [UInt8](repeating: 9, count: 16) + name + le(UInt32(0x0001_0000))))
        packets += events.open()
        packets += events.send(.client, ptpip(3, le(UInt32(1))))
        packets += events.send(.server, ptpip(4, []))
        packets += conversation.send(
            .client, ptpip(6, le(UInt32(1)) + le(UInt16(0x1002)) + le(UInt32(0)) + le(UInt32(1))))
        packets += conversation.send(.server, ptpip(7, le(UInt16(0x2001)) + le(UInt32(0))))
        packets += conversation.send(.client, ptpip(6, le(UInt32(1)) + le(UInt16(0x1001)) + le(UInt32(1))))
        packets += conversation.send(.server, ptpip(9, le(UInt32(1)) + le(UInt64(info.count))))
        packets += conversation.send(.server, ptpip(10, le(UInt32(1)) + info))
        packets += conversation.send(.server, ptpip(12, le(UInt32(1))))
        packets += conversation.send(.server, ptpip(7, le(UInt16(0x2001)) + le(UInt32(1))))
        packets += conversation.send(
            .client, ptpip(6, le(UInt32(2)) + le(UInt16(0x1016)) + le(UInt32(2)) + le(UInt32(0x500F))))
        packets += conversation.send(
            .client, ptpip(9, le(UInt32(2)) + le(UInt64(2))) + ptpip(12, le(UInt32(2)) + [0x90, 0x01]))
        packets += conversation.send(.server, ptpip(7, le(UInt16(0x2001)) + le(UInt32(2))))
        packets += events.send(.server, ptpip(8, le(UInt16(0x4002)) + le(UInt32(2)) + le(UInt32(0x101))))
        packets += conversation.close()
        return packets
    }

    /// Fujifilm: the handshake on 55740, then USB-style containers; an event on 55741.
    static func fujiPackets() -> [[UInt8]] {
        let host = TCPEndpoint(address: [10, 0, 0, 1], port: 50000)
        let camera = TCPEndpoint(address: [10, 0, 0, 2], port: 55740)
        var command = TCPConversation(client: host, server: camera)
        var events = TCPConversation(
            client: TCPEndpoint(address: [10, 0, 0, 1], port: 50001),
            server: TCPEndpoint(address: [10, 0, 0, 2], port: 55741))
        let name: [UInt8] = Array("h".utf16).flatMap { le($0) } + [0, 0]
        var packets = command.open()
        packets += command.send(.client, ptpip(1, le(UInt32(0x8F53_E4F2)) + [UInt8](repeating: 7, count: 16) + name))
        packets += command.send(.server, ptpip(2, le(UInt32(1)) + [UInt8](repeating: 9, count: 16) + name))
        packets += command.send(.client, container(1, 0x1004, 1, []))
        packets += command.send(.server, container(2, 0x1004, 1, le(UInt32(1)) + le(UInt32(0x0001_0001))))
        packets += command.send(.server, container(3, 0x2001, 1, []))
        packets += events.open()
        packets += events.send(.server, container(4, 0x4002, 0xFFFF_FFFF, le(UInt32(5))))
        return packets
    }

    /// A USB session: descriptors, OpenSession, GetStorageIDs with its data, a zero-length packet, an event.
    static func usbPackets() -> [USBMonPacket] {
        var packets: [USBMonPacket] = []
        var urb: UInt64 = 0xFFFF_8880_0000_0000
        func transfer(
            _ type: USBMonPacket.TransferType, _ endpoint: UInt8, out data: [UInt8] = [], in reply: [UInt8] = [],
            setup: [UInt8]? = nil
        ) {
            urb += 0x40
            let isIn = endpoint & 0x80 != 0
            packets.append(
                USBMonPacket(
                    id: urb, eventType: .submission, transferType: type, endpoint: endpoint, deviceAddress: 5,
                    busNumber: 1, setup: setup, dataFlag: isIn ? 0x3C : nil, status: -115,
                    length: UInt32(isIn ? 512 : data.count), data: data))
            packets.append(
                USBMonPacket(
                    id: urb, eventType: .completion, transferType: type, endpoint: endpoint, deviceAddress: 5,
                    busNumber: 1, dataFlag: isIn ? nil : 0x3E, status: 0,
                    length: UInt32(isIn ? reply.count : data.count), data: reply))
        }
        transfer(
            .control, 0x80, in: [18, 1, 0, 2, 0, 0, 0, 64, 0x6B, 0x1D, 4, 1, 0, 1, 0, 0, 0, 1],
            setup: [0x80, 6, 0, 1, 0, 0, 18, 0])
        transfer(.bulk, 0x02, out: container(1, 0x1002, 0, le(UInt32(1))))
        transfer(.bulk, 0x81, in: container(3, 0x2001, 0, []))
        transfer(.bulk, 0x02, out: container(1, 0x1004, 1, []))
        transfer(
            .bulk, 0x81,
            in: container(2, 0x1004, 1, le(UInt32(1)) + le(UInt32(0x0001_0001))) + container(3, 0x2001, 1, []))
        transfer(.bulk, 0x81, in: [])
        transfer(.interrupt, 0x83, in: container(4, 0x400D, 1, []))
        return packets
    }

    /// A usbmon packet as USBPcap would have captured it.
    static func usbPcap(_ packet: USBMonPacket) -> [UInt8] {
        le(UInt16(27)) + le(packet.id) + le(UInt32(0)) + le(UInt16(9)) + [packet.eventType == .submission ? 0 : 1]
            + le(packet.busNumber) + le(UInt16(packet.deviceAddress)) + [packet.endpoint, packet.transferType.rawValue]
            + le(UInt32(packet.data.count)) + packet.data
    }

    /// Fields in either byte order.
    struct Writer {
        var bigEndian: Bool
        var bytes: [UInt8] = []
        mutating func write<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian) { bytes += $0 }
        }
        mutating func write(bytes more: [UInt8]) { bytes += more }
    }

    /// A pcapng block: type, length, body padded to 4, length.
    static func block(_ type: UInt32, _ body: [UInt8], bigEndian: Bool) -> [UInt8] {
        let padded = body + [UInt8](repeating: 0, count: (4 - body.count % 4) % 4)
        var writer = Writer(bigEndian: bigEndian)
        writer.write(type)
        writer.write(UInt32(12 + padded.count))
        writer.write(bytes: padded)
        writer.write(UInt32(12 + padded.count))
        return writer.bytes
    }

    /// A one-interface pcapng file with nanosecond timestamps and a comment.
    static func pcapng(linkType: LinkType, _ packets: [[UInt8]], bigEndian: Bool) -> [UInt8] {
        var section = Writer(bigEndian: bigEndian)
        section.write(UInt32(0x1A2B_3C4D))
        section.write(UInt16(1))
        section.write(UInt16(0))
        section.write(Int64(-1))
        section.write(UInt16(1))
        section.write(UInt16(4))
        section.write(bytes: Array("seed".utf8))
        section.write(UInt32(0))
        var file = block(0x0A0D_0D0A, section.bytes, bigEndian: bigEndian)
        var interface = Writer(bigEndian: bigEndian)
        interface.write(linkType.rawValue)
        interface.write(UInt16(0))
        interface.write(UInt32(0))
        interface.write(UInt16(9))
        interface.write(UInt16(1))
        interface.write(bytes: [9, 0, 0, 0])
        interface.write(UInt32(0))
        file += block(1, interface.bytes, bigEndian: bigEndian)
        for (index, packet) in packets.enumerated() {
            let time = 1_700_000_000_000_000_000 + UInt64(index) * 1_000_000
            var body = Writer(bigEndian: bigEndian)
            body.write(UInt32(0))
            body.write(UInt32(truncatingIfNeeded: time >> 32))
            body.write(UInt32(truncatingIfNeeded: time))
            body.write(UInt32(packet.count))
            body.write(UInt32(packet.count))
            body.write(bytes: packet)
            file += block(6, body.bytes, bigEndian: bigEndian)
        }
        return file
    }

    static func pcap(linkType: LinkType, _ packets: [[UInt8]], bigEndian: Bool, nanoseconds: Bool = false) -> [UInt8] {
        var writer = Writer(bigEndian: bigEndian)
        writer.write(nanoseconds ? UInt32(0xA1B2_3C4D) : UInt32(0xA1B2_C3D4))
        writer.write(UInt16(2))
        writer.write(UInt16(4))
        writer.write(Int32(0))
        writer.write(UInt32(0))
        writer.write(UInt32(262_144))
        writer.write(UInt32(linkType.rawValue))
        for (index, packet) in packets.enumerated() {
            writer.write(UInt32(1_700_000_000 + index))
            writer.write(UInt32(index * 1000))
            writer.write(UInt32(packet.count))
            writer.write(UInt32(packet.count))
            writer.write(bytes: packet)
        }
        return writer.bytes
    }
}

/// The sequence numbers of one TCP connection as seed packets are made.
struct TCPConversation {
    enum Side { case client, server }
    let client: TCPEndpoint
    let server: TCPEndpoint
    var clientNext: UInt32 = 1001
    var serverNext: UInt32 = 5001

    init(client: TCPEndpoint, server: TCPEndpoint) { (self.client, self.server) = (client, server) }

    func open() -> [[UInt8]] {
        [
            TCPSegment(source: client, destination: server, sequenceNumber: 1000, acknowledgmentNumber: 0, flags: .syn)
                .ipv4Encoded(identification: 1),
            TCPSegment(
                source: server, destination: client, sequenceNumber: 5000, acknowledgmentNumber: 1001,
                flags: [.syn, .ack]
            ).ipv4Encoded(identification: 1),
        ]
    }

    mutating func send(_ side: Side, _ payload: [UInt8]) -> [[UInt8]] {
        let segment =
            side == .client
            ? TCPSegment(
                source: client, destination: server, sequenceNumber: clientNext, acknowledgmentNumber: serverNext,
                flags: [.ack, .psh], payload: payload[...])
            : TCPSegment(
                source: server, destination: client, sequenceNumber: serverNext, acknowledgmentNumber: clientNext,
                flags: [.ack, .psh], payload: payload[...])
        if side == .client { clientNext &+= UInt32(payload.count) } else { serverNext &+= UInt32(payload.count) }
        return [segment.ipv4Encoded(identification: 2)]
    }

    func close() -> [[UInt8]] {
        [
            TCPSegment(
                source: client, destination: server, sequenceNumber: clientNext, acknowledgmentNumber: serverNext,
                flags: [.fin, .ack]
            ).ipv4Encoded(identification: 3)
        ]
    }
}
