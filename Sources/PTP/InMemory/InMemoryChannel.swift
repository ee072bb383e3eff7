/// One direction of an in-memory link: a bounded byte queue that remembers where each write ended, with timeouts,
/// backpressure, stalls and disconnects. ``InMemoryBulkPipe`` uses it with USB transfer semantics (a read ends at
/// a short packet), ``InMemoryByteStream`` with stream semantics (a read returns whatever is there).
actor InMemoryChannel {
    /// Why a read or write failed, with the bytes a read had already taken.
    enum Failure: Error {
        case timeout([UInt8])
        case stalled([UInt8])
        case closed([UInt8])
        case disconnected([UInt8])
        case cancelled([UInt8])
    }

    private struct Segment {
        var bytes: [UInt8]
        var offset: Int
        /// Whether this write ended with a short packet (always true for an empty write, a ZLP).
        var endsShort: Bool
    }

    /// USB wMaxPacketSize for transfer semantics; 1 for streams.
    let packetSize: Int
    /// Bytes queued before writers wait.
    let capacity: Int

    private var segments: [Segment] = []
    private var segmentHead = 0
    private(set) var bufferedByteCount = 0
    private(set) var isStalled = false
    private(set) var isClosed = false
    private(set) var isDisconnected = false
    private var waiters: [Int: (continuation: CheckedContinuation<Void, Never>, timer: Task<Void, Never>?)] = [:]
    private var nextWaiterID = 0

    init(packetSize: Int, capacity: Int) {
        self.packetSize = max(1, packetSize)
        self.capacity = max(1, capacity)
    }

    /// Queues one write; waits while the queue is over capacity (unless it is empty, so any size gets through).
    func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant?) async throws(Failure) {
        while true {
            if isDisconnected { throw .disconnected([]) }
            if isClosed { throw .closed([]) }
            if isStalled { throw .stalled([]) }
            if bufferedByteCount == 0 || bufferedByteCount + bytes.count <= capacity { break }
            try checkWait(deadline, [])
            await wait(until: deadline)
        }
        let endsShort = bytes.isEmpty || bytes.count % packetSize != 0
        segments.append(Segment(bytes: bytes, offset: 0, endsShort: endsShort))
        bufferedByteCount += bytes.count
        notifyAll()
    }

    /// Reads one USB transfer: up to `maxLength` bytes (rounded down to whole packets), ending early at a short
    /// packet.
    func readTransfer(maxLength: Int, deadline: ContinuousClock.Instant?) async throws(Failure) -> [UInt8] {
        let limit = max(packetSize, maxLength - maxLength % packetSize)
        var out: [UInt8] = []
        while true {
            if isStalled { throw .stalled(out) }
            // Bytes queued before a disconnect had reached the host already; deliver them first.
            while out.count < limit, segmentHead < segments.count {
                let available = segments[segmentHead].bytes.count - segments[segmentHead].offset
                let take = min(available, limit - out.count)
                let start = segments[segmentHead].offset
                out.append(contentsOf: segments[segmentHead].bytes[start..<(start + take)])
                segments[segmentHead].offset += take
                bufferedByteCount -= take
                if segments[segmentHead].offset == segments[segmentHead].bytes.count {
                    let endsShort = segments[segmentHead].endsShort
                    popSegment()
                    notifyAll()
                    if endsShort { return out }
                } else {
                    notifyAll()
                }
            }
            if out.count == limit { return out }
            if isDisconnected { throw .disconnected(out) }
            if isClosed { throw .closed(out) }
            try checkWait(deadline, out)
            await wait(until: deadline)
        }
    }

    /// Reads whatever is queued, up to `maxLength` bytes, waiting for at least one.
    func readAvailable(maxLength: Int, deadline: ContinuousClock.Instant?) async throws(Failure) -> [UInt8] {
        while true {
            if bufferedByteCount > 0 {
                var out: [UInt8] = []
                while out.count < maxLength, segmentHead < segments.count {
                    let start = segments[segmentHead].offset
                    let take = min(segments[segmentHead].bytes.count - start, maxLength - out.count)
                    out.append(contentsOf: segments[segmentHead].bytes[start..<(start + take)])
                    segments[segmentHead].offset += take
                    bufferedByteCount -= take
                    if segments[segmentHead].offset == segments[segmentHead].bytes.count { popSegment() }
                }
                notifyAll()
                return out
            }
            if isDisconnected { throw .disconnected([]) }
            if isClosed { throw .closed([]) }
            try checkWait(deadline, [])
            await wait(until: deadline)
        }
    }

    /// Halts the endpoint: reads and writes fail with ``Failure/stalled(_:)`` until ``clearHalt()``.
    func stall() {
        isStalled = true
        notifyAll()
    }

    /// Clears a halt.
    func clearHalt() {
        isStalled = false
        notifyAll()
    }

    /// Ends the stream: queued bytes can still be read, then reads fail with ``Failure/closed(_:)``.
    func close() {
        isClosed = true
        notifyAll()
    }

    /// Breaks the link for good: everything fails with ``Failure/disconnected(_:)``.
    func disconnect() {
        isDisconnected = true
        notifyAll()
    }

    /// Drops everything queued (a device discarding its data after a cancel).
    func discardAll() {
        segments = []
        segmentHead = 0
        bufferedByteCount = 0
        notifyAll()
    }

    private func popSegment() {
        // Release the bytes now: the slot itself stays until the next compaction.
        segments[segmentHead].bytes = []
        segmentHead += 1
        if segmentHead > 64 && segmentHead * 2 > segments.count {
            segments.removeFirst(segmentHead)
            segmentHead = 0
        }
    }

    /// Throws when the deadline has passed or the task was cancelled; callers check their condition first.
    private func checkWait(_ deadline: ContinuousClock.Instant?, _ partial: [UInt8]) throws(Failure) {
        if let deadline, deadline <= .now { throw .timeout(partial) }
        if Task.isCancelled { throw .cancelled(partial) }
    }

    /// Suspends until any state change, the deadline, or task cancellation.
    private func wait(until deadline: ContinuousClock.Instant?) async {
        let id = nextWaiterID
        nextWaiterID += 1
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let timer = deadline.map { deadline in
                    Task { [weak self] in
                        try? await Task.sleep(until: deadline, clock: .continuous)
                        await self?.expire(id)
                    }
                }
                waiters[id] = (continuation, timer)
            }
        } onCancel: {
            Task { await self.expire(id) }
        }
    }

    private func expire(_ id: Int) {
        guard let waiter = waiters.removeValue(forKey: id) else { return }
        waiter.continuation.resume()
    }

    private func notifyAll() {
        let current = waiters
        waiters = [:]
        for waiter in current.values {
            waiter.timer?.cancel()
            waiter.continuation.resume()
        }
    }
}
