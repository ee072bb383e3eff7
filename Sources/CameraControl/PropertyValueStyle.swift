import PTP

#if canImport(Glibc)
    import Glibc
#endif

/// How a property's values are written for people: `1/125` for ExposureTime, `f/8` for FNumber, `daylight` for
/// WhiteBalance, `-1/3` for ExposureBiasCompensation.
///
/// Formatting never fails: a value the style does not know prints as its number (`0x8012` for a vendor value of a
/// choice), so a camera's unexpected values stay visible. Parsing gives either an exact wire value or a target that
/// ``PropertyValueStyle/resolve(_:descriptor:)`` snaps to the nearest value the descriptor allows (`1/1600` is
/// 6.25 units of 1/10000 s; cameras report 6).
public enum PropertyValueStyle: Hashable, Sendable {
    /// A plain integer, with an optional unit printed after it (`%`, `ms`).
    case number(unit: String?)
    /// An integer in hundredths shown as a decimal: FNumber (`f/5.6` is 560), FocalLength (`50mm` is 5000).
    case hundredths(prefix: String, suffix: String)
    /// ExposureIndex (0x500F): ISO speed; 0xFFFF, the all-ones value cameras use for automatic ISO, is `auto`.
    case iso
    /// ExposureTime (0x500D) in 1/10000 s: `1/125`, `0.3`, `2`, `30`; 0xFFFFFFFF, which cameras use for bulb, is `bulb`.
    case exposureTime
    /// ExposureBiasCompensation (0x5010) in 1/1000 EV: `0`, `-1/3`, `+2/3`, `+1`, `+4/3`, `+1/2`.
    case exposureBias
    /// A code with names: one ``Choice`` per known value; numbers are accepted for the rest.
    case choices([Choice])
    /// A string (STR).
    case text
    /// DateTime (0x5011), a PTP date-time string (ISO 15740 §5.3.5): `20261122T070000`. Setting takes that form,
    /// `2026-11-22T07:00:00`, or `now` (the host's local time), and checks it before it reaches the camera.
    case dateTime

    /// One named value of a ``choices(_:)`` property.
    public struct Choice: Hashable, Sendable {
        /// The wire value.
        public var value: Int
        /// The name `config` prints and accepts (lower case).
        public var name: String
        /// Other names accepted when setting.
        public var aliases: [String]

        /// Creates a choice.
        public init(_ value: Int, _ name: String, aliases: [String] = []) {
            (self.value, self.name, self.aliases) = (value, name, aliases)
        }
    }

    /// What a parsed text asks for.
    public enum Target: Hashable, Sendable {
        /// Exactly this integer.
        case exact(Int)
        /// About this many property units: the nearest allowed value within `tolerance` (a ratio, 0.03 = 3 %).
        case about(Double, tolerance: Double)
        /// This string.
        case string(String)
    }

    // MARK: Formatting

    /// The value as people write it.
    public func format(_ value: PTPValue) -> String {
        if case .string(let text) = value { return text }
        guard let number = value.integerValue else { return value.description }
        switch self {
        case .number(let unit):
            return String(number) + (unit ?? "")
        case .hundredths(let prefix, let suffix):
            return prefix + Self.decimal(number, scale: 100) + suffix
        case .iso:
            return number == 0xFFFF ? "auto" : String(number)
        case .exposureTime:
            return Self.formatExposureTime(number)
        case .exposureBias:
            return Self.formatBias(number)
        case .choices(let choices):
            if let choice = choices.first(where: { $0.value == number }) { return choice.name }
            return number >= 0x8000 ? Self.hex(number) : String(number)
        case .text, .dateTime:
            return value.description
        }
    }

    // MARK: Parsing

