import Synchronization

/// A request to stop a run early (Ctrl-C): the run finishes the file it is writing, restores the camera's
/// settings and ends with ``CaptureError/Code-swift.struct/interrupted``.
public final class StopSignal: Sendable {
    private let requested = Mutex(false)

    /// Creates a signal that has not fired.
    public init() {}

    /// Asks the run to stop.
    public func request() { requested.withLock { $0 = true } }

    /// Whether a stop was asked for.
    public var isRequested: Bool { requested.withLock { $0 } }

    /// Sleeps until `deadline`, waking early when a stop is requested; returns whether it was.
    public func sleep(until deadline: ContinuousClock.Instant) async -> Bool {
        let clock = ContinuousClock()
        while clock.now < deadline {
            if isRequested { return true }
            let slice = min(deadline - clock.now, .milliseconds(50))
            try? await Task.sleep(for: slice)
        }
        return isRequested
    }
}
