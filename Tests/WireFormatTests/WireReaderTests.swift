import Testing
import WireFormat

@Suite struct WireReaderTests {
    @Test func readsLittleAndBigEndianIntegers() throws {
        var little = WireReader([0x01, 0x02, 0x03, 0x04], byteOrder: .little)
        #expect(try little.read(UInt32.self) == 0x0403_0201)
        var big = WireReader([0x01, 0x02, 0x03, 0x04], byteOrder: .big)
        #expect(try big.read(UInt16.self) == 0x0102)
        #expect(try big.read(UInt16.self) == 0x0304)
        #expect(big.isAtEnd)
    }

    @Test func truncatedReadThrowsWithOffset() throws {
        var reader = WireReader([0xAA, 0xBB, 0xCC], byteOrder: .little)
        _ = try reader.read(UInt8.self)
        let error = #expect(throws: WireError(.truncated)) { try reader.read(UInt32.self) }
        #expect(error?.offset == 1)
    }

    @Test func arrayCountIsCheckedBeforeAllocating() {
        // Count 0xFFFFFFFF with two bytes of payload: must throw, not allocate 16 GiB.
        var reader = WireReader([0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x00], byteOrder: .little)
        #expect(throws: WireError(.limitExceeded)) { try reader.readArray(of: UInt32.self) }
        var short = WireReader([0x02, 0x00, 0x00, 0x00, 0x01, 0x00], byteOrder: .little)
        #expect(throws: WireError(.truncated)) { try short.readArray(of: UInt16.self) }
    }

    @Test func subReaderIsBoundedAndKeepsAbsoluteOffsets() throws {
        var reader = WireReader([1, 2, 3, 4, 5, 6], byteOrder: .little)
        try reader.skip(1)
        var sub = try reader.readReader(count: 2)
        #expect(sub.offset == 1)
        #expect(try sub.read(UInt16.self) == 0x0302)
        #expect(throws: WireError(.truncated)) { try sub.read(UInt8.self) }
        #expect(reader.offset == 3)
    }

    @Test func writerRoundTripsAndBackPatches() throws {
        var writer = WireWriter(byteOrder: .little)
        writer.write(UInt32(0))
        writer.write(UInt16(0x1001))
        writer.writeArray([UInt16(1), 2])
        writer.set(UInt32(writer.count), at: 0)
        #expect(writer.bytes == [14, 0, 0, 0, 0x01, 0x10, 2, 0, 0, 0, 1, 0, 2, 0])
        var reader = WireReader(writer.bytes, byteOrder: .little)
        #expect(try reader.read(UInt32.self) == 14)
        #expect(try reader.read(UInt16.self) == 0x1001)
        #expect(try reader.readArray(of: UInt16.self) == [1, 2])
        try reader.expectEnd("test value")
    }
}