    /// Reads `text` as a value of this style.
    ///
    /// - Throws: ``CameraControlError/Code/invalidValue`` when the text means nothing for this style.
    public func parse(_ text: String) throws(CameraControlError) -> Target {
        let trimmed = text.trimmingWhitespace
        let lower = trimmed.lowercased()
        func invalid(_ expected: String) -> CameraControlError {
            CameraControlError(.invalidValue, "\"\(text)\" is not \(expected)")
        }
        switch self {
        case .text:
            return .string(text)
        case .dateTime:
            return .string(try Self.parseDateTime(trimmed, invalid: invalid))
        case .number:
            guard let number = Self.integer(lower) else { throw invalid("a whole number") }
            return .exact(number)
        case .hundredths(let prefix, let suffix):
            var body = Substring(lower)
            let prefixLower = prefix.lowercased()
            if !prefixLower.isEmpty, body.hasPrefix(prefixLower) {
                body = body.dropFirst(prefixLower.count)
            } else if prefixLower == "f/", body.hasPrefix("f") {
                body = body.dropFirst()  // `f8`, `F5.6`
            }
            if !suffix.isEmpty, body.hasSuffix(suffix.lowercased()) { body = body.dropLast(suffix.count) }
            guard let number = Double(String(body)), number.isFinite, number > 0 else {
                throw invalid("a number like \(prefix)5.6\(suffix)")
            }
            return .about(number * 100, tolerance: 0.01)
        case .iso:
            if lower == "auto" { return .exact(0xFFFF) }
            guard let number = Self.integer(lower.hasPrefix("iso") ? String(lower.dropFirst(3)) : lower), number > 0
            else { throw invalid("an ISO speed (100, 400, auto)") }
            return .exact(number)
        case .exposureTime:
            if lower == "bulb" { return .exact(0xFFFF_FFFF) }
            let body = lower.hasSuffix("s") ? String(lower.dropLast()) : lower
            guard let seconds = Self.fraction(body), seconds > 0 else {
                throw invalid("a shutter time (1/125, 0.5, 2, 30, bulb)")
            }
            // Cameras round to 1/10000 s, so short times are off by up to a quarter unit (1/1600 s is 6.25).
            return .about(seconds * 10_000, tolerance: 0.05)
        case .exposureBias:
            guard let stops = Self.fraction(lower) else { throw invalid("an exposure bias in EV (-1/3, +2/3, 1, 0.7)") }
            // 1/3 EV is 333 on the wire; 0.3 and 0.7 as people type them are within a tenth of a stop.
            return .about(stops * 1000, tolerance: 0)
        case .choices(let choices):
            if let choice = choices.first(where: { $0.name == lower || $0.aliases.contains(lower) }) {
                return .exact(choice.value)
            }
            if let number = Self.integer(lower) { return .exact(number) }
            throw invalid("one of " + choices.map(\.name).joined(separator: ", "))
        }
    }

    /// Parses `text` and picks the value the descriptor allows.
    ///
    /// - Throws: ``CameraControlError/Code/invalidValue`` with the allowed values when the text does not parse, does
    ///   not name an allowed value, or does not fit the property's data type.
    public func resolve(_ text: String, descriptor: DevicePropDesc) throws(CameraControlError) -> PTPValue {
        let allowed = allowedTexts(descriptor.form)
        let target: Target
        do {
            target = try parse(text)
        } catch {
            // With the camera's own list at hand, that list is the useful answer, not the style's vocabulary.
            let detail = allowed.isEmpty ? error.detail : "\(text) is not a value the camera allows"
            throw CameraControlError(.invalidValue, detail, allowed: allowed)
        }
        return try Self.pick(target, text: text, descriptor: descriptor, allowed: allowed, style: self)
    }

    /// The allowed values of `form`, formatted: each value of an enumeration, or `MIN…MAX step S` for a range.
    public func allowedTexts(_ form: DevicePropDesc.Form) -> [String] {
        switch form {
        case .none: []
        case .enumeration(let values): values.map(format)
        case .range(let minimum, let maximum, let step):
            ["\(format(minimum))…\(format(maximum)) in steps of \(Self.stepText(step, style: self))"]
        }
    }

    // MARK: Helpers

