import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C for camera commands: the first SIGINT cancels the command's task, so that it can close the session and
/// put settings back (``CameraControl/CameraSettings/preserving(_:_:)`` restores in a task cancellation does not
/// reach), and the command ends with ``CommandFailure/Code/interrupted`` (exit 130, one line, JSON with `--json`).
/// A second SIGINT ends the process at once, as the default action does. SIGTERM does the same, ending the command
/// with ``CommandFailure/Code/terminated`` (exit 143).
enum Interruption {
    /// Runs `body` in a task that SIGINT cancels; any error after an interrupt becomes `interrupted`.
    static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let interrupted = Flag()
        let task = Task { try await body() }
        let watch = SignalWatch([SIGINT, SIGTERM]) { number, _ in
            // A second signal terminates: a camera that does not answer must not hold the user.
            guard interrupted.set(number) else { SignalWatch.dieByDefaultAction(of: number) }
            task.cancel()
        }
        defer { watch.stop() }
        do {
            return try await task.value
        } catch {
            switch interrupted.signal {
            case SIGINT: throw CommandFailure(.interrupted, "interrupted (Ctrl-C); the camera session was closed")
            case SIGTERM: throw CommandFailure(.terminated, "terminated (SIGTERM); the camera session was closed")
            default: throw error
            }
        }
    }

    /// The first signal, set from the signal thread and read from the command's task.
    private final class Flag: Sendable {
        private let value = Mutex<Int32>(0)

        /// Records `number` if it is the first signal; returns whether it was.
        func set(_ number: Int32) -> Bool {
            value.withLock { value in
                guard value == 0 else { return false }
                value = number
                return true
            }
        }

        /// The first signal, 0 before any.
        var signal: Int32 { value.withLock { $0 } }
    }
}
