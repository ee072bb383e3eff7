import WireFormat

/// The data phase of Canon EOS SetDevicePropValueEx (0x9110): a property code and its new value, prefixed by the
/// total size.
///
/// Layout (libgphoto2 `ptp.c` `ptp_canon_eos_setdevicepropvalueex` and `ptp_canon_eos_setdevicepropvalue`, which
/// packs most properties as a UINT32):
///
/// | field | type |
/// |---|---|
/// | size of the whole data phase | UINT32 |
/// | property code | UINT32 |
/// | value | size − 8 bytes |
public struct CanonEOSPropertyValue: PTPDataset, Hashable {
    /// The property code as sent.
    public var propertyCode: UInt32
    /// The value's bytes.
    public var value: [UInt8]

    /// A property set to a UINT32 (every enumerated EOS property).
    public init(property: DevicePropertyCode, uint32 value: UInt32) {
        var writer = WireWriter(byteOrder: .little)
        writer.write(value)
        self.init(property: property, value: writer.bytes)
    }

    /// A property set to raw bytes.
    public init(property: DevicePropertyCode, value: [UInt8]) {
        self.propertyCode = UInt32(property.rawValue)
        self.value = value
    }

    /// Reads the data phase; the size must match the bytes that follow.
    public init(from reader: inout WireReader, quirks: PTPQuirks) throws(WireError) {
        let sizeOffset = reader.offset
        let size = try reader.read(UInt32.self)
        guard size >= 8 else { throw WireError(.invalidValue, at: sizeOffset, "EOS property size \(size)") }
        propertyCode = try reader.read()
        guard let valueCount = Int(exactly: size - 8), valueCount <= reader.remainingCount else {
            throw WireError(.truncated, at: sizeOffset, "EOS property of \(size) bytes")
        }
        value = Array(try reader.readBytes(count: valueCount))
    }

    /// Writes the data phase.
    public func encode(into writer: inout WireWriter) {
        writer.write(UInt32(truncatingIfNeeded: 8 + value.count))
        writer.write(propertyCode)
        writer.write(bytes: value)
    }
}
