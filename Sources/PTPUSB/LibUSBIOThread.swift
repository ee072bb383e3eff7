import PlatformSupport

/// A thread that runs blocking libusb calls one after another, so that they never occupy Swift's cooperative pool
/// (two threads wide on the build machines): callers `await` ``run(_:)`` and are resumed through a continuation.
///
/// The thread ends after ``stop()`` once its queue is empty, or when the value is released.
final class LibUSBIOThread: Sendable {
    private let queue: JobQueue

    /// Starts a thread named `name` (it shows in debuggers and `top -H`).
    init(name: String) {
        let queue = JobQueue()
        self.queue = queue
        DetachedThread.start(name: name) { queue.drain() }
    }

    deinit { queue.stop() }

    /// Runs `body` on the thread and returns its result, or `nil` when the thread has been stopped.
    func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let accepted = queue.enqueue { continuation.resume(returning: body()) }
            if !accepted { continuation.resume(returning: nil) }
        }
    }

    /// Refuses new work; the thread finishes what is queued, then exits.
    func stop() { queue.stop() }
}

/// The thread's work queue; the thread's body owns it, so it outlives the ``LibUSBIOThread`` that feeds it.
private final class JobQueue: @unchecked Sendable {
    private let condition = ThreadCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    private var stopped = false

    func enqueue(_ job: @escaping @Sendable () -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped else { return false }
        jobs.append(job)
        condition.signal()
        return true
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    /// The thread's body.
    func drain() {
        while true {
            condition.lock()
            while head == jobs.count && !stopped { condition.wait() }
            if head == jobs.count {
                condition.unlock()
                return
            }
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            }
            condition.unlock()
            job()
        }
    }
}
