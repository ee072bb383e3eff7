import Synchronization

/// One bulb exposure as the host holds it: the shutter opens when the driver sends its open request, stays open for
/// ``requested`` on the monotonic clock (`ContinuousClock`, which a change of the wall clock does not move), and
/// closes early when a stop is requested (Ctrl-C, SIGTERM), so the shot that was being exposed is still closed,
/// developed and saved.
///
/// A driver calls ``opening()`` right before it sends the request that opens the shutter, then ``hold()``, then
/// sends the request that closes it. Both requests travel the same way, so the camera sees them ``requested`` apart.
public final class BulbHold: Sendable {
    /// How long the shutter should stay open.
    public let requested: Duration
    private let stop: StopSignal
    private let state = Mutex(State())

    private struct State {
        var opened: ContinuousClock.Instant?
        var closed: ContinuousClock.Instant?
        var interrupted = false
    }

    /// Creates a hold of `requested`, cut short by `stop`.
    public init(requested: Duration, stop: StopSignal) {
        self.requested = requested
        self.stop = stop
    }

    /// Marks the moment the open request goes out; the hold's deadline counts from here.
    public func opening() {
        let now = ContinuousClock().now
        state.withLock { $0.opened = now }
    }

    /// Waits until ``requested`` after ``opening()`` (or returns at once when a stop is requested), and marks the
    /// moment the close request goes out.
    public func hold() async {
        let clock = ContinuousClock()
        let opened = state.withLock { state in
            if state.opened == nil { state.opened = clock.now }
            return state.opened ?? clock.now
        }
        let deadline = opened + requested
        // Sleeping, not spinning: on a loaded machine a spinning thread loses its time slice to the scheduler and
        // wakes later than a sleeping one (measured: spinning the last 60 ms made the close 20–60 ms late under
        // load, sleeping 0–35 ms; on an idle machine both are within a millisecond).
        var interrupted = false
        while clock.now < deadline {
            if stop.isRequested {
                interrupted = true
                break
            }
            // Short slices so a stop is seen within 20 ms; the last one ends on the deadline itself.
            let wake = min(deadline, clock.now + .milliseconds(20))
            try? await Task.sleep(until: wake, tolerance: .milliseconds(1), clock: clock)
        }
        let closed = clock.now
        state.withLock { state in
            state.closed = closed
            state.interrupted = interrupted
        }
    }

    /// How long the shutter was held open on the host's clock (from the open request to the close request), once
    /// closed.
    public var measured: Duration? {
        state.withLock { state in
            guard let opened = state.opened, let closed = state.closed else { return nil }
            return closed - opened
        }
    }

    /// Whether a stop request closed the shutter before ``requested`` had passed.
    public var wasInterrupted: Bool { state.withLock { $0.interrupted } }
}

/// What `--exposure` asks for: a duration, and whether bulb is wanted even where the camera has a shutter speed that
/// long.
public struct ExposureRequest: Hashable, Sendable {
    /// The exposure time.
    public var duration: Duration
    /// Hold the shutter open in bulb whatever shutter speeds the camera offers (`--bulb`).
    public var forceBulb: Bool

    /// Creates a request.
    public init(duration: Duration, forceBulb: Bool = false) {
        self.duration = duration
        self.forceBulb = forceBulb
    }

    /// Parses `240s`, `1/250`, `2.5s`, `1m30s`, `500ms`, `1h`, or a bare number of seconds (`30`, `0.5`).
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/invalidPlan`` naming the text; durations from 1/100000 s to 24 h.
    public static func parse(_ text: String) throws -> Duration {
        let invalid = CaptureError(
            .invalidPlan, "--exposure \(text): give a time such as 1/250, 2.5s, 30s, 1m30s or 240s (up to 24h)")
        let lower = text.lowercased().filter { $0 != " " }
        var seconds: Double
        if let slash = lower.firstIndex(of: "/") {
            var denominatorText = String(lower[lower.index(after: slash)...])
            if denominatorText.hasSuffix("s") { denominatorText.removeLast() }
            guard let numerator = Double(lower[..<slash]), let denominator = Double(denominatorText),
                numerator.isFinite, denominator.isFinite, numerator > 0, denominator > 0
            else { throw invalid }
            seconds = numerator / denominator
        } else if let plain = Double(lower) {
            seconds = plain
        } else {
            // Units, largest first, each at most once: 1h2m3.5s, 1m30s, 500ms.
            seconds = 0
            var rest = Substring(lower)
            var used: Set<String> = []
            while !rest.isEmpty {
                let digits = rest.prefix { $0.isNumber || $0 == "." }
                guard !digits.isEmpty, let value = Double(digits), value.isFinite else { throw invalid }
                rest = rest.dropFirst(digits.count)
                let unit: String
                if rest.hasPrefix("ms") {
                    unit = "ms"
                } else if let first = rest.first, "hms".contains(first) {
                    unit = String(first)
                } else {
                    throw invalid
                }
                guard !used.contains(unit) else { throw invalid }
                used.insert(unit)
                rest = rest.dropFirst(unit.count)
                seconds += value * ["h": 3600, "m": 60, "s": 1, "ms": 0.001][unit, default: 0]
            }
        }
        guard seconds.isFinite, seconds >= 0.000_01, seconds <= 86_400 else { throw invalid }
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }
}
