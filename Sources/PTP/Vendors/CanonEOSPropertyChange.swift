import WireFormat

/// A PropValueChanged (0xC189) record of Canon EOS GetEvent: a property's current value.
///
/// Payload layout (libgphoto2 `ptp-pack.c` `ptp_unpack_CANON_changes`, `PTP_ece_Prop_Subtype` 0x08 and
/// `PTP_ece_Prop_Val_Data` 0x0C):
///
/// | offset | field | type |
/// |---|---|---|
/// | 0x08 | property code | UINT32 |
/// | 0x0C | value | the rest of the record |
///
/// The record does not say the value's type: libgphoto2 keeps a per-property table (most EOS properties are UINT32
/// on the wire, strings such as the serial number are plain ASCII, ImageFormat is a structure). So the value stays
/// as bytes, with readers for the common shapes.
public struct CanonEOSPropertyChange: Hashable, Sendable {
    /// The property code as sent (EOS codes fit 16 bits; see ``property``).
    public var propertyCode: UInt32
    /// The value's bytes.
    public var value: [UInt8]

    /// Creates a record.
    public init(property: DevicePropertyCode, value: [UInt8]) {
        self.propertyCode = UInt32(property.rawValue)
        self.value = value
    }

    /// The property, when the code fits 16 bits.
    public var property: DevicePropertyCode? {
        UInt16(exactly: propertyCode).map(DevicePropertyCode.init(rawValue:))
    }

    /// The value's first four bytes as a little-endian UINT32 (how EOS sends enumerated properties such as
    /// ISOSpeed 0xD103 or CaptureDestination 0xD11C); `nil` when shorter.
    public var uint32Value: UInt32? {
        guard value.count >= 4 else { return nil }
        return value.prefix(4).reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The value as an ASCII C string (up to the first NUL), as EOS sends string properties.
    public var stringValue: String {
        String(decoding: value.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// Reads the payload.
    init(payload reader: inout WireReader) throws(WireError) {
        propertyCode = try reader.read()
        value = Array(reader.readRemaining())
    }

    /// Writes the payload.
    func encodePayload(into writer: inout WireWriter) {
        writer.write(propertyCode)
        writer.write(bytes: value)
    }
}
