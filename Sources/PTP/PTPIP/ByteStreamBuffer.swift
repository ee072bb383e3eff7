/// Exact-length reads over a ``ByteStream``: bytes that arrive beyond what was asked stay for the next read, and a
/// read that times out consumes nothing, so the caller may try again without losing its place in the stream.
///
/// For protocols framed by a length field read in two steps (a fixed header, then its payload), such as
/// Fujifilm's PTP/IP variant, whose packets are USB containers.
public actor ByteStreamBuffer {
    /// The stream read from.
    public nonisolated let stream: any ByteStream
    /// Bytes asked of the stream at a time.
    public let receiveByteCount: Int
    private var buffered: [UInt8] = []
    private var start = 0

    /// Wraps `stream`.
    public init(_ stream: any ByteStream, receiveByteCount: Int = 1 << 20) {
        self.stream = stream
        self.receiveByteCount = max(1, receiveByteCount)
    }

    /// Bytes received but not yet read.
    public var bufferedCount: Int { buffered.count - start }

    /// Exactly `count` bytes, waiting at most `timeout` for each arrival.
    ///
    /// - Throws: ``ByteStreamError`` from the stream (`.timeout` leaves everything buffered for the next call).
    public func read(exactly count: Int, timeout: Duration) async throws(ByteStreamError) -> [UInt8] {
        while buffered.count - start < count {
            let bytes = try await stream.receive(maxLength: receiveByteCount, timeout: timeout)
            if start > 0, start >= buffered.count / 2 {
                buffered.removeFirst(start)
                start = 0
            }
            buffered += bytes
        }
        defer { start += count }
        return Array(buffered[start..<(start + count)])
    }

    /// Up to `maxCount` bytes (at least one), from the buffer or the next arrival.
    public func read(upTo maxCount: Int, timeout: Duration) async throws(ByteStreamError) -> [UInt8] {
        if buffered.count - start == 0 {
            buffered = try await stream.receive(maxLength: min(receiveByteCount, max(1, maxCount)), timeout: timeout)
            start = 0
        }
        let count = min(maxCount, buffered.count - start)
        defer { start += count }
        return Array(buffered[start..<(start + count)])
    }
}