    /// `now`, `YYYY-MM-DDThh:mm:ss` or a PTP date-time, as a checked PTP date-time string.
    private static func parseDateTime(
        _ text: String, invalid: (String) -> CameraControlError
    ) throws(CameraControlError) -> String {
        let expected = "a date-time (now, 2026-11-22T07:00:00 or 20261122T070000)"
        if text.lowercased() == "now" {
            // Local time with localtime_r (TZ, else /etc/localtime, as Foundation's Calendar.current), without
            // loading ICU's calendar for it.
            var now = time(nil)
            var parts = tm()
            _ = localtime_r(&now, &parts)
            guard
                let time = try? PTPDateTime(
                    year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
                    hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec))
            else { throw invalid(expected) }
            return time.ptpString
        }
        // The ISO 8601 extended form without its separators is PTP's basic form.
        let compact = text.count == 19 ? text.filter { $0 != "-" && $0 != ":" } : text
        guard let time = try? PTPDateTime(ptpString: compact) else { throw invalid(expected) }
        return time.ptpString
    }

    private static func pick(
        _ target: Target, text: String, descriptor: DevicePropDesc, allowed: [String], style: PropertyValueStyle
    ) throws(CameraControlError) -> PTPValue {
        func notAllowed() -> CameraControlError {
            CameraControlError(.invalidValue, "\(text) is not a value the camera allows", allowed: allowed)
        }
        if case .string(let string) = target {
            guard descriptor.dataType == .string else {
                throw CameraControlError(.invalidValue, "\"\(text)\" is not a number", allowed: allowed)
            }
            let value = PTPValue.string(string)
            if case .enumeration(let values) = descriptor.form, !values.contains(value) { throw notAllowed() }
            return value
        }
        guard descriptor.dataType.isScalar, descriptor.dataType.scalarByteCount ?? 16 <= 8 else {
            throw CameraControlError(
                .invalidValue, "values of type \(descriptor.dataType) cannot be set by rawcap", allowed: allowed)
        }
        let number: Int
        switch descriptor.form {
        case .enumeration(let values):
            let candidates = values.compactMap(\.integerValue)
            switch target {
            case .exact(let wanted):
                guard candidates.contains(wanted) else { throw notAllowed() }
                number = wanted
            case .about(let wanted, let tolerance):
                guard let nearest = nearest(wanted, candidates, tolerance: tolerance) else { throw notAllowed() }
                number = nearest
            case .string:
                throw notAllowed()
            }
        case .range(let minimum, let maximum, let step):
            guard let low = minimum.integerValue, let high = maximum.integerValue else { throw notAllowed() }
            let stride = max(1, step.integerValue ?? 1)
            var wanted: Int
            switch target {
            case .exact(let value):
                wanted = value
            case .about(let value, _):
                guard value.isFinite, abs(value) < 1e15 else { throw notAllowed() }
                // The nearest step, computed in Double: a camera's range may span the whole of Int64.
                let steps = ((value - Double(low)) / Double(stride)).rounded()
                let candidate = Double(low) + steps * Double(stride)
                guard abs(candidate) < 9e15 else { throw notAllowed() }
                wanted = Int(candidate)
            case .string:
                throw notAllowed()
            }
            // Bounds first, then the step grid with overflow-checked arithmetic (the range comes from the camera).
            guard wanted >= low, wanted <= high else { throw notAllowed() }
            let (offset, overflow) = wanted.subtractingReportingOverflow(low)
            guard !overflow, offset % stride == 0 else { throw notAllowed() }
            guard wanted >= low, wanted <= high else { throw notAllowed() }
            number = wanted
        case .none:
            switch target {
            case .exact(let value): number = value
            case .about(let value, _):
                guard value.isFinite, abs(value) < 1e15 else { throw notAllowed() }
                number = Int(value.rounded())
            case .string: throw notAllowed()
            }
        }
        do {
            return try PTPValue(number, as: descriptor.dataType)
        } catch {
            throw CameraControlError(
                .invalidValue, "\(text) does not fit the property's type \(descriptor.dataType)", allowed: allowed)
        }
    }

    /// The candidate nearest to `wanted`; with a tolerance of 0, the nearest within a tenth of the wanted
    /// magnitude's unit (exposure bias: 0.3 finds 333), otherwise within `tolerance` as a ratio.
    private static func nearest(_ wanted: Double, _ candidates: [Int], tolerance: Double) -> Int? {
        guard wanted.isFinite else { return nil }
        guard let best = candidates.min(by: { abs(Double($0) - wanted) < abs(Double($1) - wanted) }) else {
            return nil
        }
        let distance = abs(Double(best) - wanted)
        if tolerance == 0 { return distance <= 50 ? best : nil }
        // A quarter unit is always close enough: the camera rounded to its own unit.
        return distance <= max(0.5, abs(wanted) * tolerance) ? best : nil
    }

    private static func stepText(_ step: PTPValue, style: PropertyValueStyle) -> String {
        switch style {
        case .hundredths, .exposureBias, .exposureTime: style.format(step)
        default: step.integerValue.map(String.init) ?? step.description
        }
    }

    /// Nominal shutter speeds as cameras print them; values in 1/10000 s round to these.
    private static let nominalShutterDenominators: [Int] = [
        8000, 6400, 5000, 4000, 3200, 3000, 2500, 2000, 1600, 1500, 1250, 1000, 800, 750, 640, 500, 400, 350, 320, 250,
        200, 180, 160, 125, 100, 90, 80, 60, 50, 45, 40, 30, 25, 20, 15, 13, 10, 8, 6, 5, 4, 3,
    ]

    static func formatExposureTime(_ units: Int) -> String {
        if units == 0xFFFF_FFFF { return "bulb" }
        if units <= 0 { return String(units) }
        if units < 10_000 {
            for denominator in nominalShutterDenominators
            where (10_000.0 / Double(denominator)).rounded(.toNearestOrAwayFromZero) == Double(units) {
                return "1/\(denominator)"
            }
            if 10_000 % units == 0 { return "1/\(10_000 / units)" }
        }
        return decimal(units, scale: 10_000)
    }

    static func formatBias(_ thousandths: Int) -> String {
        if thousandths == 0 { return "0" }
        let sign = thousandths < 0 ? "-" : "+"
        // Real biases are a few EV; anything past ±1000 EV (a camera's nonsense) prints as a decimal.
        guard (-1_000_000...1_000_000).contains(thousandths) else {
            return (thousandths < 0 ? "" : "+") + decimal(thousandths, scale: 1000)
        }
        let magnitude = abs(thousandths)
        // Thirds are stored rounded (333, 667, 1333); halves exactly (500, 1500).
        let thirds = (Double(magnitude) * 3 / 1000).rounded()
        if abs(thirds * 1000 / 3 - Double(magnitude)) <= 1 {
            let count = Int(thirds)
            return sign + (count % 3 == 0 ? String(count / 3) : "\(count)/3")
        }
        if magnitude % 500 == 0 {
            return sign + (magnitude % 1000 == 0 ? String(magnitude / 1000) : "\(magnitude / 500)/2")
        }
        return sign + decimal(magnitude, scale: 1000)
    }

    /// `560` at scale 100 → `5.6`; `80000` at 10000 → `8`.
    static func decimal(_ value: Int, scale: Int) -> String {
        let sign = value < 0 ? "-" : ""
        let magnitude = value.magnitude
        let whole = magnitude / UInt(scale)
        var fraction = magnitude % UInt(scale)
        guard fraction != 0 else { return sign + String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: String(scale).count - 1 - digits.count) + digits
        while digits.hasSuffix("0") {
            digits.removeLast()
            fraction /= 10
        }
        return sign + "\(whole).\(digits)"
    }

    static func hex(_ value: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// A decimal or `0x` hexadecimal integer, with an optional sign.
    static func integer(_ text: String) -> Int? {
        if text.hasPrefix("0x") { return Int(text.dropFirst(2), radix: 16) }
        if text.hasPrefix("+") { return Int(text.dropFirst()) }
        return Int(text)
    }

    /// `1/125`, `-1/3`, `+2/3`, `0.5`, `2`, `1 1/3`, `1+1/3`.
    static func fraction(_ text: String) -> Double? {
        var body = Substring(text.trimmingWhitespace)
        var negative = false
        if body.hasPrefix("-") || body.hasPrefix("−") {
            negative = true
            body = body.dropFirst()
        } else if body.hasPrefix("+") {
            body = body.dropFirst()
        }
        guard !body.isEmpty, !body.hasPrefix("-"), !body.hasPrefix("+") else { return nil }
        let parts = body.split(whereSeparator: { $0 == " " || $0 == "+" }).map(String.init)
        var total = 0.0
        guard !parts.isEmpty, parts.count <= 2 else { return nil }
        for part in parts {
            let pieces = part.split(separator: "/", omittingEmptySubsequences: false)
            switch pieces.count {
            case 1:
                guard let value = Double(pieces[0]), value.isFinite, value >= 0 else { return nil }
                total += value
            case 2:
                guard let numerator = Double(pieces[0]), let denominator = Double(pieces[1]), denominator > 0,
                    numerator.isFinite, denominator.isFinite, numerator >= 0
                else { return nil }
                total += numerator / denominator
            default:
                return nil
            }
        }
        return negative ? -total : total
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and newlines.
    var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
