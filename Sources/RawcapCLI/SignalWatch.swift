import FoundationEssentials
import PlatformSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Signals turned into calls on a thread of rawcap's own: the one way rawcap's commands take Ctrl-C (and `sim serve`
/// SIGTERM) over.
///
/// A C handler (installed with `sigaction` before ``init(_:_:)`` returns) only writes the signal's number into a
/// pipe, which is async-signal-safe; a dedicated thread reads the pipe and calls the handler with how many times
/// that signal has arrived. Two properties a Dispatch signal source lacks on Linux: the handler is in place the
/// moment the initializer returns (a source registers later, and a signal in between was swallowed or, after its
/// disposition went back to the default, killed the process), and the disposition never changes behind the
/// handler's back while the watch lasts, so every press reaches the handler, however loaded the machine is.
final class SignalWatch: Sendable {
    private let signals: [Int32]
    private let stopped: Mutex<Bool>

    /// Starts calling `handler(signal, count)` for each of `signals` that arrives; `count` is 1 for the first
    /// arrival of that signal, 2 for the second, and so on.
    init(_ signals: [Int32], _ handler: @escaping @Sendable (_ signal: Int32, _ count: Int) -> Void) {
        precondition(signals.allSatisfy { (1...63).contains($0) }, "signal numbers fit one byte above zero")
        self.signals = signals
        // Made here, before any handler exists: a lazy global must not first be touched inside a signal handler.
        // Without a pipe (no file descriptors left) the signals keep their default action.
        guard let readEnd = signalPipe?.read else {
            stopped = Mutex(true)
            return
        }
        stopped = Mutex(false)
        DetachedThread.start(name: "rawcap.signals") {
            var counts: [Int32: Int] = [:]
            while true {
                var byte: UInt8 = 0
                let count = read(readEnd, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                // A zero byte is `stop()`'s: every byte before it was this watch's.
                guard count == 1, byte != 0 else { return }
                let number = Int32(byte)
                counts[number, default: 0] += 1
                handler(number, counts[number, default: 1])
            }
        }
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = writeSignalNumber
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
    }

    /// Gives the signals their default action back and ends the thread; the handler is not called again.
    func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        for number in signals { signal(number, SIG_DFL) }
        var zero: UInt8 = 0
        if let writeEnd = signalPipe?.write { _ = write(writeEnd, &zero, 1) }
    }

    deinit { stop() }

    /// Ends the process as `signal` would have with its default action (after the handler decided to).
    static func dieByDefaultAction(of number: Int32) -> Never {
        signal(number, SIG_DFL)
        raise(number)
        exit(128 + number)
    }
}

/// The pipe the C handler writes signal numbers into; made before any handler is installed, close-on-exec so that
/// children (gphoto2 under `sim usb`, say) do not inherit it. Its write end does not block: a handler never waits,
/// even if nobody read 64 KiB of presses.
private let signalPipe: (read: Int32, write: Int32)? = {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return nil }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
    return (ends[0], ends[1])
}()

/// The signal handler: one `write`, async-signal-safe; `errno` is kept for the code the signal interrupted.
private func writeSignalNumber(_ number: Int32) {
    guard let writeEnd = signalPipe?.write else { return }
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(writeEnd, &byte, 1)
    errno = saved
}
