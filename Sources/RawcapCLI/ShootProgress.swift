import Capture
import Dispatch
import FoundationEssentials
import PlatformSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What a run tells the person watching it, on standard error: one line when it starts, one per saved file, warnings,
/// and on a terminal a progress line that tells the truth: the file in flight (its megabytes and rate so far), the
/// count done, with `--interval` a "next frame in …" countdown between shots, and the time left from the schedule
/// (interval runs) or the frames' average time (back-to-back runs). The line is cleared before every message and when
/// the run ends. `--json` puts each saved file on standard output as one JSON object and draws no progress line (it
/// would mix with `… | jq` on the terminal); `-q` prints nothing but errors.
final class ShootProgress: @unchecked Sendable {
    /// Held while an event is handled: the counters below and the terminal line.
    private let lock = Mutex(())
    private let isTerminal: Bool
    private let json: Bool
    private let quiet: Bool
    /// `pull` counts files and says "pulling"; `shoot` counts frames.
    private let pulling: Bool
    /// The run's interval (`--interval`), for the countdown and the time left.
    private let interval: Duration?
    private let clock = ContinuousClock()
    /// Frames (files for pull) in the run; 0 for a run until Ctrl-C.
    private var total = 0
    /// `rawcap tether`: the run waits for the camera's shots rather than shooting.
    private let tether: Bool
    private var running = false
    /// The frame (file) in flight, from 1; 0 before the first.
    private var current = 0
    /// Frames (files) finished.
    private var done = 0
    /// When the first frame was triggered: frame k is due at origin + (k-1)·interval.
    private var origin: ContinuousClock.Instant?
    /// The file in flight: bytes so far and when its first byte arrived.
    private var fileBytes = 0
    private var fileStarted: ContinuousClock.Instant?
    private var fileLastByte: ContinuousClock.Instant?
    /// Time from a frame's trigger to its last file, averaged over the frames done.
    private var frameStarted: ContinuousClock.Instant?
    private var frameSeconds: [Double] = []
    private var lastDraw: ContinuousClock.Instant
    private var lineShown = false
    private let encoder: JSONEncoder
    private var ticker: (any DispatchSourceTimer)?

    init(json: Bool, pulling: Bool = false, quiet: Bool = false, interval: Duration? = nil, tether: Bool = false) {
        self.json = json
        self.pulling = pulling
        self.quiet = quiet
        self.interval = interval
        self.tether = tether
        isTerminal = isatty(2) == 1 && !json && !quiet
        lastDraw = clock.now - .seconds(1)
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if isTerminal, interval != nil {
            // The countdown moves while nothing else happens.
            let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
            timer.schedule(deadline: .now() + .milliseconds(500), repeating: .milliseconds(500))
            timer.setEventHandler { [weak self] in self?.lock.withLock { _ in self?.draw(force: true) } }
            timer.resume()
            ticker = timer
        }
    }

    deinit { ticker?.cancel() }

    /// Handles one event from the run.
    func handle(_ event: CaptureEvent) { handle(event, camera: nil) }

    /// The observer for one of several cameras: each line it prints starts with `label: `.
    func observer(camera label: String?) -> @Sendable (CaptureEvent) -> Void {
        { [self] event in handle(event, camera: label) }
    }

    /// Handles one event from the run of the camera `label` (`nil`: the only one) that happened at `time` (now).
    func handle(_ event: CaptureEvent, camera label: String?, at time: ContinuousClock.Instant? = nil) {
        func say(_ message: String) { self.say(label.map { "\($0): " + message } ?? message) }
        lock.withLock { _ in
            let now = time ?? clock.now
            switch event {
            case .started(let count, let format, let camera):
                total = count ?? 0
                running = true
                if tether {
                    say(
                        "waiting for shots taken on \(camera)"
                            + (count.map { " (\($0) shot\($0 == 1 ? "" : "s"))" } ?? " until Ctrl-C") + ", saved as \(format)")
                } else if pulling {
                    say("pulling \(count ?? 0) file\(count == 1 ? "" : "s") as \(format) from \(camera)")
                } else {
                    say(
                        count.map { "shooting \($0) frame\($0 == 1 ? "" : "s") as \(format) from \(camera)" }
                            ?? "shooting as \(format) from \(camera) until Ctrl-C")
                }
            case .shotStarted(let frame):
                if pulling, current > 0 { done = max(done, current) }
                current = frame
                origin = origin ?? now
                frameStarted = now
                fileBytes = 0
                fileStarted = nil
                draw(force: true)
            case .bytesReceived(let count):
                if fileStarted == nil { fileStarted = now }
                fileLastByte = now
                fileBytes += count
                draw(force: false)
            case .saved(let file):
                if json, let line = try? encoder.encode(file) {
                    DescriptorIO.write(line + Data([0x0A]), to: STDOUT_FILENO)
                }
                if pulling {
                    done += 1
                } else if file.frame > done {
                    done = file.frame
                    if let frameStarted { frameSeconds.append((now - frameStarted).seconds) }
                }
                fileBytes = 0
                fileStarted = nil
                say("saved \(file.path) (\(Self.megabytes(file.size)), \(file.format))")
            case .warning(let message):
                say("warning: \(message)")
            case .cameraLost(let detail):
                line(ConnectionLine(event: "camera-lost", detail: detail))
                say("camera lost: \(detail); waiting for it to come back (Ctrl-C to stop)")
            case .cameraBack(let seconds):
                line(ConnectionLine(event: "camera-back", seconds: seconds))
                say("camera back after \(String(cFormat: "%.1f", seconds)) s")
            case .shotMissed(let frame, let detail):
                line(ConnectionLine(event: "shot-missed", frame: frame, detail: detail))
                say("frame \(frame) missed: \(detail)")
            }
        }
    }

