import Dispatch
import FakeUSB
import FoundationEssentials
import PlatformSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program in the foreground: it shares rawcap's terminal (standard input, output and error), SIGINT and
/// SIGTERM sent to rawcap are passed on to it, and rawcap waits for it on a thread of its own, so the emulated
/// camera's tasks keep serving it meanwhile.
enum ForegroundChild {
    /// Runs `command` (a path or a name on `PATH`, then its arguments) with `environment`; returns its exit status,
    /// or 128 + the signal number when a signal ended it.
    ///
    /// - Throws: ``FakeUSB/FakeUSBError`` `childFailed` when the program cannot be started.
    static func run(_ command: [String], environment: [String: String]) async throws -> Int32 {
        guard let name = command.first, let path = find(name) else {
            throw FakeUSBError(.childFailed, "\(command.first ?? "") not found")
        }
        // SIGINT and SIGTERM are caught before the program starts, by a plain handler installed at once (a dispatch
        // source registers later, and SIG_IGN would be inherited by the program): one that arrives meanwhile is
        // passed on once the program runs, and a caught signal is reset to its default in the program.
        foregroundChildPID = 0
        pendingForegroundSignal = 0
        let previous = [SIGINT, SIGTERM].map { ($0, signal($0, forwardToForegroundChild)) }
        defer { for (number, handler) in previous { signal(number, handler) } }
        // Swift's concurrency threads block nearly every signal, and a child inherits its parent thread's mask:
        // started from here as is, it would ignore Ctrl-C.
        var none = sigset_t()
        var saved = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &saved)
        let pid: pid_t
        do {
            pid = try ChildSpawn.spawn(path, arguments: Array(command.dropFirst()), environment: environment)
        } catch {
            pthread_sigmask(SIG_SETMASK, &saved, nil)
            throw FakeUSBError(.childFailed, "\(path): \(SystemErrorText.reason(error))")
        }
        pthread_sigmask(SIG_SETMASK, &saved, nil)
        foregroundChildPID = pid
        let pending = pendingForegroundSignal
        if pending != 0 { kill(pid, pending) }
        return await withCheckedContinuation { continuation in
            DetachedThread.start(name: "rawcap.sim.child") {
                continuation.resume(returning: ChildSpawn.waitForExit(pid))
            }
        }
    }

    /// Where `execvp(3)` would find `name`: itself when it has a slash, else the first executable regular file of
    /// that name in `PATH`'s folders, in order (an empty entry is the current folder; a directory or a file that
    /// cannot be executed is passed over).
    static func find(_ name: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        if name.contains("/") { return isExecutableFile(name) ? name : nil }
        guard !name.isEmpty else { return nil }
        let folders = (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false)
        return folders.map { $0.isEmpty ? "./" + name : "\($0)/\(name)" }.first(where: isExecutableFile)
    }

    /// Whether `path` is a regular file (after symbolic links) the user may execute.
    private static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && access(path, X_OK) == 0
    }
}

/// The running program's process ID, read by the signal handler (0 before it starts).
nonisolated(unsafe) private var foregroundChildPID: pid_t = 0
/// A signal that arrived before the program started.
nonisolated(unsafe) private var pendingForegroundSignal: Int32 = 0

/// The SIGINT and SIGTERM handler: async-signal-safe, it only reads a word and calls `kill`.
private func forwardToForegroundChild(_ number: Int32) {
    let pid = foregroundChildPID
    if pid > 0 {
        kill(pid, number)
    } else {
        pendingForegroundSignal = number
    }
}
