import WireFormat

/// The DeviceInfo dataset: what a device is and what it supports; the data phase of GetDeviceInfo (0x1001).
///
/// ISO 15740 §5.5.1 (libgphoto2 `ptp_unpack_DI`):
///
/// | field | type |
/// |---|---|
/// | StandardVersion | UINT16 (100 = 1.00) |
/// | VendorExtensionID | UINT32 |
/// | VendorExtensionVersion | UINT16 |
/// | VendorExtensionDesc | string |
/// | FunctionalMode | UINT16 |
/// | OperationsSupported | AUINT16 |
/// | EventsSupported | AUINT16 |
/// | DevicePropertiesSupported | AUINT16 |
/// | CaptureFormats | AUINT16 |
/// | ImageFormats | AUINT16 |
/// | Manufacturer, Model, DeviceVersion, SerialNumber | string × 4 |
public struct DeviceInfo: PTPDataset, Hashable {
    /// The PTP version the device implements, ×100 (100 = 1.00, 110 = 1.1).
    public var standardVersion: UInt16
    /// The vendor extension; see ``cameraVendor`` for the vendor whose codes the device actually speaks.
    public var vendorExtensionID: VendorExtensionID
    /// The vendor extension's version, ×100.
    public var vendorExtensionVersion: UInt16
    /// A free-form description of the extensions (`"Sony PTP Extensions"`, `"fujifilm.co.jp: 1.0; "`).
    public var vendorExtensionDesc: String
    /// The functional mode (0 standard, 1 sleep; vendors add values).
    public var functionalMode: UInt16
    /// The operations the device accepts.
    public var operationsSupported: [OperationCode]
    /// The events the device may send.
    public var eventsSupported: [EventCode]
    /// The device properties it describes.
    public var devicePropertiesSupported: [DevicePropertyCode]
    /// The formats InitiateCapture can produce.
    public var captureFormats: [ObjectFormatCode]
    /// The formats of objects on the device.
    public var imageFormats: [ObjectFormatCode]
    /// The maker, e.g. `"Canon Inc."`.
    public var manufacturer: String
    /// The model, e.g. `"Canon EOS 60D"`.
    public var model: String
    /// The firmware version string.
    public var deviceVersion: String
    /// The serial number (free form; may be empty or hold control characters).
    public var serialNumber: String

    /// Creates a DeviceInfo; every field but the identity strings defaults to empty or zero.
    public init(
        standardVersion: UInt16 = 100, vendorExtensionID: VendorExtensionID = VendorExtensionID(rawValue: 0),
        vendorExtensionVersion: UInt16 = 0, vendorExtensionDesc: String = "", functionalMode: UInt16 = 0,
        operationsSupported: [OperationCode] = [], eventsSupported: [EventCode] = [],
        devicePropertiesSupported: [DevicePropertyCode] = [], captureFormats: [ObjectFormatCode] = [],
        imageFormats: [ObjectFormatCode] = [], manufacturer: String = "", model: String = "",
        deviceVersion: String = "", serialNumber: String = ""
    ) {
        self.standardVersion = standardVersion
        self.vendorExtensionID = vendorExtensionID
        self.vendorExtensionVersion = vendorExtensionVersion
        self.vendorExtensionDesc = vendorExtensionDesc
        self.functionalMode = functionalMode
        self.operationsSupported = operationsSupported
        self.eventsSupported = eventsSupported
        self.devicePropertiesSupported = devicePropertiesSupported
        self.captureFormats = captureFormats
        self.imageFormats = imageFormats
        self.manufacturer = manufacturer
        self.model = model
        self.deviceVersion = deviceVersion
        self.serialNumber = serialNumber
    }

    /// Reads DeviceInfo.
    public init(from reader: inout WireReader, quirks: PTPQuirks) throws(WireError) {
        standardVersion = try reader.read()
        vendorExtensionID = VendorExtensionID(rawValue: try reader.read())
        vendorExtensionVersion = try reader.read()
        vendorExtensionDesc = try PTPString.read(from: &reader, quirks: quirks)
        functionalMode = try reader.read()
        operationsSupported = try reader.readCodeArray(of: OperationCode.self)
        eventsSupported = try reader.readCodeArray(of: EventCode.self)
        devicePropertiesSupported = try reader.readCodeArray(of: DevicePropertyCode.self)
        captureFormats = try reader.readCodeArray(of: ObjectFormatCode.self)
        imageFormats = try reader.readCodeArray(of: ObjectFormatCode.self)
        manufacturer = try PTPString.read(from: &reader, quirks: quirks)
        model = try PTPString.read(from: &reader, quirks: quirks)
        deviceVersion = try PTPString.read(from: &reader, quirks: quirks)
        serialNumber = try PTPString.read(from: &reader, quirks: quirks)
    }

    /// Writes DeviceInfo.
    public func encode(into writer: inout WireWriter) {
        writer.write(standardVersion)
        writer.write(vendorExtensionID.rawValue)
        writer.write(vendorExtensionVersion)
        PTPString.write(vendorExtensionDesc, into: &writer)
        writer.write(functionalMode)
        writer.writeCodeArray(operationsSupported)
        writer.writeCodeArray(eventsSupported)
        writer.writeCodeArray(devicePropertiesSupported)
        writer.writeCodeArray(captureFormats)
        writer.writeCodeArray(imageFormats)
        PTPString.write(manufacturer, into: &writer)
        PTPString.write(model, into: &writer)
        PTPString.write(deviceVersion, into: &writer)
        PTPString.write(serialNumber, into: &writer)
    }

    /// Whether the device lists `operation` in OperationsSupported.
    public func supports(_ operation: OperationCode) -> Bool { operationsSupported.contains(operation) }

    /// The vendor whose extension codes the device speaks.
    ///
    /// A camera-maker ID (Nikon, Canon, Sony, Fujifilm, Panasonic, Samsung, Pentax, Kodak) is taken as is. Many
    /// cameras report Microsoft's 0x06 or 0xFFFFFFFF instead (the Canon EOS 60D, PowerShot G5 X and Fujifilm
    /// FinePix S4200 in `Fixtures/ptp-real`, the Nikon Z 8 over PTP/IP), so for any other ID the Manufacturer
    /// string decides, as libgphoto2 does; a device nobody recognises keeps its reported ID.
    public var cameraVendor: VendorExtensionID {
        let makers: [VendorExtensionID] = [.nikon, .canon, .sony, .fujifilm, .panasonic, .samsung, .pentax, .kodak]
        if makers.contains(vendorExtensionID) { return vendorExtensionID }
        let maker = manufacturer.lowercased()
        let byName: [(String, VendorExtensionID)] = [
            ("nikon", .nikon), ("canon", .canon), ("sony", .sony), ("fujifilm", .fujifilm),
            ("panasonic", .panasonic), ("samsung", .samsung), ("pentax", .pentax), ("ricoh", .pentax),
            ("kodak", .kodak),
        ]
        for (name, vendor) in byName where maker.contains(name) { return vendor }
        return vendorExtensionID
    }
}
