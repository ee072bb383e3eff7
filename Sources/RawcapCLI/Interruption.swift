import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C for camera commands: the first SIGINT cancels the command's task, so that it can close the session and
/// put settings back (``CameraControl/CameraSettings/preserving(_:_:)`` restores in a task cancellation does not
/// reach), and the command ends with ``CommandFailure/Code/interrupted`` (exit 130, one line, JSON with `--json`).
/// A second SIGINT ends the process at once, as the default action does.
enum Interruption {
    /// Runs `body` in a task that SIGINT cancels; any error after an interrupt becomes `interrupted`.
    static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let interrupted = Flag()
        let task = Task { try await body() }
        let watch = SignalWatch([SIGINT]) { number, count in
            // A second Ctrl-C terminates: a camera that does not answer must not hold the user.
            guard count == 1 else { SignalWatch.dieByDefaultAction(of: number) }
            interrupted.set()
            task.cancel()
        }
        defer { watch.stop() }
        do {
            return try await task.value
        } catch {
            guard interrupted.isSet else { throw error }
            throw CommandFailure(.interrupted, "interrupted (Ctrl-C); the camera session was closed")
        }
    }

    /// A flag set from the signal queue and read from the command's task.
    private final class Flag: Sendable {
        private let value = Mutex(false)

        func set() { value.withLock { $0 = true } }
        var isSet: Bool { value.withLock { $0 } }
    }
}
