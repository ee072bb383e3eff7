import Testing
import WireFormat

@testable import LosslessJPEG

/// The codec's specialised bit buffers must agree with the general `BitWriter` and `BitReader` of WireFormat, which
/// are checked against the shared table of T.81 bit/byte cases.
@Suite struct LJ92BitBufferTests {
    /// Random fields of 0…31 bits, biased towards 1-bits so 0xFF bytes (and stuffing) are frequent.
    static func randomFields(seed: UInt64, count: Int) -> [(value: UInt32, length: Int)] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let length = Int(generator.next() % 32)
            let value = UInt32(truncatingIfNeeded: generator.next() | generator.next() | generator.next())
            return (length == 0 ? 0 : value & UInt32((UInt64(1) << UInt64(length)) - 1), length)
        }
    }

    @Test(arguments: 0..<20)
    func sinkMatchesBitWriter(seed: Int) {
        let fields = Self.randomFields(seed: UInt64(seed), count: seed * 37)
        var writer = BitWriter()
        var sink = LJ92BitSink(capacity: 0)
        sink.reserve(fields.count * 8)
        for (value, length) in fields {
            writer.write(value, count: length)
            sink.write(UInt64(value), length: length)
        }
        writer.padToByteBoundary()
        sink.flushWithPadding()
        #expect(sink.takeBytes() == writer.bytes)
    }

    @Test func sinkGrowsAndKeepsRawBytes() {
        var sink = LJ92BitSink(capacity: 1)
        for _ in 0..<1000 {
            sink.reserve(8)
            sink.write(0x3FF, length: 10)
        }
        sink.flushWithPadding()
        sink.appendRaw([0xFF, 0xD9])
        var writer = BitWriter()
        for _ in 0..<1000 { writer.write(0x3FF, count: 10) }
        writer.padToByteBoundary()
        #expect(sink.takeBytes() == writer.bytes + [0xFF, 0xD9])
    }

    @Test(arguments: 0..<20)
    func sourceMatchesBitReader(seed: Int) throws {
        let fields = Self.randomFields(seed: UInt64(1000 + seed), count: 50 + seed * 31)
        var writer = BitWriter()
        for (value, length) in fields { writer.write(value, count: length) }
        writer.padToByteBoundary()
        let bytes = writer.bytes + [0xFF, 0xD9]
        var reader = BitReader(bytes)
        try bytes.withUnsafeBufferPointer { buffer in
            let data = try #require(buffer.baseAddress)
            var source = LJ92BitSource(data: data, start: 0, end: buffer.count)
            for (_, length) in fields {
                let expected = try reader.read(count: length)
                if source.cacheBits < 32 { source.refill() }
                let actual = length == 0 ? 0 : source.peek(length)
                source.consume(length)
                #expect(actual == expected)
            }
            #expect(!source.hasOverrun)
            // Reading past the padding reaches the marker: the reader throws, the source overruns.
            let padding = reader.paddingBits.count
            reader.alignToByte()
            #expect(throws: WireError(.truncated)) { try reader.read(count: 1) }
            #expect(reader.marker == 0xD9)
            if source.cacheBits < 32 { source.refill() }
            source.consume(padding)
            #expect(!source.hasOverrun)
            source.consume(1)
            #expect(source.hasOverrun)
            #expect(source.nextMarker() == bytes.count - 1)
        }
    }

    @Test func sourceFindsTheMarkerAfterStuffedBytesAndFill() throws {
        let bytes: [UInt8] = [0xAB, 0xFF, 0x00, 0x12, 0xFF, 0xFF, 0xFF, 0xD3, 0x00]
        try bytes.withUnsafeBufferPointer { buffer in
            var source = LJ92BitSource(data: try #require(buffer.baseAddress), start: 0, end: buffer.count)
            source.refill()
            #expect(source.peek(24) == 0xABFF12)
            source.consume(24)
            #expect(!source.hasOverrun)
            #expect(source.nextMarker() == 7)
        }
    }
}
