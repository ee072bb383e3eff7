import Dispatch

/// Where fake cameras run: a task executor on a Dispatch queue of its own, off Swift's cooperative pool.
///
/// The cooperative pool has as many threads as cores (two on the build machines). When a test process fills it with
/// CPU-bound work, a camera served from the pool answers late: libgphoto2 gives up on OpenSession after its USB
/// timeout, opens again, and fails with "Session Already Opened". Work submitted to a Dispatch queue gets a thread
/// of its own when the pool is busy, so the camera answers as a real one would, whatever else the process does.
///
/// The queue is concurrent: the camera's tasks (serving commands, pumping events, answering class requests) are
/// independent, and the actors they call keep their own order.
public final class FakeUSBExecutor: TaskExecutor, @unchecked Sendable {
    /// The one executor every fake camera in the process uses.
    public static let shared = FakeUSBExecutor()

    private static let marker = DispatchSpecificKey<Bool>()
    private let queue: DispatchQueue

    private init() {
        queue = DispatchQueue(label: "rawcap.fakeusb.camera", qos: .userInitiated, attributes: .concurrent)
        queue.setSpecific(key: Self.marker, value: true)
    }

    /// Whether the calling code runs on the fake cameras' queue (and so not on the cooperative pool).
    public static var isCurrent: Bool { DispatchQueue.getSpecific(key: marker) ?? false }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
