import WireFormat

/// Where the bytes of a device-to-host data phase go, as they arrive.
///
/// A transport calls ``dataPhaseWillStart(byteCount:)`` when the data header arrives, then ``write(_:)`` with
/// each chunk (up to about a megabyte over USB, one packet over PTP/IP). A download of a 100 MB object therefore
/// never exists twice in memory: the sink writes each chunk on (to a file, a decoder, a hash) and lets it go.
/// Sinks are `Sendable`; one with state is an actor or guards its state itself.
public protocol PTPDataSink: Sendable {
    /// Called once per data phase, before any bytes; `byteCount` is `nil` when the device does not announce it.
    func dataPhaseWillStart(byteCount: UInt64?) async throws
    /// Called with each chunk of payload in order.
    func write(_ bytes: ArraySlice<UInt8>) async throws
}

extension PTPDataSink {
    /// Sinks that do not care about the announced size use this default.
    public func dataPhaseWillStart(byteCount: UInt64?) async throws {}
}

/// A sink that keeps the bytes in memory, for datasets and thumbnails, refusing more than a limit, and, given the
/// session's timeout, a data phase that trickles.
public actor PTPMemorySink: PTPDataSink {
    /// The bytes received so far.
    public private(set) var bytes: [UInt8] = []
    /// The most bytes accepted.
    public let limit: Int
    /// The grace before ``floorBytesPerSecond`` applies, or `nil` for no deadline.
    public let timeout: Duration?
    private var started: ContinuousClock.Instant?
    /// The data phase's announced length, when the device gave one.
    private var expected: UInt64?

    /// The average rate a data phase must keep once `timeout` has passed: 64 KiB/s, as object downloads' floor. A
    /// 16 MB dataset over a weak Wi-Fi link passes; a camera sending a byte every few seconds (each read within the
    /// timeout) is stopped about `timeout` after the data phase began.
    public static let floorBytesPerSecond = 64 * 1024

    /// The most reserved before bytes arrive: a camera that claims megabytes and sends nothing costs nothing.
    static let maxReservation = 1 << 20

    /// Creates a sink that accepts at most `limit` bytes (``WireFormat/WireLimits/maxInMemoryDataPhase`` by
    /// default); with `timeout`, a data phase still under way after `timeout` must have averaged
    /// ``floorBytesPerSecond`` (datasets get a deadline, not only a limit per read).
    public init(limit: Int = WireLimits.maxInMemoryDataPhase, timeout: Duration? = nil) {
        self.limit = limit
        self.timeout = timeout
    }

    /// Rejects an announced size over the limit before anything is allocated.
    public func dataPhaseWillStart(byteCount: UInt64?) async throws {
        if let byteCount, byteCount > UInt64(limit) {
            throw PTPError(.unexpectedDataPhase, "data phase of \(byteCount) bytes exceeds the \(limit)-byte limit")
        }
        started = started ?? ContinuousClock.now
        expected = byteCount
        bytes.reserveCapacity(min(Int(byteCount ?? 0), Self.maxReservation))
    }

    /// Appends the chunk, or throws when the limit would be passed or the data phase is too slow.
    public func write(_ chunk: ArraySlice<UInt8>) async throws {
        guard chunk.count <= limit - bytes.count else {
            throw PTPError(.unexpectedDataPhase, "data phase exceeds the \(limit)-byte limit")
        }
        bytes.append(contentsOf: chunk)
        let now = ContinuousClock.now
        let start = started ?? now
        started = start
        // The last chunk completes the data phase, however late: only bytes still to come are held to the floor.
        guard let timeout, now - start > timeout, expected.map({ UInt64(bytes.count) < $0 }) ?? true else { return }
        let elapsed = now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        guard Double(bytes.count) < seconds * Double(Self.floorBytesPerSecond) else { return }
        throw TransportError(
            .timeout,
            "the camera sent \(bytes.count) bytes of a data phase in \(Int(seconds)) s, slower than "
                + "\(Self.floorBytesPerSecond / 1024) KiB/s after the \(timeout) timeout")
    }
}
