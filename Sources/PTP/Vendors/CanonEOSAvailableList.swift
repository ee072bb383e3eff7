import WireFormat

/// An AvailListChanged (0xC18A) record of Canon EOS GetEvent: the values a property may take now.
///
/// Payload layout (libgphoto2 `ptp-pack.c` `ptp_unpack_CANON_changes`, `PTP_ece_Prop_Subtype` 0x08,
/// `PTP_ece_Prop_Desc_Type` 0x0C, `PTP_ece_Prop_Desc_Count` 0x10, `PTP_ece_Prop_Desc_Data` 0x14):
///
/// | offset | field | type |
/// |---|---|---|
/// | 0x08 | property code | UINT32 |
/// | 0x0C | list type (3: each value in a 4-byte slot) | UINT32 |
/// | 0x10 | number of values | UINT32 |
/// | 0x14 | values | the rest of the record |
///
/// libgphoto2 decodes list type 3 only, one value per 4-byte slot whatever the property's data type, and special-
/// cases the ImageFormat properties (0xD120–0xD122), whose values are variable-length structures. The values stay
/// as bytes here; ``uint32Values`` reads the common list-type-3 shape.
public struct CanonEOSAvailableList: Hashable, Sendable {
    /// libgphoto2's name for list type 3 ("propxtype 3"): values in 4-byte slots.
    public static let fourByteSlots: UInt32 = 3

    /// The property code as sent.
    public var propertyCode: UInt32
    /// The list type (see ``fourByteSlots``).
    public var listType: UInt32
    /// The number of values the camera announced.
    public var count: UInt32
    /// The values' bytes.
    public var values: [UInt8]

    /// Creates a record.
    public init(property: DevicePropertyCode, listType: UInt32, count: UInt32, values: [UInt8]) {
        self.propertyCode = UInt32(property.rawValue)
        self.listType = listType
        self.count = count
        self.values = values
    }

    /// A list-type-3 record of UINT32 values.
    public init(property: DevicePropertyCode, uint32Values: [UInt32]) {
        var writer = WireWriter(byteOrder: .little)
        for value in uint32Values { writer.write(value) }
        self.init(
            property: property, listType: Self.fourByteSlots, count: UInt32(truncatingIfNeeded: uint32Values.count),
            values: writer.bytes)
    }

    /// The property, when the code fits 16 bits.
    public var property: DevicePropertyCode? {
        UInt16(exactly: propertyCode).map(DevicePropertyCode.init(rawValue:))
    }

    /// The values as UINT32 slots, when the list is of type 3 and holds exactly ``count`` slots; `nil` otherwise
    /// (an ImageFormat structure list, or a count that does not match the bytes).
    public var uint32Values: [UInt32]? {
        guard listType == Self.fourByteSlots, let slots = Int(exactly: count),
            slots.multipliedReportingOverflow(
                by: 4) == (values.count, false)
        else { return nil }
        var reader = WireReader(values, byteOrder: .little)
        var result: [UInt32] = []
        result.reserveCapacity(slots)
        for _ in 0..<slots {
            guard let value = try? reader.read(UInt32.self) else { return nil }
            result.append(value)
        }
        return result
    }

    /// Reads the payload.
    init(payload reader: inout WireReader) throws(WireError) {
        propertyCode = try reader.read()
        listType = try reader.read()
        count = try reader.read()
        values = Array(reader.readRemaining())
    }

    /// Writes the payload.
    func encodePayload(into writer: inout WireWriter) {
        writer.write(propertyCode)
        writer.write(listType)
        writer.write(count)
        writer.write(bytes: values)
    }
}
