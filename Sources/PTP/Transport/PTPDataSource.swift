/// Where the bytes of a host-to-device data phase come from (SetDevicePropValue's value, SendObjectInfo's
/// dataset, SendObject's file).
///
/// Reads are by offset, so a source is a plain `Sendable` value that a transport may read in any chunking and a
/// responder may serve twice (a retried GetPartialObject).
public protocol PTPDataSource: Sendable {
    /// The total number of bytes.
    var byteCount: UInt64 { get }
    /// Returns between 1 and `maxByteCount` bytes starting at `offset`, which is below ``byteCount``.
    func read(at offset: UInt64, maxByteCount: Int) async throws -> [UInt8]
    /// Between 1 and `maxByteCount` bytes starting at `offset` (below ``byteCount``) without a copy, when the
    /// source holds them in memory and never waits; `nil` when it does not (the default), and a sender reads.
    func bytesInMemory(at offset: UInt64, maxByteCount: Int) -> ArraySlice<UInt8>?
}

extension PTPDataSource {
    /// Sources that compute, pace or wait use this default: no bytes in memory.
    public func bytesInMemory(at offset: UInt64, maxByteCount: Int) -> ArraySlice<UInt8>? { nil }
}

/// A data source over bytes in memory.
public struct PTPBytesSource: PTPDataSource, Hashable {
    /// The bytes.
    public let bytes: [UInt8]

    /// Wraps bytes.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The number of bytes.
    public var byteCount: UInt64 { UInt64(bytes.count) }

    /// Returns the bytes from `offset`, at most `maxByteCount` of them.
    public func read(at offset: UInt64, maxByteCount: Int) async throws -> [UInt8] {
        Array(bytesInMemory(at: offset, maxByteCount: maxByteCount) ?? [])
    }

    /// The bytes from `offset`, at most `maxByteCount` of them, as a slice of ``bytes``.
    public func bytesInMemory(at offset: UInt64, maxByteCount: Int) -> ArraySlice<UInt8>? {
        guard let start = Int(exactly: offset), start <= bytes.count, maxByteCount > 0 else { return [] }
        return bytes[start..<(start + min(maxByteCount, bytes.count - start))]
    }
}
