import PTP
import Testing
import WireFormat

@Suite struct PTPDateTimeTests {
    @Test func parsesTheCanonCaptureDate() throws {
        let date = try PTPDateTime(ptpString: "20120202T141654.0")
        #expect(date.year == 2012 && date.month == 2 && date.day == 2)
        #expect(date.hour == 14 && date.minute == 16 && date.second == 54)
        #expect(date.tenths == 0)
        #expect(date.zone == .local)
        #expect(date.ptpString == "20120202T141654.0")
    }

    @Test(arguments: [
        "20240229T235960", "19991231T000000Z", "20240101T120000.5+0130", "20240101T120000-0800", "00010101T000000",
    ])
    func roundTrips(_ text: String) throws {
        #expect(try PTPDateTime(ptpString: text).ptpString == text)
    }

    @Test(arguments: [
        "", "2012020", "20120202 141654", "20121302T000000", "20120230T000000", "20230229T000000",
        "20120202T240000", "20120202T236000", "20120202T235961", "20120202T141654.", "20120202T141654.00",
        "20120202T141654+2400", "20120202T141654+01", "20120202T141654Zx", "2012O202T141654",
    ])
    func rejectsMalformedStrings(_ text: String) {
        #expect(throws: WireError(.invalidValue)) { try PTPDateTime(ptpString: text) }
    }

    @Test func convertsToSecondsSince1970() throws {
        #expect(try PTPDateTime(ptpString: "19700101T000000Z").secondsSince1970() == 0)
        #expect(try PTPDateTime(ptpString: "20000301T000000Z").secondsSince1970() == 951_868_800)
        #expect(try PTPDateTime(ptpString: "20000301T010000+0100").secondsSince1970() == 951_868_800)
        #expect(try PTPDateTime(ptpString: "20000301T000000").secondsSince1970(localOffsetMinutes: -60) == 951_872_400)
        #expect(try PTPDateTime(ptpString: "19691231T235959Z").secondsSince1970() == -1)
    }

    @Test func objectInfoExposesParsedDates() {
        let info = ObjectInfo(captureDate: "20120202T141654.0", modificationDate: "garbage")
        #expect(info.captureDateTime?.day == 2)
        #expect(info.modificationDateTime == nil)
    }
}
