import Foundation
import PTP

#if os(Linux)
    /// glibc's `int malloc_trim(size_t pad)`, which the Glibc module does not export (it lives in malloc.h).
    @_silgen_name("malloc_trim")
    private func mallocTrim(_ pad: Int) -> Int32
#endif

/// A sink that keeps nothing: it counts bytes and chunks, checks every byte against an expected pattern, and
/// samples the process's resident memory as the download runs.
actor MeasuringSink: PTPDataSink {
    private(set) var byteCount: UInt64 = 0
    private(set) var chunkCount = 0
    private(set) var largestChunk = 0
    private(set) var announced: [UInt64?] = []
    private(set) var mismatchOffset: UInt64?
    private(set) var peakResidentBytes = 0
    /// The most bytes the source had produced that the sink had not yet received: what the pipeline buffers.
    private(set) var peakInFlightBytes: UInt64 = 0
    private let expected: (@Sendable (UInt64) -> UInt8)?
    private let checkEvery: UInt64
    private let produced: ByteCounter?

    init(expected: (@Sendable (UInt64) -> UInt8)? = nil, checkEvery: UInt64 = 1, produced: ByteCounter? = nil) {
        self.expected = expected
        self.checkEvery = checkEvery
        self.produced = produced
    }

    func dataPhaseWillStart(byteCount: UInt64?) async throws { announced.append(byteCount) }

    func write(_ bytes: ArraySlice<UInt8>) async throws {
        if let expected, mismatchOffset == nil {
            var index = bytes.startIndex
            while index < bytes.endIndex {
                let offset = byteCount + UInt64(index - bytes.startIndex)
                if bytes[index] != expected(offset) {
                    mismatchOffset = offset
                    break
                }
                index += Int(checkEvery)
            }
            if let last = bytes.indices.last, mismatchOffset == nil,
                bytes[last] != expected(byteCount + UInt64(bytes.count - 1))
            {
                mismatchOffset = byteCount + UInt64(bytes.count - 1)
            }
        }
        if let produced { peakInFlightBytes = max(peakInFlightBytes, produced.value - byteCount) }
        byteCount += UInt64(bytes.count)
        chunkCount += 1
        largestChunk = max(largestChunk, bytes.count)
        if chunkCount % 4 == 0 { peakResidentBytes = max(peakResidentBytes, residentBytes()) }
    }
}

/// The process's resident set size in bytes, from /proc/self/statm, after asking malloc to give freed pages back
/// (glibc keeps freed megabyte buffers in per-thread arenas, which would otherwise count as resident).
func residentBytes() -> Int {
    #if os(Linux)
        _ = mallocTrim(0)
    #endif
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * 4096
}

/// A sink that collects bytes (for small objects).
actor CollectingSink: PTPDataSink {
    private(set) var bytes: [UInt8] = []
    private(set) var announced: [UInt64?] = []

    func dataPhaseWillStart(byteCount: UInt64?) async throws { announced.append(byteCount) }
    func write(_ chunk: ArraySlice<UInt8>) async throws { bytes.append(contentsOf: chunk) }
}
