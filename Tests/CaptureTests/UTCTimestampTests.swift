import Foundation
import Testing

@testable import Capture

/// `UTCTimestamp` writes what Foundation's `ISO8601DateFormatter` wrote for the journal and the log before it.
@Suite struct UTCTimestampTests {
    private static func foundation(_ date: Date, _ options: ISO8601DateFormatter.Options) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = options
        return formatter.string(from: date)
    }

    @Test(arguments: [
        0, 1_795_773_456.639_873, 1_795_773_456.999_9, 1_795_773_456.000_2, 951_782_400.5, 951_868_799.999_6,
        4_102_444_799.001, 1_700_000_000, -1.25, -86_400.000_3,
    ])
    func matchesISO8601DateFormatter(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(UTCTimestamp.basic(date) == Self.foundation(date, [.withYear, .withMonth, .withDay, .withTime]))
        #expect(
            UTCTimestamp.extended(date) == Self.foundation(date, [.withInternetDateTime, .withFractionalSeconds]))
    }

    @Test func knownValues() {
        let date = Date(timeIntervalSince1970: 1_795_773_456.639_873)
        #expect(UTCTimestamp.extended(date) == "2026-11-27T09:57:36.640Z")
        #expect(UTCTimestamp.basic(date) == "20261127T095736")
        #expect(UTCTimestamp.extended(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
    }
}
