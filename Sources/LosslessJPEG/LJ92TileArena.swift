import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The memory that holds a plane's encoded tiles while they wait to be written (``LJ92TileStream``): slabs of
/// 4 MiB or more, mapped when a worker needs one and unmapped together when the arena is released.
///
/// Each tile worker writes its tiles one after another into a slab of its own (``LJ92ArenaCursor``), straight from
/// the bit sink, so a tile costs no allocation, no copy and no free. Taking a fresh buffer per tile instead (and
/// copying it into an array) made glibc hand back and re-take its heap top between tiles: a 24 MP lossless convert
/// took 1.5 times the page faults of an uncompressed one, 3 times at 100 MP. Slabs are 2 MiB-aligned and advised for
/// transparent huge pages (`MADV_HUGEPAGE`), so where the kernel allows it, 2 MiB fault in at a time.
final class LJ92TileArena: Sendable {
    /// The size of an ordinary slab; a tile larger than that gets a slab of its own, rounded up to 2 MiB.
    static let slabByteCount = 4 << 20
    /// Slab alignment and size granule: a transparent huge page.
    static let hugePageByteCount = 2 << 20

    /// Every slab mapped so far, as (address, byte count).
    private let slabs = Mutex<[(address: UInt, byteCount: Int)]>([])

    init() {}

    deinit {
        slabs.withLock { slabs in
            for slab in slabs { Self.unmap(address: slab.address, byteCount: slab.byteCount) }
        }
    }

    /// Total bytes mapped (tests).
    var mappedByteCount: Int { slabs.withLock { $0.reduce(0) { $0 + $1.byteCount } } }

    /// A new slab of at least `byteCount` bytes, valid until the arena is released.
    ///
    /// - Throws: ``LJ92Error/Code/outOfMemory`` when the system has no memory to map.
    func makeSlab(atLeast byteCount: Int) throws(LJ92Error) -> UnsafeMutableRawBufferPointer {
        let granule = Self.hugePageByteCount
        let size = max(Self.slabByteCount, (byteCount + granule - 1) / granule * granule)
        let base = try Self.map(byteCount: size)
        slabs.withLock { $0.append((UInt(bitPattern: base), size)) }
        return UnsafeMutableRawBufferPointer(start: base, count: size)
    }

    #if canImport(Glibc)
        /// Maps `byteCount` (a multiple of 2 MiB) bytes at a 2 MiB boundary: one mapping 2 MiB longer, trimmed at
        /// both ends.
        private static func map(byteCount: Int) throws(LJ92Error) -> UnsafeMutableRawPointer {
            let granule = hugePageByteCount
            let mapped = mmap(nil, byteCount + granule, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            // MAP_FAILED is (void *) -1, a macro Swift does not import.
            guard let mapped, mapped != UnsafeMutableRawPointer(bitPattern: -1) else {
                throw LJ92Error(.outOfMemory, "mmap of \(byteCount + granule) bytes for encoded tiles: errno \(errno)")
            }
            let start = (UInt(bitPattern: mapped) + UInt(granule) - 1) & ~UInt(granule - 1)
            let head = Int(start - UInt(bitPattern: mapped))
            if head > 0 { munmap(mapped, head) }
            let tail = granule - head
            if tail > 0, let end = UnsafeMutableRawPointer(bitPattern: start + UInt(byteCount)) {
                munmap(end, tail)
            }
            // The trimming leaves exactly [start, start + byteCount) mapped, which is not null.
            guard let base = UnsafeMutableRawPointer(bitPattern: start) else {
                throw LJ92Error(.outOfMemory, "mmap returned an unusable address")
            }
            // Advisory: without transparent huge pages nothing changes.
            _ = madvise(base, byteCount, MADV_HUGEPAGE)
            return base
        }

        private static func unmap(address: UInt, byteCount: Int) {
            guard let base = UnsafeMutableRawPointer(bitPattern: address) else { return }
            munmap(base, byteCount)
        }
    #else
        private static func map(byteCount: Int) throws(LJ92Error) -> UnsafeMutableRawPointer {
            UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: hugePageByteCount)
        }

        private static func unmap(address: UInt, byteCount: Int) {
            UnsafeMutableRawPointer(bitPattern: address)?.deallocate()
        }
    #endif
}

/// One encoded tile's stream, in memory that its owner (an ``LJ92TileArena``) keeps alive.
struct LJ92TileBytes: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
}

/// Where a tile worker puts the streams it encodes: it lends the encoder a sink sized by pass 1, then keeps the
/// finished stream as a ``Tile``.
protocol LJ92TileOutput: SendableMetatype {
    associatedtype Tile
    /// A sink with room for about `capacity` bytes.
    mutating func sink(capacity: Int) throws(LJ92Error) -> LJ92BitSink
    /// The finished stream in `sink`, kept; releases whatever `sink` owns.
    mutating func keep(_ sink: LJ92BitSink) throws(LJ92Error) -> Tile
}

/// A worker's place in an ``LJ92TileArena``: the unused rest of its current slab. Each tile is encoded in place
/// there; when pass 1's estimate does not fit the rest, the worker starts a new slab (the rest, less than a tile,
/// stays unused).
struct LJ92ArenaCursor: LJ92TileOutput {
    let arena: LJ92TileArena
    private var free = UnsafeMutableRawBufferPointer(start: nil, count: 0)

    init(arena: LJ92TileArena) { self.arena = arena }

    mutating func sink(capacity: Int) throws(LJ92Error) -> LJ92BitSink {
        // The sink's 8-byte stores write up to 16 bytes past its data.
        if free.count < capacity + 16 { free = try arena.makeSlab(atLeast: capacity + 16) }
        return LJ92BitSink(borrowing: free)
    }

    mutating func keep(_ sink: LJ92BitSink) throws(LJ92Error) -> LJ92TileBytes {
        let written = sink.writtenBytes
        if sink.isInLentBuffer {
            free = UnsafeMutableRawBufferPointer(rebasing: free[written.count...])
            return LJ92TileBytes(bytes: written)
        }
        // The stream outgrew the estimate and moved to a buffer of the sink's own: copy it into a new slab.
        defer { sink.release() }
        let slab = try arena.makeSlab(atLeast: written.count + 16)
        slab.copyMemory(from: written)
        free = UnsafeMutableRawBufferPointer(rebasing: slab[written.count...])
        return LJ92TileBytes(bytes: UnsafeRawBufferPointer(rebasing: slab[..<written.count]))
    }
}

/// A worker's buffer for tiles returned as arrays (``LJ92TiledEncoder/encode(_:width:height:rowStride:)-(UnsafeBufferPointer<UInt16>,_,_,_)``):
/// one buffer encoded into for every tile, grown when a tile needs more, each stream copied out into its array.
final class LJ92ArrayOutput: LJ92TileOutput {
    private var buffer = UnsafeMutableRawBufferPointer(start: nil, count: 0)

    init() {}

    deinit { buffer.deallocate() }

    func sink(capacity: Int) throws(LJ92Error) -> LJ92BitSink {
        if buffer.count < capacity + 16 {
            buffer.deallocate()
            buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(capacity + 16, 64), alignment: 16)
        }
        return LJ92BitSink(borrowing: buffer)
    }

    func keep(_ sink: LJ92BitSink) throws(LJ92Error) -> [UInt8] {
        defer { sink.release() }
        return [UInt8](sink.writtenBytes)
    }
}
