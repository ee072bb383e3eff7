/// One alternate setting of an interface, as its descriptors describe it (USB 2.0 §9.6.5): the values discovery
/// needs, copied out of libusb's `libusb_interface_descriptor`.
public struct USBInterfaceDescription: Hashable, Sendable {
    /// bInterfaceNumber.
    public var number: UInt8
    /// bAlternateSetting.
    public var alternateSetting: UInt8
    /// bInterfaceClass (6 still image, 0xFF vendor-specific).
    public var interfaceClass: UInt8
    /// bInterfaceSubClass.
    public var interfaceSubclass: UInt8
    /// bInterfaceProtocol.
    public var interfaceProtocol: UInt8
    /// The interface's endpoints.
    public var endpoints: [USBEndpointDescription]

    /// Creates a description.
    public init(
        number: UInt8, alternateSetting: UInt8 = 0, interfaceClass: UInt8, interfaceSubclass: UInt8,
        interfaceProtocol: UInt8, endpoints: [USBEndpointDescription]
    ) {
        self.number = number
        self.alternateSetting = alternateSetting
        self.interfaceClass = interfaceClass
        self.interfaceSubclass = interfaceSubclass
        self.interfaceProtocol = interfaceProtocol
        self.endpoints = endpoints
    }
}

/// An endpoint descriptor's essentials (USB 2.0 §9.6.6).
public struct USBEndpointDescription: Hashable, Sendable, CustomStringConvertible {
    /// bmAttributes bits 0–1.
    public enum TransferType: UInt8, Hashable, Sendable {
        /// Control.
        case control = 0
        /// Isochronous.
        case isochronous = 1
        /// Bulk.
        case bulk = 2
        /// Interrupt.
        case interrupt = 3
    }

    /// bEndpointAddress: the number, with bit 7 set for IN.
    public var address: UInt8
    /// The transfer type.
    public var transferType: TransferType
    /// wMaxPacketSize bits 0–10: 64 (full speed), 512 (high speed) or 1024 (super speed) for bulk endpoints.
    public var maxPacketSize: Int

    /// Creates a description; `maxPacketSize` is a raw wMaxPacketSize, whose high-bandwidth multiplier bits
    /// (11–12) are dropped.
    public init(address: UInt8, transferType: TransferType, maxPacketSize: Int) {
        self.address = address
        self.transferType = transferType
        self.maxPacketSize = maxPacketSize & 0x7FF
    }

    /// Creates a description from bmAttributes.
    public init(address: UInt8, attributes: UInt8, maxPacketSize: UInt16) {
        self.init(
            address: address, transferType: TransferType(rawValue: attributes & 0x03) ?? .control,
            maxPacketSize: Int(maxPacketSize))
    }

    /// Whether data flows to the host.
    public var isIn: Bool { address & 0x80 != 0 }

    /// E.g. `bulk IN 0x81 (512 bytes)`.
    public var description: String {
        "\(transferType) \(isIn ? "IN" : "OUT") \(hexByte(address)) (\(maxPacketSize) bytes)"
    }
}
