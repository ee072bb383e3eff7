import FoundationEssentials
import PlatformSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What a child program left behind.
public struct FakeUSBChildResult: Sendable {
    /// The exit status, or 128 + the signal number when a signal ended it.
    public var status: Int32
    /// Everything it wrote to standard output.
    public var standardOutput: Data
    /// Everything it wrote to standard error.
    public var standardError: Data
    /// Whether it was stopped because it ran past its timeout.
    public var timedOut: Bool

    /// Standard output as UTF-8 text (lossy).
    public var output: String { String(decoding: standardOutput, as: UTF8.self) }
    /// Standard error as UTF-8 text (lossy).
    public var errorOutput: String { String(decoding: standardError, as: UTF8.self) }
}

extension FakeUSBTestbed {
    /// Runs a libusb program as a child process that sees the testbed's cameras, while this process plays them
    /// (umockdev's ioctl socket carries the child's USB requests here). The child gets ``childEnvironment`` plus
    /// `environment`; `executable` is a path or a name looked up on `PATH`.
    ///
    /// Waiting happens on threads of its own, never on Swift's cooperative pool: the cameras' tasks keep running.
    /// After `timeout` (or when the calling task is cancelled) the child gets SIGTERM, then SIGKILL a second later.
    ///
    /// - Throws: ``FakeUSBError/Code/childFailed`` when the program cannot be started.
    public func runChild(
        _ executable: String, _ arguments: [String] = [], environment: [String: String] = [:],
        timeout: Duration = .seconds(60)
    ) async throws(FakeUSBError) -> FakeUSBChildResult {
        guard let path = Self.find(executable) else { throw FakeUSBError(.childFailed, "\(executable) not found") }
        // Standard input from /dev/null, output and error into pipes; the ends kept here are close-on-exec.
        var outputEnds: [Int32] = [-1, -1]
        var errorEnds: [Int32] = [-1, -1]
        let nullDevice = open("/dev/null", O_RDWR | O_CLOEXEC)
        guard nullDevice >= 0, pipe(&outputEnds) == 0, pipe(&errorEnds) == 0 else {
            let message = String(cString: strerror(errno))
            for descriptor in [nullDevice] + outputEnds + errorEnds where descriptor >= 0 { close(descriptor) }
            throw FakeUSBError(.childFailed, "\(path): \(message)")
        }
        for descriptor in outputEnds + errorEnds { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let pid: pid_t
        do {
            pid = try Self.withDefaultSignalMask {
                try ChildSpawn.spawn(
                    path, arguments: arguments, environment: childEnvironment.merging(environment) { $1 },
                    standardInput: nullDevice, standardOutput: outputEnds[1], standardError: errorEnds[1])
            }
        } catch {
            for descriptor in [nullDevice] + outputEnds + errorEnds { close(descriptor) }
            throw FakeUSBError(.childFailed, "\(path): \(SystemErrorText.reason(error))")
        }
        for descriptor in [nullDevice, outputEnds[1], errorEnds[1]] { close(descriptor) }
        let (outputEnd, errorEnd) = (outputEnds[0], errorEnds[0])
        let child = ChildProcess(pid)
        let watchdog = Task {
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { child.stop(timedOut: true) }
        }
        defer { watchdog.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<FakeUSBChildResult, Never>) in
                DetachedThread.start(name: "rawcap.fakeusb.child") {
                    let collected = ChildOutput()
                    DetachedThread.start(name: "rawcap.fakeusb.child") {
                        collected.setErrors(DescriptorIO.readToEnd(errorEnd))
                        close(errorEnd)
                    }
                    let standardOutput = DescriptorIO.readToEnd(outputEnd)
                    close(outputEnd)
                    let status = ChildSpawn.waitForExit(pid)
                    child.exited()
                    let standardError = collected.waitForErrors()
                    continuation.resume(
                        returning: FakeUSBChildResult(
                            status: status, standardOutput: standardOutput, standardError: standardError,
                            timedOut: child.timedOut))
                }
            }
        } onCancel: {
            child.stop(timedOut: false)
        }
    }

    /// Runs `body` with no signal blocked on this thread. A child inherits its parent thread's signal mask, and
    /// the threads of Swift's concurrency pool (libdispatch workers) block nearly all signals: a child started from
    /// one would ignore SIGTERM and Ctrl-C.
    static func withDefaultSignalMask<T>(_ body: () throws -> T) rethrows -> T {
        var none = sigset_t()
        var saved = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        return try body()
    }

    /// `name` itself when it holds a slash, else its first executable match on `PATH`.
    static func find(_ name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}

/// A running child, stopped at most once.
private final class ChildProcess: Sendable {
    private struct State {
        var stopped = false
        var didTimeOut = false
        var exited = false
    }

    private let pid: pid_t
    private let state = Mutex(State())

    init(_ pid: pid_t) { self.pid = pid }

    var timedOut: Bool { state.withLock { $0.didTimeOut } }

    /// Called once the child has been reaped: its process ID is no longer its own.
    func exited() { state.withLock { $0.exited = true } }

    /// SIGTERM now, SIGKILL a second later if it is still there.
    func stop(timedOut: Bool) {
        let running = state.withLock { state in
            guard !state.stopped else { return false }
            state.stopped = true
            state.didTimeOut = timedOut
            return !state.exited
        }
        guard running else { return }
        kill(pid, SIGTERM)
        let (pid, state) = (self.pid, self)
        DetachedThread.start(name: "rawcap.fakeusb.kill") {
            sleep(1)
            if !state.state.withLock({ $0.exited }) { kill(pid, SIGKILL) }
        }
    }
}

/// Standard error, read on its own thread so that neither pipe fills up and blocks the child.
private final class ChildOutput: @unchecked Sendable {
    private let condition = ThreadCondition()
    private var errors: Data?

    func setErrors(_ data: Data) {
        condition.lock()
        errors = data
        condition.signal()
        condition.unlock()
    }

    func waitForErrors() -> Data {
        condition.lock()
        defer { condition.unlock() }
        while errors == nil { condition.wait() }
        return errors ?? Data()
    }
}
