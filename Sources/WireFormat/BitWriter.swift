/// Appends bit fields most significant bit first, as JPEG's entropy-coded segments need.
///
/// Every `0xFF` byte that reaches the output is followed by a stuffed `0x00`, so a decoder can tell data from a
/// marker (ITU T.81 B.1.1.5 note 2, F.1.2.3). ``padToByteBoundary()`` completes the last byte with 1-bits, as
/// T.81 B.1.1.5 note 1 requires before a marker; a padding byte that comes out as `0xFF` is stuffed too.
///
/// This is the general, easy-to-audit writer; the lossless JPEG encoder's hot loop uses its own buffer, which is
/// tested to produce the same bytes.
public struct BitWriter: Sendable {
    /// The bytes completed so far, stuffing included; bits of an unfinished byte are not in it yet.
    public private(set) var bytes: [UInt8]
    // Pending bits, right-aligned; fewer than 8 between calls.
    private var pending: UInt64 = 0
    private var pendingCount = 0
    /// How many bits have been written, padding included and stuffed bytes excluded.
    public private(set) var bitCount = 0

    /// Creates an empty writer, optionally reserving room for `capacity` bytes.
    public init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends the low `count` bits of `value`, most significant first; higher bits of `value` are ignored.
    ///
    /// - Precondition: `count` is in `0...32` (a programming error otherwise, never a property of input data).
    public mutating func write(_ value: UInt32, count: Int) {
        precondition((0...32).contains(count), "BitWriter.write: bit count \(count) is outside 0...32")
        guard count > 0 else { return }
        let mask: UInt64 = (1 << UInt64(count)) &- 1
        pending = (pending << UInt64(count)) | (UInt64(value) & mask)
        pendingCount += count
        bitCount += count
        while pendingCount >= 8 {
            pendingCount -= 8
            append(UInt8(truncatingIfNeeded: pending >> UInt64(pendingCount)))
        }
        pending &= (1 << UInt64(pendingCount)) &- 1
    }

    /// Whether the next bit starts a new byte.
    public var isByteAligned: Bool { pendingCount == 0 }

    /// Completes the current byte with 1-bits (T.81 B.1.1.5 note 1); does nothing when already aligned.
    public mutating func padToByteBoundary() {
        guard pendingCount > 0 else { return }
        let fill = 8 - pendingCount
        write((1 << UInt32(fill)) - 1, count: fill)
    }

    /// Appends a byte that is not entropy-coded (a marker or segment) after padding to a byte boundary.
    ///
    /// Used to emit RSTn markers between restart intervals: these bytes are never stuffed.
    public mutating func appendUnstuffed(_ raw: [UInt8]) {
        padToByteBoundary()
        bytes.append(contentsOf: raw)
    }

    private mutating func append(_ byte: UInt8) {
        bytes.append(byte)
        if byte == 0xFF { bytes.append(0x00) }
    }
}
