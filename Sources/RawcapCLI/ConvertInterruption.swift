import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C during `rawcap convert`: the file being written is finished (or abandoned cleanly by its own error
/// handling), no further file is started, and the command exits with 130. A second Ctrl-C ends the process at once,
/// as the default handler would; the temporary file of the file in progress may then stay behind (hidden, named
/// `.STEM.dng.rawcap-….tmp`), but no partial file ever appears under a final name.
final class ConvertInterruption: @unchecked Sendable {
    private let count = Mutex(0)
    private var watch: SignalWatch?

    /// Starts catching SIGINT; call ``stop()`` when the work is done.
    init() {
        watch = SignalWatch([SIGINT]) { [weak self] number, presses in
            guard presses == 1 else { SignalWatch.dieByDefaultAction(of: number) }
            self?.received()
        }
    }

    /// Whether Ctrl-C was pressed.
    var isInterrupted: Bool { count.withLock { $0 > 0 } }

    /// Restores the default SIGINT behaviour.
    func stop() {
        watch?.stop()
        watch = nil
    }

    private func received() {
        count.withLock { $0 += 1 }
        StandardError.print("rawcap convert: interrupted; finishing the current file (Ctrl-C again to stop now)")
    }
}
