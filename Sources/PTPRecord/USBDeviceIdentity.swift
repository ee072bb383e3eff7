/// Who the recorded USB device is: where it sits on the bus and what its descriptors say. ``RecordingBulkPipe``
/// writes its device and configuration descriptors at the start of a recording, as the GET_DESCRIPTOR control
/// transfers a host makes when a device appears, so that Wireshark knows the PTP interface and its endpoints.
public struct USBDeviceIdentity: Hashable, Sendable {
    /// The bus number.
    public var busNumber: UInt16
    /// The device address on the bus.
    public var deviceAddress: UInt8
    /// idVendor.
    public var vendorID: UInt16
    /// idProduct.
    public var productID: UInt16
    /// bcdDevice.
    public var deviceRelease: UInt16
    /// The bulk IN endpoint's address (0x81 on most cameras).
    public var bulkInAddress: UInt8
    /// The bulk OUT endpoint's address.
    public var bulkOutAddress: UInt8
    /// The interrupt IN endpoint's address.
    public var interruptAddress: UInt8

    /// Creates an identity. The default vendor and product IDs are the ones the USB-IF set aside for testing
    /// (0x0000 would make Wireshark guess); a real device passes its own.
    public init(
        busNumber: UInt16 = 1, deviceAddress: UInt8 = 2, vendorID: UInt16 = 0x1D6B, productID: UInt16 = 0x0104,
        deviceRelease: UInt16 = 0x0100, bulkInAddress: UInt8 = 0x81, bulkOutAddress: UInt8 = 0x02,
        interruptAddress: UInt8 = 0x83
    ) {
        self.busNumber = busNumber
        self.deviceAddress = deviceAddress
        self.vendorID = vendorID
        self.productID = productID
        self.deviceRelease = deviceRelease
        self.bulkInAddress = bulkInAddress
        self.bulkOutAddress = bulkOutAddress
        self.interruptAddress = interruptAddress
    }

    /// The 18-byte device descriptor (USB 2.0 §9.6.1): class defined at the interface, one configuration.
    public var deviceDescriptor: [UInt8] {
        [
            18, 1, 0x00, 0x02,  // bLength, DEVICE, bcdUSB 2.00
            0, 0, 0, 64,  // class, subclass, protocol at the interface; bMaxPacketSize0 64
            UInt8(vendorID & 0xFF), UInt8(vendorID >> 8), UInt8(productID & 0xFF), UInt8(productID >> 8),
            UInt8(deviceRelease & 0xFF), UInt8(deviceRelease >> 8),
            0, 0, 0, 1,  // no strings, one configuration
        ]
    }

    /// The configuration descriptor with its PTP interface (class 6 Still Image, subclass 1, protocol 1 — what
    /// libgphoto2 probes) and three endpoints (USB 2.0 §9.6.3, §9.6.5, §9.6.6).
    public func configurationDescriptor(maxPacketSize: Int, interruptMaxPacketSize: Int) -> [UInt8] {
        func endpoint(_ address: UInt8, attributes: UInt8, size: Int, interval: UInt8) -> [UInt8] {
            [7, 5, address, attributes, UInt8(size & 0xFF), UInt8((size >> 8) & 0x07), interval]
        }
        let endpoints =
            endpoint(bulkInAddress, attributes: 2, size: maxPacketSize, interval: 0)
            + endpoint(bulkOutAddress, attributes: 2, size: maxPacketSize, interval: 0)
            + endpoint(interruptAddress, attributes: 3, size: interruptMaxPacketSize, interval: 7)
        let total = 9 + 9 + endpoints.count
        return [
            9, 2, UInt8(total & 0xFF), UInt8(total >> 8), 1, 1, 0, 0xC0, 1,  // one interface, self-powered
            9, 4, 0, 0, 3, 6, 1, 1, 0,  // interface 0: three endpoints, Still Image class 6/1/1
        ] + endpoints
    }
}
