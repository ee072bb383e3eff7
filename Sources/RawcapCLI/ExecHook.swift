import ArgumentParser
import Capture
import FoundationEssentials
import PlatformSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `--exec CMD` on `shoot`, `tether` and `pull`: a program run after each file is safely on disk (docs/hooks.md).
///
/// CMD is split into words the way a shell splits a simple command, and nothing more: blanks separate words, `'…'`
/// keeps everything literally, `"…"` keeps blanks and takes `\"`, `\\`, `\$` and `` \` `` as the character, and a
/// backslash outside quotes takes the next character as it is. No shell runs: no variables, globs, `~`, pipes or
/// redirections (`sh -c '…'` when they are wanted; the file is then `"$RAWCAP_FILE"`). The first word is the
/// program, a path or a name looked up in `PATH`.
///
/// Hooks run one at a time, in the order the files were written, on a thread of their own: a slow hook never delays
/// a download. Each gets rawcap's environment plus the `RAWCAP_…` variables below, standard input from /dev/null,
/// and rawcap's standard error as its standard output and error (standard output stays `--json`'s). A hook that
/// exits with a status other than 0, is ended by a signal, or cannot be started is reported on standard error and
/// journaled as `hook-failed`; the run goes on. When the run ends, rawcap waits for the hooks still queued.
final class ExecHook: @unchecked Sendable {
    /// The environment variables a hook gets, in the order docs/hooks.md lists them.
    enum Variable {
        static let file = "RAWCAP_FILE"
        static let kind = "RAWCAP_KIND"
        static let format = "RAWCAP_FORMAT"
        static let sha256 = "RAWCAP_SHA256"
        static let size = "RAWCAP_SIZE"
        static let shot = "RAWCAP_SHOT"
        static let camera = "RAWCAP_CAMERA"
        static let serial = "RAWCAP_SERIAL"
        static let cameraFile = "RAWCAP_CAMERA_FILE"
        static let handle = "RAWCAP_HANDLE"
        static let command = "RAWCAP_COMMAND"
        static let run = "RAWCAP_RUN"
    }

    private struct Job {
        var file: SavedFile
        var journal: Journal
    }

    /// The program and its arguments.
    let words: [String]
    /// `shoot`, `tether` or `pull`: the prefix of its messages, and `RAWCAP_COMMAND`.
    let command: String
    private let condition = ThreadCondition()
    private var queue: [Job] = []
    private var running = false
    private var started = false
    private var failures = 0

    /// A hook running `text` (split as described above) for `command`.
    ///
    /// - Throws: `ValidationError` for an empty command or an unfinished quote.
    init(_ text: String, command: String) throws {
        words = try Self.split(text)
        guard !words.isEmpty else { throw ValidationError("--exec needs a program to run.") }
        self.command = command
    }

    /// Queues the hook for `file` (just committed), journaling a failure in `journal`.
    func enqueue(_ file: SavedFile, journal: Journal) {
        condition.lock()
        queue.append(Job(file: file, journal: journal))
        let start = !started
        started = true
        condition.signal()
        condition.unlock()
        if start { DetachedThread.start(name: "rawcap.hooks") { [self] in work() } }
    }

    /// Waits until every queued hook has run; says so on standard error when some are still waiting or running.
    /// Returns how many failed.
    @discardableResult
    func finish() -> Int {
        condition.lock()
        let waiting = queue.count + (running ? 1 : 0)
        if waiting > 0 {
            DescriptorIO.writeStandardError(
                "rawcap \(command): waiting for \(waiting) hook\(waiting == 1 ? "" : "s") to finish\n")
        }
        while !queue.isEmpty || running { condition.wait() }
        let failed = failures
        condition.unlock()
        return failed
    }

    /// The observer that passes each saved file to the hook after `next` has seen it.
    func observing(
        _ next: @escaping @Sendable (CaptureEvent) -> Void, journal: Journal
    ) -> @Sendable (CaptureEvent) -> Void {
        { [self] event in
            next(event)
            if case .saved(let file) = event { enqueue(file, journal: journal) }
        }
    }

