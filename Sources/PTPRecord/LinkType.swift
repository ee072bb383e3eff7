/// A capture's link-layer header type (tcpdump.org `LINKTYPE_*`, the pcap and pcapng "LinkType" field): how to read
/// the bytes of each packet.
///
/// An open set: a file with a link type rawcap does not decode still reads; its packets are skipped.
public struct LinkType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 16-bit LinkType (pcap stores it in 32 bits, with FCS flags in the high bits).
    public let rawValue: UInt16

    /// Wraps any value.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 1, `LINKTYPE_ETHERNET`: Ethernet II frames (with 802.1Q tags possibly).
    public static let ethernet = LinkType(rawValue: 1)
    /// 101, `LINKTYPE_RAW`: a bare IPv4 or IPv6 packet, told apart by its version nibble.
    public static let raw = LinkType(rawValue: 101)
    /// 113, `LINKTYPE_LINUX_SLL`: Linux "cooked" capture (any-interface captures), 16-byte header.
    public static let linuxSLL = LinkType(rawValue: 113)
    /// 189, `LINKTYPE_USB_LINUX`: Linux usbmon with the 48-byte header.
    public static let usbLinux = LinkType(rawValue: 189)
    /// 220, `LINKTYPE_USB_LINUX_MMAPPED`: Linux usbmon with the 64-byte header (what rawcap records).
    public static let usbLinuxMmapped = LinkType(rawValue: 220)
    /// 228, `LINKTYPE_IPV4`: a bare IPv4 packet.
    public static let ipv4 = LinkType(rawValue: 228)
    /// 229, `LINKTYPE_IPV6`: a bare IPv6 packet.
    public static let ipv6 = LinkType(rawValue: 229)
    /// 249, `LINKTYPE_USBPCAP`: Windows USBPcap.
    public static let usbPcap = LinkType(rawValue: 249)
    /// 276, `LINKTYPE_LINUX_SLL2`: Linux "cooked" capture v2, 20-byte header.
    public static let linuxSLL2 = LinkType(rawValue: 276)

    /// Whether packets of this type carry USB transfers.
    public var isUSB: Bool { self == .usbLinux || self == .usbLinuxMmapped || self == .usbPcap }

    /// The `LINKTYPE_` name without the prefix, or `LinkType(n)`.
    public var description: String {
        switch rawValue {
        case 1: "ETHERNET"
        case 101: "RAW"
        case 113: "LINUX_SLL"
        case 189: "USB_LINUX"
        case 220: "USB_LINUX_MMAPPED"
        case 228: "IPV4"
        case 229: "IPV6"
        case 249: "USBPCAP"
        case 276: "LINUX_SLL2"
        default: "LinkType(\(rawValue))"
        }
    }
}
