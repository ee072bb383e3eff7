import PTP

/// A PTP data sink that keeps one object in memory, refusing more than its announced size (or a limit), and
/// reports progress as bytes arrive.
///
/// Memory follows the bytes that arrived, not the camera's claims: at most ``maxReservation`` is reserved up front
/// whatever the announced size. With a ``RateFloor``, a download that keeps receiving bytes but too slowly to end
/// (each wait shorter than the transport's timeout, so no read ever times out) is stopped.
public actor DownloadBuffer: PTPDataSink {
    /// The slowest average rate a download may keep once its grace period is over.
    public struct RateFloor: Sendable, Hashable {
        /// Bytes per second, averaged from the start of the download.
        public var bytesPerSecond: Int
        /// How long the download may go before the floor applies (the camera preparing the file, a first stall
        /// the transport retries).
        public var grace: Duration

        /// Creates a floor.
        public init(bytesPerSecond: Int, grace: Duration) {
            self.bytesPerSecond = max(1, bytesPerSecond)
            self.grace = grace
        }

        /// 64 KiB/s after `grace`: a hundred times below a USB 2.0 camera, twenty below a weak Wi-Fi link, and far
        /// above a camera that trickles a few bytes per timeout.
        public static func standard(grace: Duration) -> RateFloor { RateFloor(bytesPerSecond: 64 * 1024, grace: grace) }
    }

    /// The most reserved before bytes arrive (16 MiB): a claimed size beyond it grows the buffer as data comes,
    /// so a camera that claims a gigabyte and sends nothing costs nothing.
    public static let maxReservation = 16 * 1024 * 1024

    /// The bytes received.
    public private(set) var bytes: [UInt8] = []
    private let limit: Int
    private let progress: @Sendable (Int) -> Void
    private let floor: RateFloor?
    private let start = ContinuousClock.now

    /// Creates a buffer for an object of at most `limit` bytes, optionally with a rate floor.
    public init(limit: Int, floor: RateFloor? = nil, progress: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.limit = limit
        self.floor = floor
        self.progress = progress
    }

    /// Reserves the announced size (up to ``maxReservation``), or throws when it is over the limit.
    public func dataPhaseWillStart(byteCount: UInt64?) async throws {
        if let byteCount {
            guard byteCount <= UInt64(limit) else {
                throw CaptureError(
                    .badObject, "the camera announced \(byteCount) bytes for an object of at most \(limit)")
            }
            bytes.reserveCapacity(min(Int(byteCount), Self.maxReservation))
        }
    }

    /// Appends a chunk.
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/badObject`` past the limit,
    ///   ``CaptureError/Code-swift.struct/downloadStalled`` below the rate floor.
    public func write(_ chunk: ArraySlice<UInt8>) async throws {
        guard chunk.count <= limit - bytes.count else {
            throw CaptureError(.badObject, "the camera sent more than the object's \(limit) bytes")
        }
        bytes.append(contentsOf: chunk)
        progress(chunk.count)
        if let floor {
            let elapsed = ContinuousClock.now - start
            let due = (elapsed - floor.grace) / .seconds(1) * Double(floor.bytesPerSecond)
            if elapsed > floor.grace, Double(bytes.count) < due, bytes.count < limit {
                throw CaptureError(
                    .downloadStalled,
                    "the camera sent \(bytes.count) bytes in \(Int(elapsed / .seconds(1))) s, slower than "
                        + "\(floor.bytesPerSecond / 1024) KiB/s; giving up")
            }
        }
    }

    /// Hands the bytes over and empties the buffer.
    public func take() -> [UInt8] {
        defer { bytes = [] }
        return bytes
    }
}
