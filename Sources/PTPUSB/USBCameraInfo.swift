/// A camera found on USB: where it is, what it says it is, its PTP interface, and whether rawcap can open it.
public struct USBCameraInfo: Hashable, Sendable, CustomStringConvertible {
    /// The bus number (the BBB of /dev/bus/usb/BBB/DDD).
    public var busNumber: UInt8
    /// The device address on the bus (DDD); it changes each time the camera is plugged in.
    public var deviceAddress: UInt8
    /// The ports from the root hub down to the camera (libusb `libusb_get_port_numbers`); stable while the cable
    /// stays in the same socket.
    public var portNumbers: [UInt8]
    /// idVendor.
    public var vendorID: UInt16
    /// idProduct.
    public var productID: UInt16
    /// The Manufacturer string descriptor, when readable.
    public var manufacturer: String?
    /// The Product string descriptor, when readable.
    public var product: String?
    /// The SerialNumber string descriptor, when readable.
    public var serialNumber: String?
    /// The PTP interface.
    public var interface: USBCameraInterface
    /// Whether the camera can be opened.
    public var access: USBCameraAccess

    /// Creates a description.
    public init(
        busNumber: UInt8, deviceAddress: UInt8, portNumbers: [UInt8], vendorID: UInt16, productID: UInt16,
        manufacturer: String? = nil, product: String? = nil, serialNumber: String? = nil,
        interface: USBCameraInterface, access: USBCameraAccess = .notChecked
    ) {
        self.busNumber = busNumber
        self.deviceAddress = deviceAddress
        self.portNumbers = portNumbers
        self.vendorID = vendorID
        self.productID = productID
        self.manufacturer = manufacturer
        self.product = product
        self.serialNumber = serialNumber
        self.interface = interface
        self.access = access
    }

    /// The kernel's name for the device's position, e.g. `1-4.2` (bus 1, root port 4, hub port 2); the folder
    /// under /sys/bus/usb/devices.
    public var portPath: String {
        "\(busNumber)-" + (portNumbers.isEmpty ? "0" : portNumbers.map(String.init).joined(separator: "."))
    }

    /// The device node, e.g. `/dev/bus/usb/001/002`.
    public var devicePath: String { "/dev/bus/usb/\(threeDigits(busNumber))/\(threeDigits(deviceAddress))" }

    /// The `--camera` value that selects this camera: `usb:001:002`.
    public var selector: String { "usb:\(threeDigits(busNumber)):\(threeDigits(deviceAddress))" }

    /// The maker from the vendor table, else the Manufacturer string.
    public var makerName: String? { KnownCameraVendors.name(of: vendorID) ?? manufacturer }

    /// A one-line name: the Product string, prefixed with the Manufacturer unless it already names the maker
    /// ("Canon EOS R5", "Nikon Corp. Z 8"); the maker and the IDs when the strings cannot be read.
    public var displayName: String {
        guard let product, !product.isEmpty else {
            return "\(makerName ?? "USB camera") \(hex4(vendorID)):\(hex4(productID))"
        }
        guard let manufacturer, let makerWord = manufacturer.split(separator: " ").first,
            !product.lowercased().hasPrefix(makerWord.lowercased())
        else { return product }
        return "\(manufacturer) \(product)"
    }

    /// E.g. `usb:001:002  Canon EOS R5 (04a9:32f4), serial 0123, port 1-4 — permission denied`.
    public var description: String {
        var text = "\(selector)  \(displayName) (\(hex4(vendorID)):\(hex4(productID)))"
        if let serialNumber, !serialNumber.isEmpty { text += ", serial \(serialNumber)" }
        text += ", port \(portPath)"
        if access != .available && access != .notChecked { text += " — \(access)" }
        return text
    }
}

func threeDigits(_ value: UInt8) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, 3 - digits.count)) + digits
}

func hex4(_ value: UInt16) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
