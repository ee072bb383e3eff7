import PTP
import RawImage

#if canImport(Glibc)
    import Glibc
#endif

/// The emulated camera's wall clock: local time without a zone, as cameras keep it (the DateTime property, 0x5011,
/// and every object's CaptureDate), running from a start time the host may reset.
struct CameraClock: Sendable {
    /// Wall-clock seconds since 1970-01-01T00:00:00 (zone-less) at ``origin``.
    private var baseSeconds: Int64
    private var origin: ContinuousClock.Instant

    /// A clock that starts at `start`, or at the host's local time.
    init(start: PTPDateTime?) {
        origin = .now
        baseSeconds = start?.secondsSince1970() ?? Self.hostLocalSeconds()
    }

    /// The current time, to the tenth of a second.
    func now() -> PTPDateTime {
        let elapsed = ContinuousClock.now - origin
        let tenths = elapsed.components.seconds * 10 + elapsed.components.attoseconds / 100_000_000_000_000_000
        return Self.dateTime(tenthsSince1970: baseSeconds * 10 + tenths)
    }

    /// Sets the clock (SetDevicePropValue of DateTime); the zone designator, if any, is dropped like a camera does.
    mutating func set(_ time: PTPDateTime) {
        var local = time
        local.zone = .local
        baseSeconds = local.secondsSince1970()
        origin = .now
    }

    /// `time` as an EXIF capture time (local, sub-seconds from its tenths).
    static func captureTime(_ time: PTPDateTime) -> CaptureTime? {
        try? CaptureTime(
            year: max(time.year, 1), month: time.month, day: time.day, hour: time.hour, minute: time.minute,
            second: min(time.second, 59), subSeconds: time.tenths.map(String.init) ?? "")
    }

    /// The date-time `tenths` tenths of a second after 1970-01-01T00:00:00.
    static func dateTime(tenthsSince1970 tenths: Int64) -> PTPDateTime {
        let seconds = tenths >= 0 ? tenths / 10 : (tenths - 9) / 10
        let tenth = Int(tenths - seconds * 10)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        // Civil from days (Howard Hinnant's algorithm), the inverse of PTPDateTime.secondsSince1970.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        let year = Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0))
        let clamped = min(max(year, 0), 9999)
        // Every field is in range by construction; the fallback only guards years beyond PTP's four digits.
        return (try? PTPDateTime(
            year: clamped, month: month, day: day, hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60,
            second: secondOfDay % 60, tenths: tenth))
            ?? Self.epoch
    }

    private static let epoch: PTPDateTime = {
        do { return try PTPDateTime(year: 1970, month: 1, day: 1) } catch {
            preconditionFailure("1970-01-01 is a valid date: \(error)")
        }
    }()

    /// The host's local wall-clock time as zone-less seconds since 1970.
    private static func hostLocalSeconds() -> Int64 {
        #if canImport(Glibc)
            var now = time(nil)
            var fields = tm()
            guard localtime_r(&now, &fields) != nil else { return Int64(now) }
            return Int64(now) + Int64(fields.tm_gmtoff)
        #else
            return 0
        #endif
    }
}
