import PTP
import Testing
import WireFormat

/// Canon EOS ImageFormat (0xD120), as libgphoto2 `ptp-pack.c` `ptp_unpack_EOS_ImageFormat` documents it.
@Suite struct CanonEOSImageFormatTests {
    /// RAW + Large Fine JPEG: 2 files, each 0x10 bytes: type 6 (RAW) size 0 compression 4, type 1 (JPEG) size 0
    /// compression 3.
    static let rawPlusJPEG: [UInt8] = [
        0x02, 0, 0, 0,  // two files
        0x10, 0, 0, 0, 0x06, 0, 0, 0, 0x00, 0, 0, 0, 0x04, 0, 0, 0,  // RAW, Large, Lossless
        0x10, 0, 0, 0, 0x01, 0, 0, 0, 0x00, 0, 0, 0, 0x03, 0, 0, 0,  // JPEG, Large, Fine
    ]

    @Test func decodesAndReencodesRawPlusJPEG() throws {
        let format = try CanonEOSImageFormat(ptpEncoded: Self.rawPlusJPEG)
        #expect(format == .rawPlusJPEG)
        #expect(format.includesRaw && format.includesJPEG)
        #expect(format.ptpEncoded == Self.rawPlusJPEG)
        #expect(CanonEOSImageFormat.raw.includesRaw && !CanonEOSImageFormat.raw.includesJPEG)
    }

    @Test func rejectsEveryTruncationAndBadCounts() {
        for length in 0..<Self.rawPlusJPEG.count {
            #expect(throws: WireError.self, "prefix of \(length) bytes") {
                try CanonEOSImageFormat(ptpEncoded: Array(Self.rawPlusJPEG.prefix(length)))
            }
        }
        var three = Self.rawPlusJPEG
        three[0] = 3
        #expect(throws: WireError(.invalidValue)) { try CanonEOSImageFormat(ptpEncoded: three) }
        var badEntry = Self.rawPlusJPEG
        badEntry[4] = 0x14
        #expect(throws: WireError(.invalidValue)) { try CanonEOSImageFormat(ptpEncoded: badEntry) }
    }

    @Test func readsTheOfferedValuesOfAnAvailableList() throws {
        let values = CanonEOSImageFormat.raw.ptpEncoded + Self.rawPlusJPEG
        let list = CanonEOSAvailableList(
            property: CanonEOSImageFormat.property, listType: CanonEOSAvailableList.fourByteSlots, count: 2,
            values: values)
        #expect(try CanonEOSImageFormat.list(list) == [.raw, .rawPlusJPEG])
        let lying = CanonEOSAvailableList(
            property: CanonEOSImageFormat.property, listType: 3, count: 9, values: values)
        #expect(throws: WireError.self) { try CanonEOSImageFormat.list(lying) }
    }
}
