import WireFormat

/// Sony's extended device info: the data phase of Sony GetSDIOExtDeviceInfo (0x9202), listing the vendor
/// properties and controls the camera exposes through its own property operations.
///
/// Layout (libgphoto2 `ptp_sony_get_vendorpropcodes`; real dump: Sony ILCE-7SM3, `Fixtures/ptp-real`):
///
/// | field | type |
/// |---|---|
/// | version | UINT16 (0xC8 = 200, 0x12C = 300) |
/// | properties | AUINT16 |
/// | controls | AUINT16, present from version 200 on |
public struct SonyExtDeviceInfo: PTPDataset, Hashable {
    /// The protocol version the camera answered with.
    public var version: UInt16
    /// The properties readable through Sony GetAllDevicePropData.
    public var properties: [DevicePropertyCode]
    /// The controls (buttons) settable with SetControlDeviceB; `nil` below version 200.
    public var controls: [DevicePropertyCode]?

    /// Creates the dataset; `controls` must be present exactly when `version` is 200 or more.
    public init(version: UInt16, properties: [DevicePropertyCode], controls: [DevicePropertyCode]?) {
        precondition((version >= 200) == (controls != nil), "Sony controls list is present from version 200 on")
        (self.version, self.properties, self.controls) = (version, properties, controls)
    }

    /// Reads the dataset.
    public init(from reader: inout WireReader, quirks: PTPQuirks) throws(WireError) {
        version = try reader.read()
        properties = try reader.readCodeArray(of: DevicePropertyCode.self)
        controls = version >= 200 ? try reader.readCodeArray(of: DevicePropertyCode.self) : nil
    }

    /// Writes the dataset.
    public func encode(into writer: inout WireWriter) {
        writer.write(version)
        writer.writeCodeArray(properties)
        if let controls { writer.writeCodeArray(controls) }
    }
}
