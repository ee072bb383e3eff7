/// Reads bit fields most significant bit first from a JPEG entropy-coded segment.
///
/// It undoes the writer's byte stuffing (a `0x00` after each data `0xFF`, ITU T.81 F.1.2.3) and stops at the first
/// marker: a `0xFF` followed by anything but `0x00` (fill bytes `0xFF` included, T.81 B.1.1.2). A read that needs
/// bits beyond the marker or the end of the input throws ``WireError/Code/truncated``, and ``marker`` tells which
/// marker ended the data. Nothing traps, whatever the bytes.
///
/// This is the general, easy-to-audit reader; the lossless JPEG decoder's hot loop uses its own bit buffer, which
/// is tested to agree with this one.
public struct BitReader: Sendable {
    private let bytes: ArraySlice<UInt8>
    private var index: Int
    // Bits loaded but not yet consumed, right-aligned; never more than 39 of them.
    private var buffer: UInt64 = 0
    private var bufferCount = 0

    /// The second byte of the marker that ended the data (`0xD9` for EOI), once a read has reached it.
    public private(set) var marker: UInt8?

    /// Creates a reader over `bytes`; offsets are indices into the slice's base array.
    public init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.index = bytes.startIndex
    }

    /// Creates a reader over a whole array; offsets start at zero.
    public init(_ bytes: [UInt8]) {
        self.init(bytes[...])
    }

    /// The absolute offset of the first byte not yet loaded. After ``alignToByte()`` at the end of a segment, it is
    /// the offset of the marker that follows.
    public var offset: Int { index }

    /// How many loaded bits are still unread (fewer than 8 once reads are done and bits are loaded byte by byte).
    public var bufferedBitCount: Int { bufferCount }

    /// Reads `count` bits (0…32) as an unsigned number, first bit most significant.
    ///
    /// - Throws: ``WireError/Code/truncated`` when a marker or the end of the input comes first;
    ///   ``WireError/Code/invalidValue`` when `count` is outside 0…32.
    public mutating func read(count: Int) throws(WireError) -> UInt32 {
        guard (0...32).contains(count) else {
            throw WireError(.invalidValue, at: index, "bit count \(count) is outside 0...32")
        }
        while bufferCount < count { try loadByte() }
        bufferCount -= count
        let value = UInt32(truncatingIfNeeded: buffer >> UInt64(bufferCount))
        buffer &= (1 << UInt64(bufferCount)) &- 1
        return count == 32 ? value : value & ((1 << UInt32(count)) &- 1)
    }

    /// Drops the unread bits of the current byte (the 1-bit padding before a marker, T.81 B.1.1.5 note 1).
    public mutating func alignToByte() {
        bufferCount -= bufferCount % 8
        buffer &= (1 << UInt64(bufferCount)) &- 1
    }

    /// The bits that ``alignToByte()`` would drop, with their count; a conforming encoder pads with 1-bits only.
    public var paddingBits: (value: UInt32, count: Int) {
        let count = bufferCount % 8
        return (UInt32(truncatingIfNeeded: buffer & ((1 << UInt64(count)) &- 1)), count)
    }

    private mutating func loadByte() throws(WireError) {
        guard index < bytes.endIndex else {
            throw WireError(.truncated, at: index, "entropy-coded data ends before the bits needed")
        }
        let byte = bytes[index]
        if byte == 0xFF {
            let next = index + 1 < bytes.endIndex ? bytes[index + 1] : nil
            guard next == 0x00 else {
                marker = next
                let name = next.map { "marker 0xFF\(Self.hex($0))" } ?? "a lone 0xFF"
                throw WireError(.truncated, at: index, "\(name) ends the entropy-coded data")
            }
            index += 2
        } else {
            index += 1
        }
        buffer = (buffer << 8) | UInt64(byte)
        bufferCount += 8
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0" + digits : digits
    }
}
