import CFakeUSB
import Foundation

/// Wakes the tasks waiting for a fake device to change. The C device model calls ``fire()`` (from umockdev's worker
/// thread or any other) after every change; a task reads the device's generation, tries its operation, and waits
/// for the generation to move on, so a change between the try and the wait is never missed.
final class FakeUSBSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextID = 0
    /// The C device, set once it exists (the signal is created first, as its notification context).
    private var device: OpaquePointer?

    func attach(_ device: OpaquePointer) {
        lock.lock()
        self.device = device
        lock.unlock()
    }

    /// The device's change counter.
    var generation: UInt64 {
        lock.lock()
        let device = self.device
        lock.unlock()
        return device.map { fakeusb_device_generation($0) } ?? 0
    }

    /// Resumes every waiter.
    func fire() {
        lock.lock()
        let current = waiters
        waiters = [:]
        lock.unlock()
        for waiter in current.values { waiter.resume() }
    }

    /// Waits until the generation differs from `generation`, `deadline` passes, or the task is cancelled.
    func wait(since generation: UInt64, until deadline: ContinuousClock.Instant?) async {
        let id = lock.withLock {
            defer { nextID += 1 }
            return nextID
        }
        let timer = deadline.map { deadline in
            Task { [weak self] in
                try? await Task.sleep(until: deadline, clock: .continuous)
                self?.resume(id)
            }
        }
        defer { timer?.cancel() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                lock.lock()
                waiters[id] = continuation
                lock.unlock()
                let expired = deadline.map { $0 <= .now } ?? false
                if self.generation != generation || Task.isCancelled || expired { resume(id) }
            }
        } onCancel: {
            resume(id)
        }
    }

    private func resume(_ id: Int) {
        lock.lock()
        let waiter = waiters.removeValue(forKey: id)
        lock.unlock()
        waiter?.resume()
    }
}
