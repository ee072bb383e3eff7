import WireFormat

/// Sony's description of one property: an element of GetAllDevicePropData (0x9209) and the data phase of Sony
/// GetDevicePropDesc (0x9203).
///
/// Layout (libgphoto2 `ptp-pack.c` `ptp_unpack_Sony_DPD`, offsets `PTP_dpd_Sony_*`):
///
/// | field | type |
/// |---|---|
/// | DevicePropertyCode | UINT16 |
/// | DataType | UINT16 (``DataTypeCode``) |
/// | GetSet | UINT8 (0 read-only, 1 read-write) |
/// | IsEnabled | UINT8 (0 greyed out, 1 enabled, 2 display only) |
/// | FactoryDefaultValue | DataType |
/// | CurrentValue | DataType |
/// | FormFlag | UINT8 (0 none, 1 range, 2 enumeration) |
/// | form | as in DevicePropDesc |
/// | second enumeration | UINT16 count + values; only after an enumeration, on 2024 and later bodies |
///
/// The standard DevicePropDesc has no IsEnabled byte, so the two do not share a decoder. Newer bodies follow an
/// enumeration with a second list; libgphoto2 recognises it by a next UINT16 below 0x200 (a following descriptor
/// starts with a property code 0x5xxx or 0xDxxx) and uses it in place of the first. The same test applies here,
/// and ``secondaryValues`` keeps the list.
public struct SonyDevicePropDesc: PTPDataset, Hashable {
    /// The property.
    public var propertyCode: DevicePropertyCode
    /// The type of every value.
    public var dataType: DataTypeCode
    /// The raw GetSet byte.
    public var getSet: UInt8
    /// The raw IsEnabled byte (see ``isEnabled``).
    public var isEnabledFlag: UInt8
    /// The factory default.
    public var factoryDefaultValue: PTPValue
    /// The current value.
    public var currentValue: PTPValue
    /// The allowed values.
    public var form: DevicePropDesc.Form
    /// The second enumeration of newer bodies; `nil` when absent.
    public var secondaryValues: [PTPValue]?

    /// Creates a description; every value must be of `dataType` (a programmer error otherwise).
    public init(
        propertyCode: DevicePropertyCode, dataType: DataTypeCode, getSet: UInt8 = 1, isEnabledFlag: UInt8 = 1,
        factoryDefaultValue: PTPValue, currentValue: PTPValue, form: DevicePropDesc.Form = .none,
        secondaryValues: [PTPValue]? = nil
    ) {
        precondition(factoryDefaultValue.dataType == dataType, "factory default is not a \(dataType)")
        precondition(currentValue.dataType == dataType, "current value is not a \(dataType)")
        if case .enumeration = form {
        } else {
            precondition(secondaryValues == nil, "a second enumeration follows an enumeration only")
        }
        self.propertyCode = propertyCode
        self.dataType = dataType
        self.getSet = getSet
        self.isEnabledFlag = isEnabledFlag
        self.factoryDefaultValue = factoryDefaultValue
        self.currentValue = currentValue
        self.form = form
        self.secondaryValues = secondaryValues
    }

    /// Whether the host may set the property: GetSet is 1 and the property is enabled (libgphoto2 clears GetSet for
    /// IsEnabled 0 and 2).
    public var isSettable: Bool { getSet != 0 && isEnabledFlag == 1 }

    /// The description as a standard DevicePropDesc: GetSet is 1 only when Sony's IsEnabled byte allows setting, and
    /// the enumeration is the one Sony offers (the second list of newer bodies when present, as libgphoto2 uses it).
    public var standardDescription: DevicePropDesc {
        DevicePropDesc(
            propertyCode: propertyCode, dataType: dataType, getSet: isSettable ? 1 : 0,
            factoryDefaultValue: factoryDefaultValue, currentValue: currentValue,
            form: allowedValues.map { DevicePropDesc.Form.enumeration($0) } ?? form)
    }

    /// Whether the camera shows the property as usable (IsEnabled 1).
    public var isEnabled: Bool { isEnabledFlag == 1 }

    /// The values to offer: the second enumeration when present (as libgphoto2 does), else the first.
    public var allowedValues: [PTPValue]? {
        if let secondaryValues { return secondaryValues }
        if case .enumeration(let values) = form { return values }
        return nil
    }

    /// Reads one description.
    ///
    /// - Throws: ``WireFormat/WireError/Code/invalidValue`` for an unknown data type or FormFlag, and truncation
    ///   errors.
    public init(from reader: inout WireReader, quirks: PTPQuirks) throws(WireError) {
        propertyCode = DevicePropertyCode(rawValue: try reader.read())
        let type = DataTypeCode(rawValue: try reader.read())
        dataType = type
        getSet = try reader.read()
        isEnabledFlag = try reader.read()
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
            form = .enumeration(try Self.readEnumeration(type, from: &reader, quirks: quirks))
        case let flag:
            throw WireError(.invalidValue, at: flagOffset, "Sony FormFlag \(flag)")
        }
        secondaryValues = nil
        if case .enumeration = form, reader.remainingCount >= 2 {
            var peek = reader
            if try peek.read(UInt16.self) < 0x200 {
                secondaryValues = try Self.readEnumeration(type, from: &reader, quirks: quirks)
            }
        }
    }

    private static func readEnumeration(
        _ type: DataTypeCode, from reader: inout WireReader, quirks: PTPQuirks
    ) throws(WireError) -> [PTPValue] {
        let count = Int(try reader.read(UInt16.self))
        var values: [PTPValue] = []
        // Each value takes at least one byte, so the bytes left bound the allocation.
        values.reserveCapacity(min(count, reader.remainingCount))
        for _ in 0..<count { values.append(try PTPValue.read(type, from: &reader, quirks: quirks)) }
        return values
    }

    /// Writes the description.
    public func encode(into writer: inout WireWriter) {
        writer.write(propertyCode.rawValue)
        writer.write(dataType.rawValue)
        writer.write(getSet)
        writer.write(isEnabledFlag)
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
            writer.write(UInt8(2))
            Self.writeEnumeration(values, into: &writer)
            if let secondaryValues { Self.writeEnumeration(secondaryValues, into: &writer) }
        }
    }

    private static func writeEnumeration(_ values: [PTPValue], into writer: inout WireWriter) {
        precondition(values.count <= Int(UInt16.max), "an enumeration holds at most 65535 values")
        writer.write(UInt16(values.count))
        for value in values { value.encode(into: &writer) }
    }
}
