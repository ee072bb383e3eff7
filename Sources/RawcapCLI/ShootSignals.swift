import Capture
import DNG
import FoundationEssentials
import PlatformSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C for long commands: the first SIGINT asks the run to stop cleanly (finish the file being written,
/// restore the camera's settings, close the session, exit 130); a second one removes the temporary files being
/// written and exits at once with 130.
///
/// SIGXFSZ is ignored too, so a file size limit (`ulimit -f`) shows as a write error (EFBIG) with a message,
/// not as a silent kill.
final class ShootSignals: @unchecked Sendable {
    /// The stop request the run watches.
    let stop = StopSignal()
    private var watch: SignalWatch?

    /// Installs the handlers.
    init() {
        signal(SIGXFSZ, SIG_IGN)
        watch = SignalWatch([SIGINT]) { [stop] _, count in
            if count > 1 {
                DescriptorIO.writeStandardError("\nrawcap: interrupted again; exiting now\n")
                // exit() does not unwind: the file being written would leave its hidden temporary behind.
                OutputFile.removeTemporaries()
                exit(130)
            }
            DescriptorIO.writeStandardError(
                "\nrawcap: interrupted; finishing the current file (Ctrl-C again to quit at once)\n")
            stop.request()
        }
    }

    deinit {
        watch?.stop()
    }
}
