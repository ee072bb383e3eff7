import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Times in UTC as ISO 8601 text for the journal and the log, formatted with `gmtime_r` instead of Foundation's
/// `ISO8601DateFormatter`, whose first use loads ICU's calendar data: about 1.5 ms, a tenth of a short command's
/// whole run (issue 7).
public enum UTCTimestamp {
    /// `2026-11-27T09:57:34.199Z`: extended format, to the nearest millisecond, `Z`.
    public static func extended(_ date: Date) -> String {
        let (parts, milliseconds) = split(date)
        let (day, time) = fields(parts)
        return day.joined(separator: "-") + "T" + time.joined(separator: ":") + "." + milliseconds.zeroPadded(to: 3)
            + "Z"
    }

    /// `20261127T095734`: basic format, whole seconds (of the time to the nearest millisecond), no zone designator
    /// (the run ID's stem).
    public static func basic(_ date: Date) -> String {
        let (day, time) = fields(split(date).0)
        return day.joined() + "T" + time.joined()
    }

    /// Year, month and day; hour, minute and second: zero-padded.
    private static func fields(_ parts: tm) -> (day: [String], time: [String]) {
        let day = [(parts.tm_year + 1900).zeroPadded(to: 4), (parts.tm_mon + 1).zeroPadded(to: 2)]
        return (
            day + [parts.tm_mday.zeroPadded(to: 2)],
            [parts.tm_hour.zeroPadded(to: 2), parts.tm_min.zeroPadded(to: 2), parts.tm_sec.zeroPadded(to: 2)]
        )
    }

    /// The calendar fields and the milliseconds, the time rounded to the nearest millisecond first as
    /// `ISO8601DateFormatter` does.
    private static func split(_ date: Date) -> (tm, Int32) {
        let (seconds, milliseconds) = Int64((date.timeIntervalSince1970 * 1000).rounded())
            .quotientAndRemainder(dividingBy: 1000)
        // Before 1970 the remainder is negative: borrow a second.
        var time = time_t(milliseconds < 0 ? seconds - 1 : seconds)
        var parts = tm()
        _ = gmtime_r(&time, &parts)
        return (parts, Int32(milliseconds < 0 ? milliseconds + 1000 : milliseconds))
    }

}

extension BinaryInteger {
    /// The decimal digits, with zeros in front up to `width` (`7` → `"07"` for 2): dates, times and sequence numbers.
    func zeroPadded(to width: Int) -> String {
        let text = String(self)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
