/// Puts one direction of a TCP connection back in order: segments in, contiguous bytes out.
///
/// Retransmitted bytes are dropped, overlapping segments trimmed, and segments that arrive ahead of a missing one
/// wait (at most ``CaptureLimits/maxOutOfOrderByteCount`` bytes) until it comes. Sequence numbers are compared by
/// their 32-bit distance from the next expected byte, so a stream that wraps past 2^32 reassembles too. Without a
/// SYN in the capture, the first segment seen starts the stream.
struct TCPStreamReassembler: Sendable {
    /// The sequence number of the next byte to deliver; `nil` before the first segment.
    private var nextSequence: UInt32?
    /// Bytes delivered so far.
    private(set) var deliveredByteCount: UInt64 = 0
    /// Segments ahead of ``deliveredByteCount``, sorted by stream offset.
    private var pending: [(offset: UInt64, bytes: [UInt8])] = []
    private(set) var pendingByteCount = 0
    /// Most segments waiting at once: far above any real receive window's worth, and low enough that a hostile
    /// capture sending them in reverse order cannot make sorting them slow.
    static let maxPendingSegmentCount = 16384
    /// Whether a FIN or RST was seen.
    private(set) var isFinished = false

    /// The stream offset of the first byte that is missing, when bytes after it are waiting.
    var gapOffset: UInt64? { pending.isEmpty ? nil : deliveredByteCount }

    /// Adds a segment and returns the bytes that became contiguous.
    ///
    /// - Throws: ``RecordError/Code/limitExceeded`` when too much waits behind a missing segment.
    mutating func add(_ segment: TCPSegment) throws(RecordError) -> [UInt8] {
        if segment.flags.contains(.rst) { isFinished = true }
        if segment.flags.contains(.syn) {
            if nextSequence == nil || deliveredByteCount == 0 { nextSequence = segment.sequenceNumber &+ 1 }
            return []
        }
        if segment.flags.contains(.fin) { isFinished = true }
        guard !segment.payload.isEmpty else { return [] }
        guard let expected = nextSequence else {
            nextSequence = segment.sequenceNumber &+ UInt32(truncatingIfNeeded: segment.payload.count)
            deliveredByteCount = UInt64(segment.payload.count)
            return Array(segment.payload)
        }
        let distance = Int64(Int32(bitPattern: segment.sequenceNumber &- expected))
        let end = distance + Int64(segment.payload.count)
        if end <= 0 { return [] }  // a retransmission of delivered bytes
        if distance > 0 {
            try hold(offset: deliveredByteCount + UInt64(distance), Array(segment.payload))
            return []
        }
        var output = Array(segment.payload.dropFirst(Int(-distance)))
        advance(by: output.count)
        // Drain waiting segments that now touch or overlap the delivered end.
        var drained = 0
        for (offset, bytes) in pending {
            guard offset <= deliveredByteCount else { break }
            drained += 1
            pendingByteCount -= bytes.count
            let overlap = Int(deliveredByteCount - offset)
            if overlap < bytes.count {
                let fresh = bytes.dropFirst(overlap)
                output.append(contentsOf: fresh)
                advance(by: fresh.count)
            }
        }
        pending.removeFirst(drained)
        return output
    }

    private mutating func hold(offset: UInt64, _ bytes: [UInt8]) throws(RecordError) {
        var low = 0
        var high = pending.count
        while low < high {
            let middle = (low + high) / 2
            if pending[middle].offset < offset { low = middle + 1 } else { high = middle }
        }
        if low < pending.count, pending[low].offset == offset {
            // A retransmission of a waiting segment: keep the longer copy.
            guard bytes.count > pending[low].bytes.count else { return }
            pendingByteCount += bytes.count - pending[low].bytes.count
            pending[low].bytes = bytes
            return
        }
        guard pendingByteCount + bytes.count <= CaptureLimits.maxOutOfOrderByteCount,
            pending.count < Self.maxPendingSegmentCount
        else {
            throw RecordError(
                .limitExceeded,
                "over \(CaptureLimits.maxOutOfOrderByteCount) bytes or \(Self.maxPendingSegmentCount) segments wait "
                    + "behind a missing segment")
        }
        pending.insert((offset, bytes), at: low)
        pendingByteCount += bytes.count
    }

    private mutating func advance(by count: Int) {
        deliveredByteCount += UInt64(count)
        nextSequence = (nextSequence ?? 0) &+ UInt32(truncatingIfNeeded: count)
    }
}
