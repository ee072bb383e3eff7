import PTP

/// A PTP data sink that keeps one object in memory, refusing more than its announced size (or a limit), and
/// reports progress as bytes arrive.
public actor DownloadBuffer: PTPDataSink {
    /// The bytes received.
    public private(set) var bytes: [UInt8] = []
    private let limit: Int
    private let progress: @Sendable (Int) -> Void

    /// Creates a buffer for an object of at most `limit` bytes.
    public init(limit: Int, progress: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.limit = limit
        self.progress = progress
    }

    /// Reserves the announced size, or throws when it is over the limit.
    public func dataPhaseWillStart(byteCount: UInt64?) async throws {
        if let byteCount {
            guard byteCount <= UInt64(limit) else {
                throw CaptureError(
                    .badObject, "the camera announced \(byteCount) bytes for an object of at most \(limit)")
            }
            bytes.reserveCapacity(Int(byteCount))
        }
    }

    /// Appends a chunk.
    public func write(_ chunk: ArraySlice<UInt8>) async throws {
        guard chunk.count <= limit - bytes.count else {
            throw CaptureError(.badObject, "the camera sent more than the object's \(limit) bytes")
        }
        bytes.append(contentsOf: chunk)
        progress(chunk.count)
    }

    /// Hands the bytes over and empties the buffer.
    public func take() -> [UInt8] {
        defer { bytes = [] }
        return bytes
    }
}
