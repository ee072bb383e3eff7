import PTP

/// What the camera says about one setting: its current value and the values it allows, formatted by the setting's
/// ``PropertyValueStyle``, with the wire values alongside. `config list`/`get` print it; its JSON keys are stable.
public struct PropertyState: Hashable, Sendable, Encodable {
    /// The readable name (`iso`) or, for a code without one, the code (`0xD123`).
    public var name: String
    /// The property code in hex, `0x500F`.
    public var code: String
    /// The PTP name of the code (`ExposureIndex`, `Unknown(0xD001)`).
    public var ptpName: String
    /// The data type (`UINT16`).
    public var type: String?
    /// Whether the camera lets the host change it.
    public var writable: Bool?
    /// The current value as `config set` accepts it.
    public var value: String?
    /// The current value as a number on the wire (absent for strings).
    public var rawValue: Int?
    /// The factory default, formatted.
    public var factoryDefault: String?
    /// Each allowed value, formatted; empty for a range or an unconstrained property.
    public var allowed: [String]
    /// A range, when the descriptor has one: `100…25600 in steps of 100`.
    public var range: String?
    /// Why the property could not be read.
    public var error: String?

    /// The state of a property described by `descriptor`.
    public init(_ definition: PropertyDefinition, descriptor: DevicePropDesc, vendor: VendorExtensionID?) {
        name = definition.name
        code = PropertyValueStyle.hex(Int(definition.code.rawValue))
        ptpName = definition.code.description(vendor: vendor)
        type = descriptor.dataType.description
        writable = descriptor.isSettable
        value = definition.style.format(descriptor.currentValue)
        rawValue = descriptor.currentValue.integerValue
        factoryDefault = definition.style.format(descriptor.factoryDefaultValue)
        switch descriptor.form {
        case .none:
            allowed = []
        case .enumeration(let values):
            allowed = values.map(definition.style.format)
        case .range:
            allowed = []
            range = definition.style.allowedTexts(descriptor.form).first
        }
    }

    /// A property the camera would not describe.
    public init(_ definition: PropertyDefinition, error: String, vendor: VendorExtensionID?) {
        name = definition.name
        code = PropertyValueStyle.hex(Int(definition.code.rawValue))
        ptpName = definition.code.description(vendor: vendor)
        allowed = []
        self.error = error
    }

    /// The allowed values in one phrase: the list, the range, or `any`.
    public var allowedText: String {
        if let range { return range }
        return allowed.isEmpty ? "any" : allowed.joined(separator: ", ")
    }
}
