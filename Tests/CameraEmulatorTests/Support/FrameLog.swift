import RawImage
import Synchronization

/// Keeps the frames the emulated camera renders, for comparison with what the host downloads.
final class FrameLog: Sendable {
    private let frames = Mutex<[RawFrame]>([])

    func append(_ frame: RawFrame) { frames.withLock { $0.append(frame) } }

    var all: [RawFrame] { frames.withLock { $0 } }
}
