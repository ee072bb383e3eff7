/// Appends integers and bytes in one byte order; back-patches lengths and offsets once they are known.
public struct WireWriter: Sendable {
    /// The byte order used by every multi-byte write.
    public let byteOrder: ByteOrder
    @usableFromInline internal var storage: [UInt8]
    /// Everything written so far.
    public var bytes: [UInt8] { storage }

    /// Creates an empty writer, optionally reserving room for `capacity` bytes.
    public init(byteOrder: ByteOrder, capacity: Int = 0) {
        self.byteOrder = byteOrder
        self.storage = []
        storage.reserveCapacity(capacity)
    }

    /// The number of bytes written, which is also the offset of the next byte.
    public var count: Int { storage.count }

    /// Appends one integer in the writer's byte order.
    @inlinable
    public mutating func write<T: FixedWidthInteger>(_ value: T) {
        let size = MemoryLayout<T>.size
        switch byteOrder {
        case .little:
            for index in 0..<size { storage.append(UInt8(truncatingIfNeeded: value >> (index * 8))) }
        case .big:
            for index in (0..<size).reversed() { storage.append(UInt8(truncatingIfNeeded: value >> (index * 8))) }
        }
    }

    /// Appends raw bytes.
    public mutating func write<S: Sequence>(bytes source: S) where S.Element == UInt8 {
        storage.append(contentsOf: source)
    }

    /// Appends a `UInt32` count followed by the elements (a PTP array).
    public mutating func writeArray<T: FixedWidthInteger>(_ values: [T]) {
        write(UInt32(truncatingIfNeeded: values.count))
        for value in values { write(value) }
    }

    /// Overwrites the integer at `offset`, which must already have been written (a length or offset back-patch).
    public mutating func set<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        let size = MemoryLayout<T>.size
        precondition(offset >= 0 && offset + size <= storage.count, "back-patch at \(offset) outside written bytes")
        for index in 0..<size {
            let shift = byteOrder == .little ? index * 8 : (size - 1 - index) * 8
            storage[offset + index] = UInt8(truncatingIfNeeded: value >> shift)
        }
    }
}
