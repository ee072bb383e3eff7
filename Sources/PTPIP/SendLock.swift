import Synchronization

/// A first-come, first-served lock for async code: it keeps one stream's writes whole.
///
/// Two tasks may write to one connection at once (the device side's event pump and its Probe Response task both
/// write to the event connection). A TCP write can be partial and then wait for room; without the lock the second
/// writer's bytes would land in the middle of the first one's packet.
final class SendLock: Sendable {
    private struct State: Sendable {
        var isLocked = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Runs `body` while holding the lock.
    func withLock<T, Failure: Error>(_ body: () async throws(Failure) -> T) async throws(Failure) -> T {
        await acquire()
        defer { releaseLock() }
        return try await body()
    }

    private func acquire() async {
        let acquired = state.withLock { state in
            if state.isLocked { return false }
            state.isLocked = true
            return true
        }
        if acquired { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state in
                if !state.isLocked {
                    state.isLocked = true
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    private func releaseLock() {
        let next: CheckedContinuation<Void, Never>? = state.withLock { state in
            guard !state.waiters.isEmpty else {
                state.isLocked = false
                return nil
            }
            // Ownership passes straight to the next waiter; the lock stays held.
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
