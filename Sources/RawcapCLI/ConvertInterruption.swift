import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C during `rawcap convert`: the file being written is finished (or abandoned cleanly by its own error
/// handling), no further file is started, and the command exits with 130. A second Ctrl-C ends the process at once,
/// as the default handler would; the temporary file of the file in progress may then stay behind (hidden, named
/// `.STEM.dng.rawcap-….tmp`; the next rawcap writing into that folder removes it), but no partial file ever appears
/// under a final name. SIGTERM does what the first Ctrl-C does (exit 143).
final class ConvertInterruption: @unchecked Sendable {
    /// The first signal, 0 before any.
    private let first = Mutex<Int32>(0)
    private var watch: SignalWatch?

    /// Starts catching SIGINT and SIGTERM; call ``stop()`` when the work is done.
    init() {
        watch = SignalWatch([SIGINT, SIGTERM]) { [weak self] number, _ in
            guard let self, self.received(number) else { SignalWatch.dieByDefaultAction(of: number) }
        }
    }

    /// Whether Ctrl-C was pressed (or SIGTERM came).
    var isInterrupted: Bool { first.withLock { $0 != 0 } }

    /// Whether the signal was SIGTERM.
    var isTerminated: Bool { first.withLock { $0 == SIGTERM } }

    /// Restores the default SIGINT behaviour.
    func stop() {
        watch?.stop()
        watch = nil
    }

    /// Records the first signal and says so; returns false for any later one.
    private func received(_ number: Int32) -> Bool {
        let isFirst = first.withLock { first in
            guard first == 0 else { return false }
            first = number
            return true
        }
        guard isFirst else { return false }
        StandardError.print(
            "rawcap convert: \(number == SIGTERM ? "terminated" : "interrupted"); finishing the current file (Ctrl-C "
                + "again to stop now)")
        return true
    }
}
