import DNG
import PTP
import Synchronization

/// A PTP data sink that streams one object into a new file as its bytes arrive, for objects saved as the camera
/// wrote them (`pull --original`, JPEGs): the bytes go from the transport's receive buffers to the file and its
/// SHA-256, and nothing of the object is kept in memory.
///
/// The file is an ``DNG/OutputFile``: a hidden temporary name until ``commit()``, removed by ``discard()``, when a
/// write fails, or when the value goes away uncommitted. The sink applies ``DownloadBuffer``'s rules (the object's
/// limit, the rate floor, progress). Each chunk is written as it comes (a `write(2)` into the page cache, which
/// measured faster than handing chunks to another thread: no buffers to keep alive, fault in and free); the
/// `fsync`s are left to ``commit()``, which the caller runs on a thread of its own.
public final class DownloadFile: PTPDataSink, Sendable {
    /// The final path.
    public let path: String
    private let progress: @Sendable (Int) -> Void
    private let state: Mutex<State>

    private struct State {
        var allowance: DownloadAllowance
        let file: OutputFile
        let digest = MessageDigest(.sha256)
        /// Why the file was given up (a failed write), if it was.
        var failure: (any Error)?
        var committed = false
    }

    /// Creates the temporary file for `path`, for an object of at most `limit` bytes, optionally with a rate floor.
    ///
    /// - Throws: ``DNG/DNGError`` when the file cannot be created (it exists, the folder is read-only, …).
    public init(
        creatingAt path: String, limit: Int, floor: DownloadBuffer.RateFloor? = nil,
        progress: @escaping @Sendable (Int) -> Void = { _ in }
    ) throws {
        self.path = path
        self.progress = progress
        let file = try OutputFile(creatingAt: path)
        state = Mutex(State(allowance: DownloadAllowance(limit: limit, floor: floor), file: file))
    }

    /// Bytes written so far.
    public var byteCount: Int { state.withLock { $0.allowance.received } }

    /// Throws when the announced size is over the limit.
    public func dataPhaseWillStart(byteCount: UInt64?) async throws {
        try state.withLock { try $0.allowance.checkAnnounced(byteCount) }
    }

    /// Writes a chunk to the file and the digest.
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/badObject`` past the limit,
    ///   ``CaptureError/Code-swift.struct/downloadStalled`` below the rate floor, ``DNG/DNGError`` when the write
    ///   fails (a full disk; the temporary file is removed then).
    public func write(_ chunk: ArraySlice<UInt8>) async throws {
        try state.withLock { state in
            try state.allowance.add(chunk.count)
            do {
                try chunk.withUnsafeBytes { buffer in
                    try Result { () throws(DNGError) in try state.file.write(buffer) }.get()
                    state.digest.update(buffer)
                }
            } catch {
                state.failure = error
                state.file.discard()
                throw error
            }
        }
        progress(chunk.count)
        try state.withLock { try $0.allowance.checkRate() }
    }

    /// Makes the file durable under ``path`` (``DNG/OutputFile/commit()``: `fsync`, rename without replacing,
    /// folder `fsync`), once the download has ended.
    ///
    /// - Returns: the file's size and its SHA-256 in lowercase hex.
    /// - Throws: a failed write's error, or what ``DNG/OutputFile/commit()`` throws; the temporary file is gone
    ///   then.
    public func commit() throws -> (byteCount: Int, sha256: String) {
        try state.withLock { state in
            precondition(!state.committed, "DownloadFile.commit() called twice")
            state.committed = true
            if let failure = state.failure { throw failure }
            try state.file.commit()
            return (state.allowance.received, MessageDigest.hex(state.digest.finalize()))
        }
    }

    /// Removes the temporary file; does nothing after ``commit()``.
    public func discard() {
        state.withLock { $0.file.discard() }
    }
}
