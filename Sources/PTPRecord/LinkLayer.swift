import WireFormat

/// Takes the link-layer header off a captured packet to reach the IP packet inside, for the link types PTP/IP
/// captures come in: Ethernet (with 802.1Q/802.1ad tags), raw IP (101, 228, 229), Linux cooked captures v1 and v2
/// (113, 276, what `tcpdump -i any` writes), and BSD loopback (0).
enum LinkLayer {
    /// The IP packet inside `packet`, or `nil` when the packet carries something else (ARP, another protocol, a
    /// link type that is not IP).
    static func ipPacket(in packet: CapturedPacket) throws(WireError) -> ArraySlice<UInt8>? {
        let bytes = packet.data[...]
        var reader = WireReader(bytes, byteOrder: .big)
        let etherType: UInt16
        switch packet.linkType {
        case .raw, .ipv4, .ipv6:
            return bytes
        case .ethernet:
            try reader.skip(12)
            var type = try reader.read(UInt16.self)
            var tags = 0
            while (type == 0x8100 || type == 0x88A8) && tags < 2 {
                try reader.skip(2)
                type = try reader.read(UInt16.self)
                tags += 1
            }
            etherType = type
        case .linuxSLL:
            try reader.skip(14)
            etherType = try reader.read(UInt16.self)
        case .linuxSLL2:
            etherType = try reader.read(UInt16.self)
            try reader.skip(18)
        case LinkType(rawValue: 0):
            // BSD loopback: a 4-byte address family in the capturing host's byte order.
            var family = WireReader(bytes, byteOrder: packet.byteOrder)
            let value = try family.read(UInt32.self)
            try reader.skip(4)
            switch value {
            case 2: return reader.remainingBytes
            case 24, 28, 30: return reader.remainingBytes
            default: return nil
            }
        default:
            return nil
        }
        guard etherType == 0x0800 || etherType == 0x86DD else { return nil }
        return reader.remainingBytes
    }
}
