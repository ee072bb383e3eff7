import CFakeUSB
import Synchronization

/// Wakes the tasks waiting for a fake device to change. The C device model calls ``fire()`` (from umockdev's worker
/// thread or any other) after every change; a task reads the device's generation, tries its operation, and waits
/// for the generation to move on, so a change between the try and the wait is never missed.
final class FakeUSBSignal: Sendable {
    private struct State {
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextID = 0
        /// The C device, set once it exists (the signal is created first, as its notification context).
        var device: DevicePointer?
    }

    /// The C device's pointer, used from any thread (the C model locks itself).
    private struct DevicePointer: @unchecked Sendable {
        let raw: OpaquePointer
    }

    private let state = Mutex(State())

    func attach(_ device: OpaquePointer) {
        let pointer = DevicePointer(raw: device)
        state.withLock { $0.device = pointer }
    }

    /// Forgets the C device before its testbed frees it; ``generation`` is 0 from then on.
    func detach() {
        state.withLock { $0.device = nil }
    }

    /// The device's change counter. Read under the lock ``detach()`` takes, so that the device cannot be freed
    /// in the middle of the read.
    var generation: UInt64 {
        state.withLock { state in state.device.map { fakeusb_device_generation($0.raw) } } ?? 0
    }

    /// Resumes every waiter.
    func fire() {
        let current = state.withLock { state in
            defer { state.waiters = [:] }
            return state.waiters
        }
        for waiter in current.values { waiter.resume() }
    }

    /// Waits until the generation differs from `generation`, `deadline` passes, or the task is cancelled.
    func wait(since generation: UInt64, until deadline: ContinuousClock.Instant?) async {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
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
                state.withLock { $0.waiters[id] = continuation }
                let expired = deadline.map { $0 <= .now } ?? false
                if self.generation != generation || Task.isCancelled || expired { resume(id) }
            }
        } onCancel: {
            resume(id)
        }
    }

    private func resume(_ id: Int) {
        let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
        waiter?.resume()
    }
}
