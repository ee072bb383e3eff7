/// The encoder's output: a growable byte buffer with a 64-bit bit accumulator, MSB first, `0x00` stuffed after
/// every `0xFF` (T.81 F.1.2.3), 1-bit padding at the end of each entropy-coded segment (T.81 B.1.1.5).
///
/// It produces the same bytes as `WireFormat.BitWriter` (tested), but writes 32 bits at a time with a single store
/// when none of the four bytes is `0xFF`. Callers must ``reserve(_:)`` room before writing: the hot loop does not
/// check capacity on every write.
///
/// The value owns a manually allocated buffer so that the hot loop can keep the sink in registers: copies share
/// the buffer, ``reserve(_:)`` may move it, so only the latest copy may be used, and ``takeBytes()`` frees it.
struct LJ92BitSink {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written so far (stuffing included, pending bits excluded).
    private(set) var count = 0
    // Pending bits, right-aligned in the low `pendingCount` bits; bits above them are stale and ignored.
    private var accumulator: UInt64 = 0
    private var pendingCount = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        storage = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    /// Makes room for `byteCount` more bytes (stuffing included) beyond what is written and pending.
    mutating func reserve(_ byteCount: Int) {
        let needed = count + byteCount + 16
        guard needed > capacity else { return }
        let newCapacity = max(needed, capacity * 2)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: storage, count: count)
        storage.deallocate()
        storage = grown
        capacity = newCapacity
    }

    /// Appends bytes that are not entropy-coded (marker segments); pending bits must have been flushed.
    mutating func appendRaw(_ bytes: [UInt8]) {
        reserve(bytes.count)
        for byte in bytes {
            storage[count] = byte
            count += 1
        }
    }

    /// Appends the low `length` bits of `bits` (`length` ≤ 32, bits above `length` zero).
    @inline(__always)
    mutating func write(_ bits: UInt64, length: Int) {
        accumulator = (accumulator &<< UInt64(length)) | bits
        pendingCount &+= length
        if pendingCount >= 32 {
            pendingCount &-= 32
            emitWord(UInt32(truncatingIfNeeded: accumulator &>> UInt64(pendingCount)))
        }
    }

    /// Pads the pending bits with 1-bits to a byte boundary and writes them out (the end of a segment).
    mutating func flushWithPadding() {
        reserve(16)
        let fill = (8 &- pendingCount % 8) % 8
        accumulator = (accumulator &<< UInt64(fill)) | ((1 &<< UInt64(fill)) &- 1)
        pendingCount += fill
        while pendingCount >= 8 {
            pendingCount -= 8
            emitByte(UInt8(truncatingIfNeeded: accumulator &>> UInt64(pendingCount)))
        }
    }

    /// The bytes written, as an array; frees the buffer, so the sink must not be used afterwards.
    func takeBytes() -> [UInt8] {
        defer { storage.deallocate() }
        return [UInt8](UnsafeBufferPointer(start: storage, count: count))
    }

    /// Frees the buffer without reading it (when encoding fails half-way).
    func release() { storage.deallocate() }

    @inline(__always)
    private mutating func emitWord(_ word: UInt32) {
        // A byte of `word` is 0xFF exactly when the same byte of ~word is zero; this is the classic "has a zero
        // byte" test applied to ~word.
        let inverted = ~word
        if (inverted &- 0x0101_0101) & word & 0x8080_8080 == 0 {
            UnsafeMutableRawPointer(storage + count).storeBytes(of: word.bigEndian, as: UInt32.self)
            count &+= 4
        } else {
            emitByte(UInt8(truncatingIfNeeded: word &>> 24))
            emitByte(UInt8(truncatingIfNeeded: word &>> 16))
            emitByte(UInt8(truncatingIfNeeded: word &>> 8))
            emitByte(UInt8(truncatingIfNeeded: word))
        }
    }

    @inline(__always)
    private mutating func emitByte(_ byte: UInt8) {
        storage[count] = byte
        count &+= 1
        if byte == 0xFF {
            storage[count] = 0
            count &+= 1
        }
    }
}
