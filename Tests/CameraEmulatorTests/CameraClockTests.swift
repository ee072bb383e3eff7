@testable import CameraEmulator
import PTP
import Testing

/// The camera's wall clock.
@Suite struct CameraClockTests {
    @Test(arguments: [
        "19700101T000000.0", "20240229T235959.9", "20000301T000000.0", "19691231T235959.5", "99991231T235959.0",
        "16000101T120000.0",
    ])
    func tenthsSince1970RoundTrip(text: String) throws {
        let time = try PTPDateTime(ptpString: text)
        let tenths = time.secondsSince1970() * 10 + Int64(time.tenths ?? 0)
        #expect(CameraClock.dateTime(tenthsSince1970: tenths).ptpString == text)
    }

    @Test func theClockRunsFromItsStartAndCanBeSet() async throws {
        let start = try PTPDateTime(year: 2024, month: 12, day: 31, hour: 23, minute: 59, second: 59)
        let began = ContinuousClock.now
        var clock = CameraClock(start: start)
        try await Task.sleep(for: .milliseconds(150))
        let now = clock.now()
        let elapsed = ContinuousClock.now - began
        let tenths = (now.secondsSince1970() - start.secondsSince1970()) * 10 + Int64(now.tenths ?? 0)
        // At least the sleep; at most the time that really passed (a loaded machine may take far longer than asked),
        // plus one tenth for rounding.
        let passedTenths = elapsed.components.seconds * 10 + elapsed.components.attoseconds / 100_000_000_000_000_000
        #expect(tenths >= 1 && tenths <= passedTenths + 1, "\(now) after \(elapsed)")
        clock.set(try PTPDateTime(ptpString: "20250101T120000+0200"))
        #expect(clock.now().ptpString.hasPrefix("20250101T120000"))
        #expect(clock.now().zone == .local)
    }

    @Test func aHostClockStartLooksLikeToday() {
        let now = CameraClock(start: nil).now()
        #expect(now.year >= 2024)
    }
}
