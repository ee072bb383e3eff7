import PTP

/// A data source that delivers another's bytes no faster than a given rate: the `slow=` fault, a camera on a weak
/// Wi-Fi link or a USB 1.1 port.
///
/// Each read returns at most a tenth of a second's worth of bytes and sleeps long enough that the bytes read so far
/// never run ahead of the rate, counted from the first read. Sleeping in the source paces the device side's writes,
/// so the host sees the rate whatever the transport.
actor PacedDataSource: PTPDataSource {
    nonisolated let byteCount: UInt64
    private let base: any PTPDataSource
    private let bytesPerSecond: Int
    private var start: ContinuousClock.Instant?
    private var delivered: UInt64 = 0

    init(_ base: any PTPDataSource, bytesPerSecond: Int) {
        self.base = base
        self.byteCount = base.byteCount
        self.bytesPerSecond = max(1, bytesPerSecond)
    }

    func read(at offset: UInt64, maxByteCount: Int) async throws -> [UInt8] {
        let begin = start ?? .now
        start = begin
        let slice = min(maxByteCount, max(1, bytesPerSecond / 10))
        let bytes = try await base.read(at: offset, maxByteCount: slice)
        delivered += UInt64(bytes.count)
        let due = begin + .seconds(Double(delivered) / Double(bytesPerSecond))
        if due > .now { try await Task.sleep(until: due, clock: .continuous) }
        return bytes
    }
}
