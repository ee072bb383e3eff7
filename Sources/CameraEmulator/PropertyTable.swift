import PTP
import WireFormat

/// The camera's device properties: one ``PTP/DevicePropDesc`` per supported code, in the order DeviceInfo lists
/// them, with the checks SetDevicePropValue applies (ISO 15740 §10.5.24).
struct PropertyTable: Sendable {
    /// The supported codes, in DeviceInfo order.
    private(set) var codes: [DevicePropertyCode] = []
    private var descriptions: [DevicePropertyCode: DevicePropDesc] = [:]

    /// Adds or replaces a property.
    mutating func add(_ description: DevicePropDesc) {
        if descriptions[description.propertyCode] == nil { codes.append(description.propertyCode) }
        descriptions[description.propertyCode] = description
    }

    /// Puts the codes `order` names in that order, the others after them as they were.
    mutating func order(by order: [DevicePropertyCode]) {
        let rank = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        codes = codes.enumerated().sorted { a, b in
            (rank[a.element] ?? order.count + a.offset, a.offset) < (rank[b.element] ?? order.count + b.offset, b.offset)
        }.map(\.element)
    }

    /// The description of `code`, or `nil` when the camera has no such property.
    subscript(code: DevicePropertyCode) -> DevicePropDesc? { descriptions[code] }

    /// The current value of `code`.
    func value(_ code: DevicePropertyCode) -> PTPValue? { descriptions[code]?.currentValue }

    /// The current value of `code` as an integer.
    func integer(_ code: DevicePropertyCode) -> Int? { value(code)?.integerValue }

    /// Sets the current value without checks (the camera's own changes, such as its clock).
    mutating func setCurrent(_ code: DevicePropertyCode, _ value: PTPValue) {
        descriptions[code]?.currentValue = value
    }

    /// SetDevicePropValue: decodes `bytes` as the property's type and checks it against the description.
    ///
    /// - Returns: OK and the new value; DevicePropNotSupported for an unknown code, AccessDenied for a read-only
    ///   property, InvalidDevicePropFormat when the bytes are not one value of the property's type, and
    ///   InvalidDevicePropValue when the value is outside the description's form.
    mutating func set(_ code: DevicePropertyCode, bytes: [UInt8]) -> (ResponseCode, PTPValue?) {
        guard var description = descriptions[code] else { return (.devicePropNotSupported, nil) }
        guard description.isSettable else { return (.accessDenied, nil) }
        guard let value = try? PTPValue(ptpEncoded: bytes, type: description.dataType) else {
            return (.invalidDevicePropFormat, nil)
        }
        guard Self.allows(description.form, value) else { return (.invalidDevicePropValue, nil) }
        description.currentValue = value
        descriptions[code] = description
        return (.ok, value)
    }

    /// Whether `form` admits `value`: one of an enumeration's values, or within a range on its step grid.
    static func allows(_ form: DevicePropDesc.Form, _ value: PTPValue) -> Bool {
        switch form {
        case .none:
            return true
        case .enumeration(let values):
            return values.contains(value)
        case .range(let minimum, let maximum, let step):
            guard let number = value.integerValue, let low = minimum.integerValue, let high = maximum.integerValue,
                let stride = step.integerValue
            else { return false }
            guard number >= low, number <= high else { return false }
            return stride <= 0 || (number - low) % stride == 0
        }
    }
}
