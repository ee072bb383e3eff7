import Dispatch
import Foundation

/// Ctrl-C during `rawcap convert`: the file being written is finished (or abandoned cleanly by its own error
/// handling), no further file is started, and the command exits with 130. A second Ctrl-C ends the process at once,
/// as the default handler would; the temporary file of the file in progress may then stay behind (hidden, named
/// `.STEM.dng.rawcap-….tmp`), but no partial file ever appears under a final name.
final class ConvertInterruption: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var source: DispatchSourceSignal?

    /// Starts catching SIGINT; call ``stop()`` when the work is done.
    init() {
        // Ignored at the process level so that only the dispatch source sees it.
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [weak self] in self?.received() }
        source.resume()
        self.source = source
    }

    /// Whether Ctrl-C was pressed.
    var isInterrupted: Bool { lock.withLock { count > 0 } }

    /// Restores the default SIGINT behaviour.
    func stop() {
        source?.cancel()
        source = nil
        signal(SIGINT, SIG_DFL)
    }

    private func received() {
        let presses = lock.withLock {
            count += 1
            return count
        }
        if presses == 1 {
            StandardError.print("rawcap convert: interrupted; finishing the current file (Ctrl-C again to stop now)")
        } else {
            signal(SIGINT, SIG_DFL)
            raise(SIGINT)
        }
    }
}
