import WireFormat

/// The DevicePropDesc dataset: a device property's type, access, default, current value and allowed values; the
/// data phase of GetDevicePropDesc (0x1014).
///
/// ISO 15740 §13.3.3 (libgphoto2 `ptp_unpack_DPD`):
///
/// | field | type |
/// |---|---|
/// | DevicePropertyCode | UINT16 |
/// | DataType | UINT16 (``DataTypeCode``) |
/// | GetSet | UINT8 (0 get, 1 get/set) |
/// | FactoryDefaultValue | DataType |
/// | CurrentValue | DataType |
/// | FormFlag | UINT8 (0 none, 1 range, 2 enumeration) |
/// | range form | minimum, maximum, step: DataType × 3 |
/// | enumeration form | NumberOfValues UINT16, then that many DataType values |
///
/// The Canon EOS 60D's BatteryLevel needs ``PTPQuirks/wideEightBitEnumerations``.
public struct DevicePropDesc: PTPDataset, Hashable {
    /// The values a property may take.
    public enum Form: Hashable, Sendable {
        /// No constraint (FormFlag 0).
        case none
        /// A range (FormFlag 1).
        case range(minimum: PTPValue, maximum: PTPValue, step: PTPValue)
        /// A list of allowed values (FormFlag 2).
        case enumeration([PTPValue])
    }

    /// Which property this describes.
    public var propertyCode: DevicePropertyCode
    /// The type of every value in the description.
    public var dataType: DataTypeCode
    /// The raw GetSet byte: 0 read-only, 1 read-write (see ``isSettable``).
    public var getSet: UInt8
    /// The factory default.
    public var factoryDefaultValue: PTPValue
    /// The current value.
    public var currentValue: PTPValue
    /// The allowed values.
    public var form: Form

    /// Creates a description. Every value must be of `dataType` (a programmer error otherwise).
    public init(
        propertyCode: DevicePropertyCode, dataType: DataTypeCode, getSet: UInt8 = 1, factoryDefaultValue: PTPValue,
        currentValue: PTPValue, form: Form = .none
    ) {
        precondition(factoryDefaultValue.dataType == dataType, "factory default is not a \(dataType)")
        precondition(currentValue.dataType == dataType, "current value is not a \(dataType)")
        self.propertyCode = propertyCode
        self.dataType = dataType
        self.getSet = getSet
        self.factoryDefaultValue = factoryDefaultValue
        self.currentValue = currentValue
        self.form = form
    }

    /// Whether the host may set the property (GetSet is not 0).
    public var isSettable: Bool { getSet != 0 }

    /// Reads DevicePropDesc.
    ///
    /// - Throws: ``WireFormat/WireError/Code/invalidValue`` for an unknown data type or FormFlag, and the usual
    ///   truncation and limit errors.
    public init(from reader: inout WireReader, quirks: PTPQuirks) throws(WireError) {
        propertyCode = DevicePropertyCode(rawValue: try reader.read())
        let type = DataTypeCode(rawValue: try reader.read())
        dataType = type
        getSet = try reader.read()
        factoryDefaultValue = try PTPValue.read(type, from: &reader, quirks: quirks)
        currentValue = try PTPValue.read(type, from: &reader, quirks: quirks)
        let flagOffset = reader.offset
        switch try reader.read(UInt8.self) {
        case 0:
            form = .none
        case 1:
            form = .range(
                minimum: try PTPValue.read(type, from: &reader, quirks: quirks),
                maximum: try PTPValue.read(type, from: &reader, quirks: quirks),
                step: try PTPValue.read(type, from: &reader, quirks: quirks))
        case 2:
            let count = Int(try reader.read(UInt16.self))
            // Canon EOS 60D: UINT8 property, 16-bit entries (see PTPQuirks.wideEightBitEnumerations).
            let wide =
                quirks.contains(.wideEightBitEnumerations) && (type == .uint8 || type == .int8)
                && reader.remainingCount == count * 2
            var values: [PTPValue] = []
            values.reserveCapacity(min(count, reader.remainingCount))
            for _ in 0..<count {
                if wide {
                    let entryOffset = reader.offset
                    let entry = try reader.read(UInt16.self)
                    let signed = Int16(bitPattern: entry)
                    guard let value = try? (type == .uint8 ? PTPValue(entry, as: .uint8) : PTPValue(signed, as: .int8))
                    else {
                        throw WireError(.invalidValue, at: entryOffset, "wide entry \(entry) does not fit \(type)")
                    }
                    values.append(value)
                } else {
                    values.append(try PTPValue.read(type, from: &reader, quirks: quirks))
                }
            }
            form = .enumeration(values)
        case let flag:
            throw WireError(.invalidValue, at: flagOffset, "FormFlag \(flag)")
        }
    }

    /// Writes DevicePropDesc in the spec's layout (never in a quirk's).
    public func encode(into writer: inout WireWriter) {
        writer.write(propertyCode.rawValue)
        writer.write(dataType.rawValue)
        writer.write(getSet)
        factoryDefaultValue.encode(into: &writer)
        currentValue.encode(into: &writer)
        switch form {
        case .none:
            writer.write(UInt8(0))
        case .range(let minimum, let maximum, let step):
            writer.write(UInt8(1))
            minimum.encode(into: &writer)
            maximum.encode(into: &writer)
            step.encode(into: &writer)
        case .enumeration(let values):
            precondition(values.count <= Int(UInt16.max), "an enumeration holds at most 65535 values")
            writer.write(UInt8(2))
            writer.write(UInt16(values.count))
            for value in values { value.encode(into: &writer) }
        }
    }
}
