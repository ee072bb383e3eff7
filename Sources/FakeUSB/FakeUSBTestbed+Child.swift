import Foundation

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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = childEnvironment.merging(environment) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try Self.withDefaultSignalMask { try process.run() }
        } catch {
            throw FakeUSBError(.childFailed, "\(path): \(error)")
        }
        let child = ChildProcess(process)
        let watchdog = Task {
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { child.stop(timedOut: true) }
        }
        defer { watchdog.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<FakeUSBChildResult, Never>) in
                let reader = Thread {
                    let collected = ChildOutput()
                    let errorReader = Thread {
                        collected.setErrors(errors.fileHandleForReading.readDataToEndOfFile())
                    }
                    errorReader.start()
                    let standardOutput = output.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    let standardError = collected.waitForErrors()
                    let status =
                        process.terminationReason == .uncaughtSignal
                        ? 128 + process.terminationStatus : process.terminationStatus
                    continuation.resume(
                        returning: FakeUSBChildResult(
                            status: status, standardOutput: standardOutput, standardError: standardError,
                            timedOut: child.timedOut))
                }
                reader.name = "rawcap.fakeusb.child"
                reader.start()
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
private final class ChildProcess: @unchecked Sendable {
    private let process: Process
    private let lock = NSLock()
    private var stopped = false
    private var didTimeOut = false

    init(_ process: Process) { self.process = process }

    var timedOut: Bool {
        lock.lock()
        defer { lock.unlock() }
        return didTimeOut
    }

    /// SIGTERM now, SIGKILL a second later if it is still there.
    func stop(timedOut: Bool) {
        lock.lock()
        guard !stopped else {
            lock.unlock()
            return
        }
        stopped = true
        didTimeOut = timedOut
        lock.unlock()
        guard process.isRunning else { return }
        process.terminate()
        let pid = process.processIdentifier
        let process = self.process
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 1)
            if process.isRunning { kill(pid, SIGKILL) }
        }
    }
}

/// Standard error, read on its own thread so that neither pipe fills up and blocks the child.
private final class ChildOutput: @unchecked Sendable {
    private let condition = NSCondition()
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
