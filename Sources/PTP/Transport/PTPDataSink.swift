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

/// A sink that keeps the bytes in memory, for datasets and thumbnails, refusing more than a limit.
public actor PTPMemorySink: PTPDataSink {
    /// The bytes received so far.
    public private(set) var bytes: [UInt8] = []
    /// The most bytes accepted.
    public let limit: Int

    /// Creates a sink that accepts at most `limit` bytes (``WireFormat/WireLimits/maxInMemoryDataPhase`` by
    /// default).
    public init(limit: Int = WireLimits.maxInMemoryDataPhase) { self.limit = limit }

    /// Rejects an announced size over the limit before anything is allocated.
    public func dataPhaseWillStart(byteCount: UInt64?) async throws {
        if let byteCount, byteCount > UInt64(limit) {
            throw PTPError(.unexpectedDataPhase, "data phase of \(byteCount) bytes exceeds the \(limit)-byte limit")
        }
        bytes.reserveCapacity(Int(byteCount ?? 0))
    }

    /// Appends the chunk, or throws when the limit would be passed.
    public func write(_ chunk: ArraySlice<UInt8>) async throws {
        guard chunk.count <= limit - bytes.count else {
            throw PTPError(.unexpectedDataPhase, "data phase exceeds the \(limit)-byte limit")
        }
        bytes.append(contentsOf: chunk)
    }
}
