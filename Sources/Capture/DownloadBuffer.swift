import PTP
import RawImage

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
    private var allowance: DownloadAllowance
    private let progress: @Sendable (Int) -> Void

    /// Creates a buffer for an object of at most `limit` bytes, optionally with a rate floor.
    public init(limit: Int, floor: RateFloor? = nil, progress: @escaping @Sendable (Int) -> Void = { _ in }) {
        allowance = DownloadAllowance(limit: limit, floor: floor)
        self.progress = progress
    }

    /// Reserves the announced size (up to ``maxReservation``), or throws when it is over the limit.
    public func dataPhaseWillStart(byteCount: UInt64?) async throws {
        try allowance.checkAnnounced(byteCount)
        guard let byteCount else { return }
        let reservation = min(Int(byteCount), Self.maxReservation)
        guard bytes.isEmpty else { return bytes.reserveCapacity(reservation) }
        // A raw file is tens of megabytes: faulted in 2 MiB at a time as it arrives (RawImage's HugePages).
        bytes = [UInt8](unsafeUninitializedCapacity: reservation) { buffer, initialized in
            HugePages.advise(UnsafeMutableRawBufferPointer(buffer))
            initialized = 0
        }
    }

    /// Appends a chunk.
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/badObject`` past the limit,
    ///   ``CaptureError/Code-swift.struct/downloadStalled`` below the rate floor.
    public func write(_ chunk: ArraySlice<UInt8>) async throws {
        try allowance.add(chunk.count)
        bytes.append(contentsOf: chunk)
        progress(chunk.count)
        try allowance.checkRate()
    }

    /// Hands the bytes over and empties the buffer.
    public func take() -> [UInt8] {
        defer { bytes = [] }
        return bytes
    }
}

/// The rules every download sink applies (``DownloadBuffer``, ``DownloadFile``): no more than the object's limit,
/// announced or sent, and no slower than the rate floor once its grace is over.
struct DownloadAllowance: Sendable {
    /// The most bytes accepted.
    let limit: Int
    /// The slowest average rate accepted, if any.
    let floor: DownloadBuffer.RateFloor?
    /// When the download started.
    let start = ContinuousClock.now
    /// Bytes accepted so far.
    private(set) var received = 0

    init(limit: Int, floor: DownloadBuffer.RateFloor?) {
        self.limit = limit
        self.floor = floor
    }

    /// Throws when the announced size is over the limit.
    func checkAnnounced(_ byteCount: UInt64?) throws {
        if let byteCount, byteCount > UInt64(limit) {
            throw CaptureError(.badObject, "the camera announced \(byteCount) bytes for an object of at most \(limit)")
        }
    }

    /// Counts `count` more bytes, or throws when they would pass the limit (nothing is counted then).
    mutating func add(_ count: Int) throws {
        guard count <= limit - received else {
            throw CaptureError(.badObject, "the camera sent more than the object's \(limit) bytes")
        }
        received += count
    }

    /// Throws when the bytes so far came slower than the floor allows, once its grace is over.
    func checkRate() throws {
        guard let floor else { return }
        let elapsed = ContinuousClock.now - start
        let due = (elapsed - floor.grace) / .seconds(1) * Double(floor.bytesPerSecond)
        if elapsed > floor.grace, Double(received) < due, received < limit {
            throw CaptureError(
                .downloadStalled,
                "the camera sent \(received) bytes in \(Int(elapsed / .seconds(1))) s, slower than "
                    + "\(floor.bytesPerSecond / 1024) KiB/s; giving up")
        }
    }
}
