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
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(milliseconds, 3))Z"
    }

    /// `20261127T095734`: basic format, whole seconds (of the time to the nearest millisecond), no zone designator
    /// (the run ID's stem).
    public static func basic(_ date: Date) -> String {
        let (parts, _) = split(date)
        return "\(pad(parts.tm_year + 1900, 4))\(pad(parts.tm_mon + 1, 2))\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2))\(pad(parts.tm_min, 2))\(pad(parts.tm_sec, 2))"
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

    private static func pad(_ value: Int32, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
