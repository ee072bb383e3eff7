/// The encoder's output: a growable byte buffer with a 64-bit bit accumulator, MSB first, `0x00` stuffed after
/// every `0xFF` (T.81 F.1.2.3), 1-bit padding at the end of each entropy-coded segment (T.81 B.1.1.5).
///
/// It produces the same bytes as `WireFormat.BitWriter` (tested), but with one 8-byte store per write and no
/// data-dependent branch unless a byte is `0xFF`. Callers must ``reserve(_:)`` room before writing (8 bytes per
/// write at most): the hot loop does not check capacity.
///
/// The value holds a raw pointer so that the hot loop can keep the sink in registers: copies share the buffer,
/// ``reserve(_:)`` may move it, so only the latest copy may be used. The buffer is either the sink's own (allocated
/// by ``init(capacity:)`` or by a growth, freed by ``takeBytes()`` or ``release()``) or lent by the caller
/// (``init(borrowing:)``: a tile encoder writes each tile straight into its output arena, so that no tile is
/// allocated, copied and freed). A sink that outgrows a lent buffer moves to a buffer of its own.
struct LJ92BitSink {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Whether `storage` is the sink's own allocation (false while it writes into a lent buffer).
    private var ownsStorage = true
    /// Bytes written so far (stuffing included, pending bits excluded).
    private(set) var count = 0
    // Pending bits, right-aligned in the low `pendingCount` bits (fewer than 8 between writes); bits above them are
    // stale and ignored.
    private var accumulator: UInt64 = 0
    private var pendingCount = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        storage = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    /// A sink that writes into `buffer`, which the caller keeps alive and frees; the last 16 bytes are slack that
    /// the 8-byte stores may overwrite. Should the stream need more, the sink moves to a buffer of its own
    /// (``isInLentBuffer`` turns false).
    init(borrowing buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count >= 64 else {
            preconditionFailure("a lent sink buffer of \(buffer.count) bytes; 64 or more")
        }
        storage = base.bindMemory(to: UInt8.self, capacity: buffer.count)
        capacity = buffer.count
        ownsStorage = false
    }

    /// Whether the bytes are still in the buffer given to ``init(borrowing:)``, from its start.
    var isInLentBuffer: Bool { !ownsStorage }

    /// The bytes written so far; valid until the next write, ``takeBytes()`` or ``release()``.
    var writtenBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage, count: count) }

    /// Makes room for `byteCount` more bytes (stuffing included) beyond what is written and pending.
    mutating func reserve(_ byteCount: Int) {
        let needed = count + byteCount + 16
        guard needed > capacity else { return }
        let newCapacity = max(needed, capacity * 2)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: storage, count: count)
        if ownsStorage { storage.deallocate() }
        storage = grown
        capacity = newCapacity
        ownsStorage = true
    }

    /// Appends bytes that are not entropy-coded (marker segments); pending bits must have been flushed.
    mutating func appendRaw(_ bytes: [UInt8]) {
        reserve(bytes.count)
        for byte in bytes {
            storage[count] = byte
            count += 1
        }
    }

    /// Appends the low `length` bits of `bits` (`length` 1…56, bits above `length` zero).
    ///
    /// Branch-free in the common case: the pending bits are stored as one big-endian 8-byte word at the output
    /// position on every call, and the position advances by the whole bytes among them; fewer than 8 bits stay
    /// pending. Only when one of those bytes is `0xFF` does the slow path write them one by one with stuffing.
    /// This needs 8 bytes of slack beyond the data, which ``reserve(_:)`` keeps.
    @inline(__always)
    mutating func write(_ bits: UInt64, length: Int) {
        accumulator = (accumulator &<< UInt64(truncatingIfNeeded: length)) | bits
        pendingCount &+= length
        // Left-align the pending bits (1…63 of them); the stale bits above them fall off.
        let word = accumulator &<< UInt64(truncatingIfNeeded: 64 &- pendingCount)
        UnsafeMutableRawPointer(storage + count).storeBytes(of: word.bigEndian, as: UInt64.self)
        let whole = pendingCount &>> 3
        // A byte of `word` is 0xFF exactly when the same byte of ~word is zero (the classic "has a zero byte" test
        // on ~word; it may also flag bytes above a real 0xFF, which only costs a trip down the slow path). Bytes
        // past the pending bits are zero and a partial byte ends in zeros, so only whole bytes can be 0xFF and the
        // whole word can be tested.
        if (~word &- 0x0101_0101_0101_0101) & word & 0x8080_8080_8080_8080 == 0 {
            count &+= whole
        } else {
            var shift: UInt64 = 56
            for _ in 0..<whole {
                emitByte(UInt8(truncatingIfNeeded: word &>> shift))
                shift &-= 8
            }
        }
        pendingCount &= 7
    }

    /// Pads the pending bits with 1-bits to a byte boundary and writes them out (the end of a segment).
    mutating func flushWithPadding() {
        reserve(16)
        guard pendingCount > 0 else { return }
        let fill = 8 &- pendingCount
        let byte = (accumulator &<< UInt64(fill)) | ((1 &<< UInt64(fill)) &- 1)
        emitByte(UInt8(truncatingIfNeeded: byte))
        pendingCount = 0
    }

    /// The bytes written, as an array; frees the sink's own buffer, so the sink must not be used afterwards.
    func takeBytes() -> [UInt8] {
        defer { release() }
        return [UInt8](UnsafeBufferPointer(start: storage, count: count))
    }

    /// Frees the sink's own buffer (a lent one stays the caller's); the sink must not be used afterwards.
    func release() {
        if ownsStorage { storage.deallocate() }
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
