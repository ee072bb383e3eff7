import Dispatch
import FakeUSB
import Foundation

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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = Array(command.dropFirst())
        process.environment = environment
        // Swift's concurrency threads block nearly every signal, and a child inherits its parent thread's mask:
        // started from here as is, it would ignore Ctrl-C.
        var none = sigset_t()
        var saved = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        do {
            try process.run()
        } catch {
            throw FakeUSBError(.childFailed, "\(path): \(error)")
        }
        let forwarding = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            let pid = process.processIdentifier
            source.setEventHandler { kill(pid, number) }
            source.resume()
            return source
        }
        defer { for source in forwarding { source.cancel() } }
        return await withCheckedContinuation { continuation in
            let waiter = Thread {
                process.waitUntilExit()
                let status = process.terminationStatus
                continuation.resume(returning: process.terminationReason == .uncaughtSignal ? 128 + status : status)
            }
            waiter.name = "rawcap.sim.child"
            waiter.start()
        }
    }

    private static func find(_ name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}