    private func work() {
        while true {
            condition.lock()
            while queue.isEmpty { condition.wait() }
            let job = queue.removeFirst()
            running = true
            condition.unlock()
            let failure = run(job)
            condition.lock()
            running = false
            if failure { failures += 1 }
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Runs the hook for one file; returns whether it failed (reported and journaled).
    private func run(_ job: Job) -> Bool {
        let file = job.file
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in Self.variables(for: file, command: command, run: job.journal.runID) {
            environment[name] = value
        }
        let shown = words.joined(separator: " ")
        guard let path = ForegroundChild.find(words[0]) else {
            report(job, code: "not-started", detail: "\(words[0]): not found")
            return true
        }
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { if null >= 0 { close(null) } }
        // This thread may have been made by one that blocks signals, and a child inherits the mask: cleared for the
        // spawn, so the hook can be interrupted as any program.
        var none = sigset_t()
        var saved = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &saved)
        let pid: pid_t
        do {
            pid = try ChildSpawn.spawn(
                path, arguments: Array(words.dropFirst()), environment: environment,
                standardInput: null >= 0 ? null : nil, standardOutput: STDERR_FILENO)
        } catch {
            pthread_sigmask(SIG_SETMASK, &saved, nil)
            report(job, code: "not-started", detail: "\(path): \(error)")
            return true
        }
        pthread_sigmask(SIG_SETMASK, &saved, nil)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else {
                report(job, code: "not-started", detail: "\(shown): waitpid: \(SystemErrorText.text(errno: errno))")
                return true
            }
        }
        // WIFSIGNALED and WTERMSIG are macros Swift does not import.
        let signal = status & 0x7F
        if signal != 0, signal != 0x7F {
            report(job, code: "signal-\(signal)", detail: "\(shown) was ended by signal \(signal)")
            return true
        }
        let exit = (status >> 8) & 0xFF
        if exit != 0 {
            report(job, code: "exit-\(exit)", detail: "\(shown) exited with status \(exit)")
            return true
        }
        return false
    }

    private func report(_ job: Job, code: String, detail: String) {
        DescriptorIO.writeStandardError("rawcap \(command): hook failed for \(job.file.path): \(detail)".oneLine + "\n")
        var entry = JournalEntry(JournalEntry.Event.hookFailed)
        entry.path = job.file.path
        entry.handle = job.file.handle
        entry.code = code
        entry.detail = detail
        job.journal.recordQuietly(entry)
    }

    /// The `RAWCAP_…` variables for `file`.
    static func variables(for file: SavedFile, command: String, run: String) -> [(String, String)] {
        // The journal's `kind` for the same file: a camera JPEG is `jpeg` whether converted or not.
        let kind =
            switch file.format {
            case "original": "original"
            case "jpeg": "jpeg"
            case "tiff": "tiff"
            default: "dng"
            }
        return [
            (Variable.file, file.path), (Variable.kind, kind), (Variable.format, file.format),
            (Variable.sha256, file.sha256), (Variable.size, String(file.size)), (Variable.shot, String(file.frame)),
            (Variable.camera, file.camera), (Variable.serial, file.serial), (Variable.cameraFile, file.cameraFile),
            (Variable.handle, String(file.handle)), (Variable.command, command), (Variable.run, run),
        ]
    }

    /// `text` split into words (see the type's description).
    ///
    /// - Throws: `ValidationError` for a quote that is not closed or a backslash at the end.
    static func split(_ text: String) throws -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var characters = text.makeIterator()
        while let character = characters.next() {
            switch character {
            case " ", "\t", "\n":
                if inWord { words.append(word) }
                word = ""
                inWord = false
            case "'":
                inWord = true
                var closed = false
                while let next = characters.next() {
                    if next == "'" {
                        closed = true
                        break
                    }
                    word.append(next)
                }
                guard closed else { throw ValidationError("--exec \(text): a ' is not closed.") }
            case "\"":
                inWord = true
                var closed = false
                while let next = characters.next() {
                    if next == "\"" {
                        closed = true
                        break
                    }
                    if next == "\\" {
                        guard let escaped = characters.next() else { break }
                        if !["\"", "\\", "$", "`"].contains(escaped) { word.append("\\") }
                        word.append(escaped)
                        continue
                    }
                    word.append(next)
                }
                guard closed else { throw ValidationError("--exec \(text): a \" is not closed.") }
            case "\\":
                guard let escaped = characters.next() else {
                    throw ValidationError("--exec \(text): a backslash at the end escapes nothing.")
                }
                inWord = true
                word.append(escaped)
            default:
                inWord = true
                word.append(character)
            }
        }
        if inWord { words.append(word) }
        return words
    }
}
