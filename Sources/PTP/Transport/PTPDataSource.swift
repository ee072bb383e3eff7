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
        guard let start = Int(exactly: offset), start <= bytes.count, maxByteCount > 0 else { return [] }
        return Array(bytes[start..<min(bytes.count, start + min(maxByteCount, bytes.count - start))])
    }
}
