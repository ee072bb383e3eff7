import Dispatch
import RawImage

/// Splits work over the machine's cores for the large, memory-bound passes of reading a file: reading its bytes and
/// unpacking its strips. Fresh memory costs a page fault per 4 KiB the first time it is touched, and those faults
/// run in parallel, so even a plain copy goes nearly twice as fast on two cores.
enum ParallelRanges {
    /// The number of cores online, read once.
    static var coreCount: Int { ProcessInfoCores.count }

    /// Splits `0..<count` into at most ``coreCount`` contiguous ranges of at least `minimum` elements and calls
    /// `body` on each concurrently (inline when there is only one); returns the results in range order.
    static func map<Result>(
        _ count: Int, minimum: Int, _ body: (Range<Int>) -> Result
    ) -> [Result] {
        let pieces = max(1, min(coreCount, count / max(1, minimum)))
        let ranges = (0..<pieces).map { piece in (count * piece / pieces)..<(count * (piece + 1) / pieces) }
        if pieces == 1 { return [body(0..<count)] }
        var results = [Result?](repeating: nil, count: pieces)
        results.withUnsafeMutableBufferPointer { slots in
            // concurrentPerform returns only when every piece is done, so neither `body` nor `slots` escapes, and
            // each piece writes its own slot.
            withoutActuallyEscaping(body) { body in
                nonisolated(unsafe) let body = body
                nonisolated(unsafe) let slots = slots
                DispatchQueue.concurrentPerform(iterations: pieces) { piece in
                    slots[piece] = body(ranges[piece])
                }
            }
        }
        return results.map { result in
            guard let result else { preconditionFailure("ParallelRanges: a piece returned no result") }
            return result
        }
    }
}
