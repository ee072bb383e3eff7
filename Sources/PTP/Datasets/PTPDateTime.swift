import WireFormat

/// A PTP DateTime string as a value: `YYYYMMDDThhmmss[.s][Z|±hhmm]` (ISO 15740 §5.3.5, an ISO 8601 subset).
///
/// ObjectInfo's CaptureDate and ModificationDate and the DateTime property (0x5011) carry this format; a real
/// example is the Canon EOS 60D's `20120202T141654.0`. Without a zone designator the time is the camera's local
/// time. ``init(ptpString:)`` validates every field (month 1–12, a day that exists in that month, hour 0–23,
/// minute 0–59, second 0–60 for a leap second) and throws ``WireFormat/WireError/Code/invalidValue`` otherwise;
/// ``ptpString`` formats it back exactly.
public struct PTPDateTime: Hashable, Sendable, CustomStringConvertible {
    /// Where the time is anchored.
    public enum Zone: Hashable, Sendable {
        /// No designator: the camera's local time, offset unknown.
        case local
        /// `Z`: UTC.
        case utc
        /// `±hhmm`: minutes east of UTC (negative west), within ±23:59.
        case offset(minutes: Int)
    }

    /// The year, 0…9999.
    public var year: Int
    /// The month, 1…12.
    public var month: Int
    /// The day of the month, 1…31 (and valid for the month).
    public var day: Int
    /// The hour, 0…23.
    public var hour: Int
    /// The minute, 0…59.
    public var minute: Int
    /// The second, 0…60.
    public var second: Int
    /// Tenths of a second (the optional `.s`), 0…9.
    public var tenths: Int?
    /// The zone designator.
    public var zone: Zone

    /// Creates a date-time; throws ``WireFormat/WireError/Code/invalidValue`` for a field out of range.
    public init(
        year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, tenths: Int? = nil,
        zone: Zone = .local
    ) throws(WireError) {
        (self.year, self.month, self.day) = (year, month, day)
        (self.hour, self.minute, self.second, self.tenths, self.zone) = (hour, minute, second, tenths, zone)
        try validate()
    }

    /// Parses a PTP date-time string.
    public init(ptpString text: String) throws(WireError) {
        let chars = Array(text.utf8)
        func fail(_ why: String) -> WireError { WireError(.invalidValue, "date-time \"\(text)\": \(why)") }
        func number(_ start: Int, _ count: Int) throws(WireError) -> Int {
            guard start + count <= chars.count else { throw fail("too short") }
            var value = 0
            for index in start..<start + count {
                let digit = Int(chars[index]) - 48
                guard (0...9).contains(digit) else { throw fail("expected a digit at \(index)") }
                value = value * 10 + digit
            }
            return value
        }
        guard chars.count >= 15, chars[8] == UInt8(ascii: "T") else { throw fail("expected YYYYMMDDThhmmss") }
        year = try number(0, 4)
        month = try number(4, 2)
        day = try number(6, 2)
        hour = try number(9, 2)
        minute = try number(11, 2)
        second = try number(13, 2)
        var index = 15
        tenths = nil
        if index < chars.count, chars[index] == UInt8(ascii: ".") {
            tenths = try number(index + 1, 1)
            index += 2
        }
        zone = .local
        if index < chars.count {
            switch chars[index] {
            case UInt8(ascii: "Z"):
                zone = .utc
                index += 1
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                let sign = chars[index] == UInt8(ascii: "-") ? -1 : 1
                let hours = try number(index + 1, 2)
                let minutes = try number(index + 3, 2)
                guard hours <= 23, minutes <= 59 else { throw fail("offset out of range") }
                zone = .offset(minutes: sign * (hours * 60 + minutes))
                index += 5
            default:
                throw fail("unexpected character at \(index)")
            }
        }
        guard index == chars.count else { throw fail("trailing characters") }
        try validate()
    }

    /// The PTP string form, e.g. `20120202T141654.0` or `20240101T000000Z`.
    public var ptpString: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        var text = pad(year, 4) + pad(month, 2) + pad(day, 2) + "T" + pad(hour, 2) + pad(minute, 2) + pad(second, 2)
        if let tenths { text += "." + String(tenths) }
        switch zone {
        case .local: break
        case .utc: text += "Z"
        case .offset(let minutes):
            text += (minutes < 0 ? "-" : "+") + pad(abs(minutes) / 60, 2) + pad(abs(minutes) % 60, 2)
        }
        return text
    }

    /// The PTP string form.
    public var description: String { ptpString }

    /// Seconds since 1970-01-01T00:00:00Z (tenths dropped). A ``Zone/local`` time needs the camera's offset from
    /// UTC, `localOffsetMinutes`, which PTP does not carry.
    public func secondsSince1970(localOffsetMinutes: Int = 0) -> Int64 {
        // Days from civil (Howard Hinnant's algorithm): exact for the proleptic Gregorian calendar.
        let shiftedYear = Int64(month <= 2 ? year - 1 : year)
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let monthIndex = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * monthIndex + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let offset: Int
        switch zone {
        case .local: offset = localOffsetMinutes
        case .utc: offset = 0
        case .offset(let minutes): offset = minutes
        }
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset * 60)
    }

    private func validate() throws(WireError) {
        func check(_ ok: Bool, _ field: String) throws(WireError) {
            if !ok { throw WireError(.invalidValue, "date-time \(field) out of range") }
        }
        try check((0...9999).contains(year), "year \(year)")
        try check((1...12).contains(month), "month \(month)")
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        try check((1...monthDays[month - 1]).contains(day), "day \(day)")
        try check((0...23).contains(hour), "hour \(hour)")
        try check((0...59).contains(minute), "minute \(minute)")
        try check((0...60).contains(second), "second \(second)")
        if let tenths { try check((0...9).contains(tenths), "tenths \(tenths)") }
        if case .offset(let minutes) = zone { try check(abs(minutes) <= 23 * 60 + 59, "offset \(minutes)") }
    }
}
