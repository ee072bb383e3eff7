import PTPRecord
import WireFormat

/// Writes captures in the formats and link types rawcap reads but does not write itself, from packets read out of
/// its own recordings: pcap in both byte orders and resolutions, big-endian pcapng with extra interfaces, IP packets
/// wrapped in Ethernet or Linux cooked headers, usbmon with the 48-byte header, USBPcap.
enum CaptureWriter {
    /// All packets of a capture.
    static func packets(_ bytes: [UInt8]) throws -> [CapturedPacket] {
        var reader = try CaptureFileReader(source: MemoryCaptureSource(bytes))
        var packets: [CapturedPacket] = []
        while let packet = try reader.next() { packets.append(packet) }
        return packets
    }

    /// A pcap file.
    static func pcap(
        _ packets: [(UInt64, [UInt8])], linkType: LinkType, byteOrder: ByteOrder = .little, nanoseconds: Bool = false,
        snapLength: UInt32 = 262_144, cutTo cut: Int? = nil
    ) -> [UInt8] {
        var writer = WireWriter(byteOrder: byteOrder)
        writer.write(nanoseconds ? UInt32(0xA1B2_3C4D) : UInt32(0xA1B2_C3D4))
        writer.write(UInt16(2))
        writer.write(UInt16(4))
        writer.write(Int32(0))
        writer.write(UInt32(0))
        writer.write(snapLength)
        writer.write(UInt32(linkType.rawValue))
        for (time, data) in packets {
            let captured = cut.map { Array(data.prefix($0)) } ?? data
            writer.write(UInt32(time / 1_000_000_000))
            writer.write(UInt32(nanoseconds ? time % 1_000_000_000 : time % 1_000_000_000 / 1000))
            writer.write(UInt32(captured.count))
            writer.write(UInt32(data.count))
            writer.write(bytes: captured)
        }
        return writer.bytes
    }

    /// One pcapng block in `byteOrder`.
    static func block(_ type: UInt32, _ body: [UInt8], byteOrder: ByteOrder) -> [UInt8] {
        var writer = WireWriter(byteOrder: byteOrder)
        writer.write(type)
        writer.write(UInt32(12 + body.count + (4 - body.count % 4) % 4))
        writer.write(bytes: body)
        writer.write(bytes: [UInt8](repeating: 0, count: (4 - body.count % 4) % 4))
        writer.write(UInt32(12 + body.count + (4 - body.count % 4) % 4))
        return writer.bytes
    }

    /// A pcapng file in `byteOrder` with one interface per entry of `linkTypes` (microsecond timestamps, the
    /// default resolution) and the packets on the given interfaces.
    static func pcapng(
        _ packets: [(interface: Int, time: UInt64, data: [UInt8])], linkTypes: [LinkType], byteOrder: ByteOrder,
        snapLength: UInt32 = 0
    ) -> [UInt8] {
        var section = WireWriter(byteOrder: byteOrder)
        section.write(UInt32(0x1A2B_3C4D))
        section.write(UInt16(1))
        section.write(UInt16(0))
        section.write(Int64(-1))
        var file = block(0x0A0D_0D0A, section.bytes, byteOrder: byteOrder)
        for linkType in linkTypes {
            var body = WireWriter(byteOrder: byteOrder)
            body.write(linkType.rawValue)
            body.write(UInt16(0))
            body.write(snapLength)
            file += block(1, body.bytes, byteOrder: byteOrder)
        }
        for packet in packets {
            let micro = packet.time / 1000
            var body = WireWriter(byteOrder: byteOrder)
            body.write(UInt32(packet.interface))
            body.write(UInt32(truncatingIfNeeded: micro >> 32))
            body.write(UInt32(truncatingIfNeeded: micro))
            body.write(UInt32(packet.data.count))
            body.write(UInt32(packet.data.count))
            body.write(bytes: packet.data)
            file += block(6, body.bytes, byteOrder: byteOrder)
        }
        return file
    }

    /// An IPv4 packet in an Ethernet II frame, with an 802.1Q tag when `vlan`.
    static func ethernet(_ ip: [UInt8], vlan: Bool = false) -> [UInt8] {
        var frame: [UInt8] = [0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1]
        if vlan { frame += [0x81, 0x00, 0x00, 0x05] }
        return frame + [0x08, 0x00] + ip
    }

    /// An IPv4 packet in a Linux cooked capture v1 header.
    static func sll(_ ip: [UInt8]) -> [UInt8] {
        [0, 0, 0, 1, 0, 6, 0x02, 0, 0, 0, 0, 1, 0, 0, 0x08, 0x00] + ip
    }

    /// An IPv4 packet in a Linux cooked capture v2 header.
    static func sll2(_ ip: [UInt8]) -> [UInt8] {
        [0x08, 0x00, 0, 0, 0, 0, 0, 2, 0, 1, 0, 6, 0x02, 0, 0, 0, 0, 1, 0, 0] + ip
    }

    /// A usbmon packet with the 64-byte header turned into `byteOrder`, or cut to the 48-byte header.
    static func usbmon(
        _ data: [UInt8], from order: ByteOrder, to target: ByteOrder, mmapped: Bool, cutTo cut: Int? = nil
    ) throws -> [UInt8] {
        var packet = try USBMonPacket(data[...], mmapped: true, byteOrder: order)
        if let cut { packet.data = Array(packet.data.prefix(cut)) }
        let encoded = packet.mmappedEncoded(byteOrder: target)
        guard !mmapped else { return encoded }
        return Array(encoded[0..<48]) + Array(encoded[64...])
    }

    /// A usbmon packet as USBPcap would have captured the same transfer.
    static func usbPcap(_ data: [UInt8]) throws -> [UInt8]? {
        let packet = try USBMonPacket(data[...], mmapped: true, byteOrder: .little)
        guard packet.transferType != .control else { return nil }
        var writer = WireWriter(byteOrder: .little)
        writer.write(UInt16(27))
        writer.write(packet.id)
        writer.write(UInt32(0))
        writer.write(UInt16(0x0009))  // URB_FUNCTION_BULK_OR_INTERRUPT_TRANSFER
        writer.write(UInt8(packet.eventType == .submission ? 0 : 1))
        writer.write(packet.busNumber)
        writer.write(UInt16(packet.deviceAddress))
        writer.write(packet.endpoint)
        writer.write(packet.transferType.rawValue)
        writer.write(UInt32(packet.data.count))
        writer.write(bytes: packet.data)
        return writer.bytes
    }
}
