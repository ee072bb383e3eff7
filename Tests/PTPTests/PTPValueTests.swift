import PTP
import Testing
import WireFormat

@Suite struct PTPValueTests {
    /// One value of every type with its spec encoding (little-endian; arrays are a UINT32 count then elements).
    static let cases: [(DataTypeCode, String, PTPValue)] = [
        (.int8, "ff", .int8(-1)),
        (.uint8, "32", .uint8(50)),
        (.int16, "fe ff", .int16(-2)),
        (.uint16, "90 01", .uint16(400)),
        (.int32, "fd ff ff ff", .int32(-3)),
        (.uint32, "40 42 0f 00", .uint32(1_000_000)),
        (.int64, "fc ff ff ff ff ff ff ff", .int64(-4)),
        (.uint64, "00 00 00 00 01 00 00 00", .uint64(1 << 32)),
        (
            .int128, "01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10",
            .int128(PTPRaw128(low: 0x0807_0605_0403_0201, high: 0x100F_0E0D_0C0B_0A09))
        ),
        (.uint128, "ff ff ff ff ff ff ff ff 00 00 00 00 00 00 00 80", .uint128(PTPRaw128(low: .max, high: 1 << 63))),
        (.array(of: .uint16), "02 00 00 00  01 10  02 10", .array(.uint16, [.uint16(0x1001), .uint16(0x1002)])),
        (.array(of: .int8), "00 00 00 00", .array(.int8, [])),
        (
            .array(of: .uint128), "01 00 00 00  01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00",
            .array(.uint128, [.uint128(PTPRaw128(low: 1, high: 0))])
        ),
        (.string, "03 49 00 53 00 00 00", .string("IS")),
        (.string, "00", .string("")),
    ]

    @Test(arguments: 0..<cases.count)
    func decodesAndReencodesEveryType(index: Int) throws {
        let (type, hex, value) = Self.cases[index]
        let bytes = hexBytes(hex)
        #expect(try PTPValue(ptpEncoded: bytes, type: type) == value)
        #expect(value.ptpEncoded == bytes)
        #expect(value.dataType == type)
    }

    @Test(arguments: 0..<cases.count)
    func rejectsEveryTruncation(index: Int) {
        let (type, hex, _) = Self.cases[index]
        let bytes = hexBytes(hex)
        for length in 0..<bytes.count {
            #expect(throws: WireError(.truncated), "\(type) prefix of \(length)") {
                try PTPValue(ptpEncoded: Array(bytes.prefix(length)), type: type)
            }
        }
    }

    @Test func rejectsTypesThatAreNotValues() {
        for type: UInt16 in [0x0000, 0x000B, 0x4000, 0x400B, 0x8004, 0xFFFE] {
            #expect(throws: WireError(.invalidValue), "type \(type)") {
                try PTPValue(ptpEncoded: [0, 0, 0, 0], type: DataTypeCode(type))
            }
        }
    }

    @Test func arrayCountsAreBoundedBeforeAllocating() {
        #expect(throws: WireError(.limitExceeded)) {
            try PTPValue(ptpEncoded: [0xFF, 0xFF, 0xFF, 0xFF], type: .array(of: .uint8))
        }
        // 1 Mi elements of 16 bytes with nothing behind them.
        #expect(throws: WireError(.truncated)) {
            try PTPValue(ptpEncoded: [0x00, 0x00, 0x10, 0x00], type: .array(of: .uint128))
        }
    }

    @Test func integersConvertExactly() throws {
        #expect(try PTPValue(200, as: .uint8) == .uint8(200))
        #expect(throws: WireError(.doesNotFit)) { try PTPValue(256, as: .uint8) }
        #expect(throws: WireError(.doesNotFit)) { try PTPValue(-1, as: .uint32) }
        #expect(throws: WireError(.invalidValue)) { try PTPValue(1, as: .string) }
        #expect(PTPValue.uint64(.max).integerValue == nil)
        #expect(PTPValue.int16(-5).integerValue == -5)
        #expect(PTPValue.string("x").stringValue == "x")
        #expect(PTPRaw128(bytes: Array(repeating: 1, count: 15)) == nil)
        #expect(PTPRaw128(bytes: Array(0..<16))?.bytes == Array(0..<16))
    }
}
