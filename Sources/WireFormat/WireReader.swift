/// A cursor over untrusted bytes. Every read is bounds-checked and throws; nothing traps.
///
/// One reader type handles all external input: PTP containers and datasets, PTP/IP packets, pcapng blocks and
/// TIFF IFDs. The byte order belongs to the reader, not to each call. ``offset`` is absolute (the index into the
/// original buffer), so errors point at the byte that was wrong.
public struct WireReader: Sendable {
    /// The byte order used by every multi-byte read.
    public let byteOrder: ByteOrder
    @usableFromInline internal var bytes: ArraySlice<UInt8>

    /// Creates a reader over `bytes`; offsets are indices into the slice's base array.
    @inlinable
    public init(_ bytes: ArraySlice<UInt8>, byteOrder: ByteOrder) {
        self.bytes = bytes
        self.byteOrder = byteOrder
    }

    /// Creates a reader over a whole array; offsets start at zero.
    public init(_ bytes: [UInt8], byteOrder: ByteOrder) {
        self.init(bytes[...], byteOrder: byteOrder)
    }

    /// The absolute position of the next byte to read.
    @inlinable public var offset: Int { bytes.startIndex }
    /// How many bytes are left.
    @inlinable public var remainingCount: Int { bytes.count }
    /// Whether every byte has been read.
    public var isAtEnd: Bool { bytes.isEmpty }
    /// The bytes not yet read, without consuming them.
    public var remainingBytes: ArraySlice<UInt8> { bytes }

    /// Reads one integer in the reader's byte order.
    ///
    /// Inlinable so that callers in other modules (every dataset decoder) get a specialised read rather than a
    /// generic call per field: PTP measured 20,600 DeviceInfo decodes/s before this.
    @inlinable
    public mutating func read<T: FixedWidthInteger>(_: T.Type = T.self) throws(WireError) -> T {
        let size = MemoryLayout<T>.size
        guard size <= bytes.count else {
            throw WireError(.truncated, at: offset, "need \(size) bytes for \(T.self), \(bytes.count) left")
        }
        var value = T.zero
        let start = bytes.startIndex
        switch byteOrder {
        case .little:
            for index in 0..<size { value |= T(truncatingIfNeeded: bytes[start + index]) << (index * 8) }
        case .big:
            for index in 0..<size { value = (value << 8) | T(truncatingIfNeeded: bytes[start + index]) }
        }
        bytes = bytes.dropFirst(size)
        return value
    }

    /// Reads `count` raw bytes.
    @inlinable
    public mutating func readBytes(count: Int) throws(WireError) -> ArraySlice<UInt8> {
        try take(count)
    }

    /// Carves out a bounded reader for the next `count` bytes (a data phase, a packet, an IFD) and skips them.
    public mutating func readReader(count: Int) throws(WireError) -> WireReader {
        WireReader(try take(count), byteOrder: byteOrder)
    }

    /// Skips `count` bytes.
    public mutating func skip(_ count: Int) throws(WireError) {
        _ = try take(count)
    }

    /// Reads the rest of the input.
    public mutating func readRemaining() -> ArraySlice<UInt8> {
        defer { bytes = bytes[bytes.endIndex...] }
        return bytes
    }

    /// Reads a `UInt32` count followed by that many integers (a PTP array). The count is checked against the
    /// bytes that remain and against `limit` before anything is allocated.
    public mutating func readArray<T: FixedWidthInteger>(
        of _: T.Type,
        limit: Int = WireLimits.maxPTPArrayCount
    ) throws(WireError) -> [T] {
        let countOffset = offset
        let count = Int(try read(UInt32.self))
        guard count <= limit else {
            throw WireError(.limitExceeded, at: countOffset, "array of \(count) × \(T.self) exceeds \(limit)")
        }
        let (size, overflow) = count.multipliedReportingOverflow(by: MemoryLayout<T>.size)
        guard !overflow, size <= bytes.count else {
            throw WireError(.truncated, at: countOffset, "array of \(count) × \(T.self), \(bytes.count) bytes left")
        }
        var result = [T]()
        result.reserveCapacity(count)
        for _ in 0..<count { result.append(try read(T.self)) }
        return result
    }

    /// Throws ``WireError/Code/trailingBytes`` unless every byte has been read; `what` names the value.
    public func expectEnd(_ what: @autoclosure () -> String) throws(WireError) {
        guard bytes.isEmpty else {
            throw WireError(.trailingBytes, at: offset, "\(bytes.count) bytes after \(what())")
        }
    }

    @inlinable
    internal mutating func take(_ count: Int) throws(WireError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= bytes.count else {
            throw WireError(.truncated, at: offset, "need \(count) bytes, \(bytes.count) left")
        }
        defer { bytes = bytes.dropFirst(count) }
        return bytes.prefix(count)
    }
}
