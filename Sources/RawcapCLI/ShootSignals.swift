import Capture
import DNG
import FoundationEssentials
import OutputFiles
import PlatformSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C for long commands: the first SIGINT asks the run to stop cleanly (finish the file being written,
/// restore the camera's settings, close the session, exit 130); a second one removes the temporary files being
/// written and exits at once with 130. SIGTERM does the same (exit 143): a service manager or `timeout(1)` stopping
/// rawcap gets a closed journal and the camera's settings back.
///
/// SIGXFSZ is ignored too, so a file size limit (`ulimit -f`) shows as a write error (EFBIG) with a message,
/// not as a silent kill.
final class ShootSignals: @unchecked Sendable {
    /// The stop request the run watches.
    let stop = StopSignal()
    private var watch: SignalWatch?
    /// The first signal that arrived (SIGINT or SIGTERM), 0 before any.
    private let first = FirstSignal()

    /// Installs the handlers; with `trigger`, SIGUSR1 asks it for one host-triggered shot (`rawcap tether`).
    init(trigger: HostTrigger? = nil) {
        signal(SIGXFSZ, SIG_IGN)
        let first = first
        // On a terminal the progress line (and the echoed ^C) is cleared first; elsewhere there is none.
        let lineStart = isatty(2) == 1 ? "\r\u{1B}[K" : ""
        watch = SignalWatch(trigger == nil ? [SIGINT, SIGTERM] : [SIGINT, SIGTERM, SIGUSR1]) { [stop] number, _ in
            if number == SIGUSR1 {
                trigger?.request()
                return
            }
            let earlier = first.record(number)
            let word = number == SIGTERM ? "terminated" : "interrupted"
            if earlier != 0 {
                DescriptorIO.writeStandardError(lineStart + "rawcap: \(word) again; exiting now\n")
                // exit() does not unwind: the file being written would leave its hidden temporary behind.
                OutputFile.removeTemporaries()
                exit(128 + number)
            }
            DescriptorIO.writeStandardError(
                lineStart + "rawcap: \(word); finishing the current file (Ctrl-C again to quit at once)\n")
            stop.request()
        }
    }

    /// `error` as the command reports it: the run's `interrupted` after a SIGTERM is `terminated` (exit 143).
    func translate(_ error: any Error) -> any Error {
        guard first.number == SIGTERM else { return error }
        let failure = ShootFailure.failure(error)
        guard failure.code == .interrupted else { return error }
        let message = failure.message.replacing("interrupted (Ctrl-C)", with: "terminated (SIGTERM)")
        return CommandFailure(
            .terminated, message.hasPrefix("terminated") ? message : "terminated (SIGTERM): \(message)")
    }

    deinit {
        watch?.stop()
    }
}

/// The first of several signals, set from the signal thread and read from the command.
final class FirstSignal: Sendable {
    private let value = Mutex<Int32>(0)

    /// Records `number` unless a signal came before; returns the earlier one, 0 if none.
    func record(_ number: Int32) -> Int32 {
        value.withLock { value in
            defer { if value == 0 { value = number } }
            return value
        }
    }

    /// The first signal, 0 before any.
    var number: Int32 { value.withLock { $0 } }
}
