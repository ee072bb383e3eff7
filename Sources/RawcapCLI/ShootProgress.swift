import Capture
import FoundationEssentials
import PlatformSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The progress line on a terminal (frames done, bytes, MB/s, time left) and the one-line report per saved file;
/// the progress line stays silent when standard error is not a terminal. `--json` puts each saved file on standard
/// output as one JSON object.
final class ShootProgress: @unchecked Sendable {
    /// Held while an event is handled: the counters below and the terminal line.
    private let lock = Mutex(())
    private let isTerminal = isatty(2) == 1
    private let json: Bool
    /// `rawcap tether`: the run waits for the camera's shots rather than shooting.
    private let tether: Bool
    private let started = ContinuousClock.now
    /// Frames in the run; 0 for a run until Ctrl-C.
    private var frames = 0
    private var running = false
    private var framesStarted = 0
    private var bytes = 0
    private var lastDraw = ContinuousClock.now - .seconds(1)
    private var lineShown = false
    private let encoder: JSONEncoder

    init(json: Bool, tether: Bool = false) {
        self.json = json
        self.tether = tether
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    /// Handles one event from the run.
    func handle(_ event: CaptureEvent) {
        lock.withLock { _ in
            switch event {
            case .started(let count, let format, let camera):
                frames = count ?? 0
                running = true
                if tether {
                    say(
                        "waiting for shots taken on \(camera)"
                            + (count.map { " (\($0) shot\($0 == 1 ? "" : "s"))" } ?? " until Ctrl-C") + ", saved as \(format)")
                } else {
                    say(
                        count.map { "shooting \($0) frame\($0 == 1 ? "" : "s") as \(format) from \(camera)" }
                            ?? "shooting as \(format) from \(camera) until Ctrl-C")
                }
            case .shotStarted(let frame):
                framesStarted = frame
                draw(force: true)
            case .bytesReceived(let count):
                bytes += count
                draw(force: false)
            case .saved(let file):
                if json, let line = try? encoder.encode(file) {
                    DescriptorIO.write(line + Data([0x0A]), to: STDOUT_FILENO)
                }
                say("saved \(file.path) (\(Self.megabytes(file.size)), \(file.format))")
            case .warning(let message):
                say("warning: \(message)")
            }
        }
    }

    /// Clears the progress line.
    func finish() { lock.withLock { _ in clearLine() } }

    private func say(_ message: String) {
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
        guard isTerminal, running, framesStarted > 0 else { return }
        let now = ContinuousClock.now
        guard force || now - lastDraw >= .milliseconds(100) else { return }
        lastDraw = now
        let elapsed = max(
            0.001, Double((now - started).components.seconds) + Double((now - started).components.attoseconds) / 1e18)
        let rate = Double(bytes) / elapsed / 1e6
        let done = max(0, framesStarted - 1)
        var left = ""
        if done > 0, frames > 0 {
            let remaining = elapsed / Double(done) * Double(frames - done)
            left = String(cFormat: " · %d:%02d left", Int(remaining) / 60, Int(remaining) % 60)
        }
        let line =
            "frame \(framesStarted)\(frames > 0 ? "/\(frames)" : "") · \(Self.megabytes(bytes)) · "
            + String(cFormat: "%.1f MB/s", rate) + left
        DescriptorIO.writeStandardError("\r\u{1B}[K" + line)
        lineShown = true
    }

    static func megabytes(_ count: Int) -> String { String(cFormat: "%.1f MB", Double(count) / 1e6) }
}
