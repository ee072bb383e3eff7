/// Which USB camera to use: the only one, the one at a bus and address, or the one with a serial number.
///
/// The text forms are those of rawcap's `--camera` option: `usb`, `usb:BUS:ADDR` (as `lsusb` prints them, with or
/// without leading zeros: `usb:1:2`, `usb:001:002`), and `serial:SN`.
public enum USBCameraSelector: Hashable, Sendable, CustomStringConvertible {
    /// The only camera connected; more than one is an error that lists them.
    case onlyCamera
    /// The camera at this bus number and device address.
    case busAndAddress(bus: UInt8, address: UInt8)
    /// The camera whose USB serial number (the SerialNumber string descriptor) is this.
    case serialNumber(String)

    /// Parses `usb`, `usb:BUS:ADDR` or `serial:SN`; `nil` for anything else.
    public init?(_ text: String) {
        if text == "usb" {
            self = .onlyCamera
            return
        }
        if text.hasPrefix("serial:") {
            let serial = String(text.dropFirst("serial:".count))
            guard !serial.isEmpty else { return nil }
            self = .serialNumber(serial)
            return
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "usb", let bus = UInt8(parts[1]), let address = UInt8(parts[2]),
            bus > 0, address > 0
        else { return nil }
        self = .busAndAddress(bus: bus, address: address)
    }

    /// The text form: `usb`, `usb:001:002`, `serial:SN`.
    public var description: String {
        switch self {
        case .onlyCamera: "usb"
        case .busAndAddress(let bus, let address): "usb:\(threeDigits(bus)):\(threeDigits(address))"
        case .serialNumber(let serial): "serial:\(serial)"
        }
    }

    /// Picks the camera this selector names among `cameras`.
    ///
    /// - Throws: ``USBCameraError`` ``USBCameraError/Code/noCamera`` when there is none at all,
    ///   ``USBCameraError/Code/notFound`` when none matches, ``USBCameraError/Code/ambiguous`` when several do.
    public func select(from cameras: [USBCameraInfo]) throws(USBCameraError) -> USBCameraInfo {
        guard !cameras.isEmpty else { throw USBCameraError(.noCamera) }
        let matches: [USBCameraInfo]
        switch self {
        case .onlyCamera:
            matches = cameras
        case .busAndAddress(let bus, let address):
            matches = cameras.filter { $0.busNumber == bus && $0.deviceAddress == address }
        case .serialNumber(let serial):
            matches = cameras.filter { $0.serialNumber == serial }
        }
        guard let first = matches.first else { throw USBCameraError(.notFound, selector: self, candidates: cameras) }
        guard matches.count == 1 else { throw USBCameraError(.ambiguous, selector: self, candidates: matches) }
        return first
    }
}
