import DNG
import Dispatch
import OutputFiles
import PTP
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A PTP data sink that streams one object into a new file as its bytes arrive, for objects saved as the camera
/// wrote them (`pull --original`, JPEGs): the bytes go from the transport's receive buffers to the file, and
/// nothing of the object is kept in memory.
///
/// The file is an ``DNG/OutputFile``: a hidden temporary name until ``commit()``, removed by ``discard()``, when a
/// write fails, or when the value goes away uncommitted. The sink applies ``DownloadBuffer``'s rules (the object's
/// limit, the rate floor, progress). Each chunk is written as it comes (a `write(2)` into the page cache); the
/// SHA-256 is computed on a queue of its own from what the file holds, read back from the page cache a megabyte
/// behind the download, so it runs on another core instead of holding up the next bytes; every few megabytes the
/// kernel is asked to start writing the file out, and the `fsync`s are left to ``commit()``, which the caller runs on
/// a thread of its own.
public final class DownloadFile: PTPDataSink, Sendable {
    /// Bytes written between two hand-overs to the digest queue.
    static let digestStepByteCount = 1 << 20
    /// Bytes written between two requests to the kernel to start writing the file out (`sync_file_range`), so the
    /// `fsync` of ``commit()`` finds little left: 5 % off `pull --all --original` of 4 × 12 MB (issue 7).
    static let writebackStepByteCount = 4 << 20

    /// The final path (after ``commit()``, the next free name when the one asked for was taken meanwhile and
    /// `whenTaken` allowed that).
    public var path: String { state.withLock { $0.file.path } }
    private let progress: @Sendable (Int) -> Void
    private let state: Mutex<State>
    private let digester: Digester
    private let digestQueue = DispatchQueue(label: "rawcap.download.sha256")

    private struct State {
        var allowance: DownloadAllowance
        let file: OutputFile
        /// Bytes handed to the digest queue.
        var handedOver = 0
        /// Bytes written when writeback was last started.
        var writebackStartedAt = 0
        /// A failed write's error: the file is gone, and ``commit()`` throws it.
        var writeFailure: OutputFileError?
        var committed = false
    }

    /// The SHA-256 of the file's first bytes, read back with `pread`; used only on `digestQueue`.
    private final class Digester: @unchecked Sendable {
        let descriptor: Int32
        let path: String
        let digest = MessageDigest(.sha256)
        var digested = 0
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        var failure: OutputFileError?

        init(descriptor: Int32, path: String) {
            self.descriptor = descriptor
            self.path = path
        }

        /// Adds the file's bytes up to `end` to the digest.
        func digest(upTo end: Int) {
            guard failure == nil, digested < end else { return }
            do {
                digested += try digest.update(
                    fileDescriptor: descriptor, range: digested..<end, buffer: &buffer, name: path)
                if digested < end {
                    failure = OutputFileError(
                        .ioFailure, path: path, "the file ended at \(digested) of \(end) bytes written")
                }
            } catch {
                failure = error
            }
        }
    }

    /// Creates the temporary file for `path`, for an object of at most `limit` bytes, optionally with a rate floor.
    ///
    /// - Throws: ``OutputFiles/OutputFileError`` when the file cannot be created (it exists, the folder is read-only, …).
    public init(
        creatingAt path: String, whenTaken: OutputFile.WhenTaken = .refuse, limit: Int,
        floor: DownloadBuffer.RateFloor? = nil,
        progress: @escaping @Sendable (Int) -> Void = { _ in }
    ) throws {
        self.progress = progress
        let file = try OutputFile(creatingAt: path, whenTaken: whenTaken)
        digester = Digester(descriptor: file.fileDescriptor, path: path)
        state = Mutex(State(allowance: DownloadAllowance(limit: limit, floor: floor), file: file))
    }

    /// Bytes written so far.
    public var byteCount: Int { state.withLock { $0.allowance.received } }

    /// Throws when the announced size is over the limit.
    public func dataPhaseWillStart(byteCount: UInt64?) async throws {
        try state.withLock { try $0.allowance.checkAnnounced(byteCount) }
    }

    /// Writes a chunk to the file.
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/badObject`` past the limit,
    ///   ``CaptureError/Code-swift.struct/downloadStalled`` below the rate floor, ``OutputFiles/OutputFileError`` when the write
    ///   fails (a full disk; the temporary file is removed then).
    public func write(_ chunk: ArraySlice<UInt8>) async throws {
        let handOver: Int?
        do {
            handOver = try state.withLock { state -> Int? in
                try state.allowance.add(chunk.count)
                try chunk.withUnsafeBytes { buffer in
                    try Result { () throws(OutputFileError) in try state.file.write(buffer) }.get()
                }
                if state.allowance.received - state.writebackStartedAt >= Self.writebackStepByteCount {
                    state.writebackStartedAt = state.allowance.received
                    state.file.startWriteback()
                }
                guard state.allowance.received - state.handedOver >= Self.digestStepByteCount else { return nil }
                state.handedOver = state.allowance.received
                return state.handedOver
            }
        } catch let error as OutputFileError {
            state.withLock { $0.writeFailure = error }
            discard()
            throw error
        }
        if let handOver { digestQueue.async { [self] in digester.digest(upTo: handOver) } }
        progress(chunk.count)
        try state.withLock { try $0.allowance.checkRate() }
    }

    /// Makes the file durable under ``path`` (``DNG/OutputFile/commit()``: `fsync`, rename without replacing,
    /// folder `fsync`), once the download has ended. It blocks while the digest catches up; call it off the Swift
    /// pool (the pull's save queue).
    ///
    /// - Returns: the file's size and its SHA-256 in lowercase hex.
    /// - Throws: ``OutputFiles/OutputFileError`` when a write failed or the file cannot be read back or made durable; the
    ///   temporary file is gone then.
    public func commit() throws -> (byteCount: Int, sha256: String) {
        let total = try state.withLock { state throws(OutputFileError) in
            precondition(!state.committed, "DownloadFile.commit() called twice")
            state.committed = true
            if let failure = state.writeFailure { throw failure }
            return state.allowance.received
        }
        let digest = digestQueue.sync { () -> Result<[UInt8], OutputFileError> in
            digester.digest(upTo: total)
            if let failure = digester.failure { return .failure(failure) }
            return .success(digester.digest.finalize())
        }
        do {
            let sha256 = try digest.get()
            try state.withLock { state throws(OutputFileError) in try state.file.commit() }
            return (total, MessageDigest.hex(sha256))
        } catch {
            discard()
            throw error
        }
    }

    /// Removes the temporary file (after the digest queue has let go of it); does nothing after ``commit()``.
    public func discard() {
        digestQueue.sync { state.withLock { $0.file.discard() } }
    }
}
