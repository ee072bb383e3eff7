import PTP

/// The data phases of the hostile camera's `huge-length`, `endless-data`, `silent-data`, `stalled-data` and
/// `trickle-data` attacks (``HostileBehaviour``).
///
/// Positions are the object's: a GetPartialObject answer is a window onto the same source, so a download resumed
/// at byte 70,000 stalls (or trickles) at once, as a camera stuck at that point of its file would.
struct HostileDataSource: PTPDataSource {
    /// How the bytes come.
    enum Pace: Sendable {
        /// As fast as the host reads, for ever: the object's bytes, then a pattern.
        case endless
        /// Not at all: the first read never returns.
        case silent
        /// The object's bytes up to `after`, then nothing, with the link kept open.
        case stalls(after: UInt64)
        /// The object's bytes up to `after`, then 512 bytes (one USB packet) every half second.
        case trickles(after: UInt64)
        /// One byte every `interval`, from the first.
        case dribbles(interval: Duration)
    }

    /// What the `trickle-dataset` attack's GetDeviceInfo claims: 16,000,000 bytes (under the host's in-memory
    /// limit, so only a deadline stops it).
    static let trickleDatasetByteCount: UInt64 = 16_000_000

    /// What the data phase claims (the container length, StartData's total).
    let byteCount: UInt64
    /// The object's real bytes.
    let base: PTPBytesSource
    /// How the bytes come.
    let pace: Pace

    /// The length the `huge-length` and `endless-data` attacks claim: 4 GiB less a little, so the USB container
    /// length (payload + 12) still fits in 32 bits and is not the "unknown length" marker.
    static let hugeByteCount: UInt64 = 0xFFFF_FFF0

    func read(at offset: UInt64, maxByteCount: Int) async throws -> [UInt8] {
        let count = max(1, min(maxByteCount, 64 * 1024))
        switch pace {
        case .dribbles(let interval):
            try await Task.sleep(for: interval)
            return offset < base.byteCount ? try await base.read(at: offset, maxByteCount: 1) : [0]
        case .endless:
            return offset < base.byteCount
                ? try await base.read(at: offset, maxByteCount: count) : [UInt8](repeating: 0xA5, count: count)
        case .silent:
            try await Self.waitForever()
            return []
        case .stalls(let after):
            if offset >= after { try await Self.waitForever() }
            return try await base.read(at: offset, maxByteCount: Int(min(UInt64(count), after - offset)))
        case .trickles(let after):
            if offset >= after {
                try await Task.sleep(for: .milliseconds(500))
                return try await base.read(at: offset, maxByteCount: min(count, 512))
            }
            return try await base.read(at: offset, maxByteCount: Int(min(UInt64(count), after - offset)))
        }
    }

    /// Sleeps until the task is cancelled (the device side gives up when its host goes away).
    private static func waitForever() async throws {
        while true { try await Task.sleep(for: .seconds(3600)) }
    }
}
