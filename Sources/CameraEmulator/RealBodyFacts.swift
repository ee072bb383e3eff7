import PTP

/// Reads the property facts of a real body (``NikonD850Facts``, ``FujifilmXT2Facts``, …): one property a line,
/// `CODE TYPE ACCESS FORM … = CURRENT`, where FORM is `range MIN MAX STEP`, `enum VALUE…` or `none` and a string is
/// quoted with `'`. `Fixtures/ptp-real/tools/summary-to-facts.py` writes such lines from a libgphoto2 summary.
enum RealBodyFacts {
    /// Every line of `text`, in its order. A line that does not read is a programmer error (the texts are fixed and
    /// tested).
    static func descriptions(_ text: String) -> [DevicePropDesc] {
        text.split(separator: "\n").map { parse(String($0)) }
    }

    /// Hexadecimal codes separated by spaces (`0x1001 0x1002 …`), as the facts files list DeviceInfo's arrays.
    static func codes(_ text: String) -> [UInt16] {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map { UInt16($0.dropFirst(2), radix: 16)! }
    }

    /// Reads one line.
    static func parse(_ line: String) -> DevicePropDesc {
        var tokens: [String] = []
        var rest = Substring(line)
        while let first = rest.first {
            if first == " " {
                rest = rest.dropFirst()
            } else if first == "'" {
                let body = rest.dropFirst()
                let end = body.firstIndex(of: "'") ?? body.endIndex
                tokens.append("'" + body[..<end])
                rest = end < body.endIndex ? body[body.index(after: end)...] : ""
            } else {
                let end = rest.firstIndex(of: " ") ?? rest.endIndex
                tokens.append(String(rest[..<end]))
                rest = rest[end...]
            }
        }
        let code = DevicePropertyCode(rawValue: UInt16(tokens[0].dropFirst(2), radix: 16)!)
        let type: DataTypeCode =
            switch tokens[1] {
            case "i8": .int8
            case "u8": .uint8
            case "i16": .int16
            case "u16": .uint16
            case "i32": .int32
            case "u32": .uint32
            case "i64": .int64
            case "u64": .uint64
            default: .string
            }
        func value(_ token: String) -> PTPValue {
            if type == .string { return .string(String(token.dropFirst())) }
            return try! PTPValue(Int(token)!, as: type)
        }
        let equals = tokens.firstIndex(of: "=")!
        let current = value(tokens[equals + 1])
        let formTokens = tokens[4..<equals]
        let form: DevicePropDesc.Form =
            switch tokens[3] {
            case "range":
                .range(
                    minimum: value(formTokens[formTokens.startIndex]), maximum: value(formTokens[formTokens.startIndex + 1]),
                    step: value(formTokens[formTokens.startIndex + 2]))
            case "enum": .enumeration(formTokens.map(value))
            default: .none
            }
        return DevicePropDesc(
            propertyCode: code, dataType: type, getSet: tokens[2] == "rw" ? 1 : 0, factoryDefaultValue: current,
            currentValue: current, form: form)
    }
}