    /// Clears the progress line and stops drawing it.
    func finish() {
        lock.withLock { _ in
            running = false
            ticker?.cancel()
            ticker = nil
            clearLine()
        }
    }

    /// Prints a message from outside the run (the command's summary): nothing with `-q`.
    func summary(_ message: String) {
        guard !quiet else { return }
        lock.withLock { _ in clearLine() }
        StandardError.print(message)
    }

    /// With `--json`, `object` as one line on standard output.
    private func line(_ object: some Encodable) {
        if json, let line = try? encoder.encode(object) { DescriptorIO.write(line + Data([0x0A]), to: STDOUT_FILENO) }
    }

    private func say(_ message: String) {
        guard !quiet else { return }
        clearLine()
        // Camera names and warnings carry camera strings: one line, no escape sequences.
        DescriptorIO.writeStandardError(message.oneLine + "\n")
        draw(force: true)
    }

    private func clearLine() {
        if lineShown {
            DescriptorIO.writeStandardError("\r\u{1B}[K")
            lineShown = false
        }
    }

    private func draw(force: Bool) {
        guard isTerminal, running, current > 0 else { return }
        let now = clock.now
        guard force || now - lastDraw >= .milliseconds(100) else { return }
        lastDraw = now
        DescriptorIO.writeStandardError("\r\u{1B}[K" + line(at: now))
        lineShown = true
    }

    /// The progress line at `now`.
    func line(at now: ContinuousClock.Instant) -> String {
        let noun = pulling ? "file" : "frame"
        var parts = ["\(noun) \(current)\(total > 0 ? "/\(total)" : "")"]
        let waiting = !pulling && done >= current
        if !waiting {
            if let fileStarted, let fileLastByte, fileBytes > 0 {
                // The rate of the transfer itself; once the bytes stop, the file is being written.
                let seconds = max(0.001, (fileLastByte - fileStarted).seconds)
                // A rate needs some time to mean anything (the first chunk arrives all at once).
                let rate =
                    seconds < 0.05 ? "" : String(cFormat: " at %.1f MB/s", Double(fileBytes) / seconds / 1e6)
                let writing = now - fileLastByte > .milliseconds(300)
                parts.append(Self.megabytes(fileBytes) + (writing ? " received, writing" : rate))
            } else {
                parts.append(pulling ? "starting" : "shooting")
            }
        } else if let interval, let origin, total == 0 || current < total {
            // Between interval shots: the next one is due at origin + current·interval.
            let next = origin + interval * current
            parts.append("saved · next \(noun) in " + Self.clockText((next - now).seconds))
        } else {
            parts.append("saved")
        }
        if let left = timeLeft(at: now) { parts.append(Self.clockText(left) + " left") }
        return parts.joined(separator: " · ")
    }

    /// Seconds until the run ends, when it can be told: by the schedule with an interval, else from the frames'
    /// average time.
    private func timeLeft(at now: ContinuousClock.Instant) -> Double? {
        guard total > 0, done < total else { return nil }
        let average = frameSeconds.isEmpty ? nil : frameSeconds.reduce(0, +) / Double(frameSeconds.count)
        if let interval, let origin, !pulling {
            // The last frame is due at origin + (total-1)·interval and takes about a frame's time; frames that
            // overrun the interval take their own time.
            let lastDue = origin + interval * (total - 1)
            let bySchedule = max(0, (lastDue - now).seconds) + (average ?? 0)
            return max(bySchedule, (average ?? 0) * Double(total - done))
        }
        guard done > 0 else { return nil }
        // Pull saves one file while the next downloads: its pace is the whole run's.
        let pace = pulling ? origin.map { (now - $0).seconds / Double(done) } : average
        guard let pace else { return nil }
        return pace * Double(max(0, total - done))
    }

    /// `0:07`, `12:30`, `1:02:03`.
    static func clockText(_ seconds: Double) -> String {
        let whole = max(0, Int(seconds.rounded(.up)))
        return whole >= 3600
            ? String(cFormat: "%d:%02d:%02d", whole / 3600, whole / 60 % 60, whole % 60)
            : String(cFormat: "%d:%02d", whole / 60, whole % 60)
    }

    static func megabytes(_ count: Int) -> String { String(cFormat: "%.1f MB", Double(count) / 1e6) }
}


/// `--json`'s line for `camera-lost`, `camera-back` and `shot-missed` (`--reconnect`).
private struct ConnectionLine: Encodable {
    var event: String
    var frame: Int?
    var seconds: Double?
    var detail: String?
}
