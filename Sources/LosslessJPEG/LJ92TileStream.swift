import Dispatch
import PlatformSupport

/// The tiles of one plane, encoded on background threads and handed out one by one as they finish, so that a
/// writer can put tile 0 in its file while later tiles are still being encoded (``LJ92TiledEncoder/encodeInBackground(_:width:height:)``;
/// the DNG writer streams its lossless tiles this way).
///
/// Workers take tiles in index order (worker k takes k, k + workers, …), so the tiles a sequential reader asks for
/// are the ones finishing first. The streams live in the stream's ``LJ92TileArena`` (each worker encodes into a slab
/// of its own, with no allocation or copy per tile) until the stream is released, and may be read any number of
/// times from any thread. ``cancel()`` makes the workers skip the tiles they have not started (those report a
/// cancellation error), for a writer that gave up half-way.
public final class LJ92TileStream: @unchecked Sendable {
    /// Tiles in the plane, left to right, then top to bottom.
    public let tileCount: Int

    // `results`, `finishedCount` and `cancelled` are guarded by `condition`'s lock; it is broadcast on every change.
    private let condition = ThreadCondition()
    private var results: [Result<LJ92TileBytes, LJ92Error>?]
    private var finishedCount = 0
    private var cancelled = false
    /// Where the workers put the streams; it lives as long as the stream.
    let arena = LJ92TileArena()

    init(tileCount: Int) {
        self.tileCount = tileCount
        results = Array(repeating: nil, count: tileCount)
    }

    /// Blocks until tile `index` (0 ..< ``tileCount``) is encoded and returns a copy of its stream, or why it failed.
    public func tile(_ index: Int) -> Result<[UInt8], LJ92Error> {
        tileBytes(index).map { [UInt8]($0) }
    }

    /// Blocks until tile `index` (0 ..< ``tileCount``) is encoded and returns its stream in place, or why it failed.
    /// The bytes stay valid as long as this stream does: keep it alive while reading them
    /// (`withExtendedLifetime`).
    public func tileBytes(_ index: Int) -> Result<UnsafeRawBufferPointer, LJ92Error> {
        precondition(index >= 0 && index < tileCount, "tile \(index) of \(tileCount)")
        return locked {
            while results[index] == nil { condition.wait() }
            // The loop ends only on a stored result.
            return (results[index] ?? .failure(LJ92Error(.invalidInput, "tile \(index) missing"))).map(\.bytes)
        }
    }

    /// Blocks until every tile is encoded (or skipped after ``cancel()``).
    public func waitUntilFinished() {
        locked {
            while finishedCount < tileCount { condition.wait() }
        }
    }

    /// Asks the workers to skip the tiles they have not started; already encoded tiles stay available.
    public func cancel() {
        locked { cancelled = true }
    }

    /// Whether ``cancel()`` was called (read by the workers before each tile).
    var isCancelled: Bool { locked { cancelled } }

    /// Stores tile `index`'s result and wakes the readers.
    func store(_ result: Result<LJ92TileBytes, LJ92Error>, at index: Int) {
        locked {
            results[index] = result
            finishedCount += 1
            condition.broadcast()
        }
    }

    private func locked<Value>(_ body: () -> Value) -> Value {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }
}
