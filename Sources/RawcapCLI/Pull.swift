import ArgumentParser
import Capture
import FoundationEssentials
import PlatformSupport

#if canImport(Glibc)
    import Glibc
#endif

extension RawcapCommand {
    /// `rawcap pull`: files already on the camera's card, converted to DNG or as the camera wrote them.
    struct Pull: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Download files from the camera's card, as DNG or as the camera wrote them.",
            discussion: """
                Choose the files with --all, --new (those the output folder's journal has no file for), \
                --resume (those an interrupted shoot left on the camera) or handles (as rawcap ls lists them). Raw \
                files become DNGs (the camera's JPEG of the same shot is the preview and is saved beside it) \
                unless --original. Files are never overwritten (a suffix is added), camera file names are \
                sanitised, and nothing is deleted from the camera unless --delete-after, and then only once the \
                file is on disk.
                --verify needs no camera: it reads every file the output folder's journal says was written (by \
                shoot or pull) and compares its SHA-256 with the journal's; exit 65 when one differs or is missing.
                """)

        @OptionGroup var connection: ConnectionOptions

        @Flag(help: "Every file on the card.")
        var all = false

        @Flag(help: "Files the journal in the output folder has no copy of.")
        var new = false

        @Flag(help: "Files an interrupted shoot left on the camera (from the journal).")
        var resume = false

        @Argument(help: "Object handles to pull (see rawcap ls).")
        var handles: [UInt32] = []

        @Option(name: [.short, .long], help: ArgumentHelp("The output folder.", valueName: "dir"))
        var output = "captures"

        @Flag(help: "Convert raw files to DNG (the default).")
        var dng = false

        @Flag(help: "Save files exactly as the camera wrote them.")
        var original = false

        @Flag(help: "Delete each file from the camera once it is safely on disk.")
        var deleteAfter = false

        @Flag(help: "Check the files in the output folder against the SHA-256 its journal recorded (no camera).")
        var verify = false

        @Flag(help: "Print one JSON object per saved (or, with --verify, checked) file on standard output.")
        var json = false

        func validate() throws {
            let chosen = [all, new, resume, verify, !handles.isEmpty].filter { $0 }.count
            guard chosen == 1 else {
                throw ValidationError("Choose one of --all, --new, --resume, --verify or handles.")
            }
            guard !(dng && original) else { throw ValidationError("--dng and --original exclude each other.") }
        }

        func run() async throws {
            if verify { return try runVerify() }
            let signals = ShootSignals()
            let progress = ShootProgress(json: json)
            defer { progress.finish() }
            let selection: Puller.Selection =
                all ? .all : new ? .new : resume ? .resume : .handles(handles)
            do {
                _ = try connection.oneCamera()
                let store = try OutputStore(folder: output)
                let journal = try Journal(folder: store.folder)
                let camera = try await CameraConnector.connect(connection)
                let files: [SavedFile]
                do {
                    try await camera.open()
                    let puller = Puller(
                        session: camera.session, store: store, journal: journal, logger: connection.logger,
                        stop: signals.stop, observer: progress.handle)
                    files = try await puller.pull(selection, original: original, deleteAfter: deleteAfter)
                } catch {
                    try? await camera.session.endSession()
                    await camera.close()
                    throw error
                }
                try? await camera.session.endSession()
                await camera.close()
                progress.finish()
                StandardError.print("rawcap pull: \(files.count) file\(files.count == 1 ? "" : "s") in \(store.folder)")
            } catch {
                progress.finish()
                throw ShootFailure.report(signals.translate(error), command: "pull", json: json)
            }
        }

        /// `--verify`: each file the journal names, rehashed; one line per file that is not as recorded (every file
        /// with `--json`), a summary, exit 65 when any is not.
        func runVerify() throws {
            let signals = ShootSignals()
            let verifier = JournalVerifier(folder: output)
            let entries: [(path: String, sha256: String)]
            do {
                entries = try verifier.entries()
            } catch {
                throw ShootFailure.report(
                    CommandFailure(.noInput, "\(error)"), command: "pull", json: json)
            }
            var counts: [JournalVerifier.Result.Status: Int] = [:]
            for entry in entries {
                if signals.stop.isRequested {
                    let failure = ShootFailure.failure(
                        signals.translate(
                            CaptureError(
                                .interrupted,
                                "interrupted (Ctrl-C) after verifying \(counts.values.reduce(0, +)) of \(entries.count) files")))
                    throw ShootFailure.report(failure, command: "pull", json: json)
                }
                let result = verifier.verify(path: entry.path, sha256: entry.sha256)
                counts[result.status, default: 0] += 1
                if json {
                    DescriptorIO.writeStandardOutput(VerifyRecord(result).jsonLine + "\n")
                }
                switch result.status {
                case .ok: break
                case .mismatch:
                    StandardError.print(
                        "rawcap pull: \(result.path ?? entry.path): SHA-256 \(result.actual ?? "?") differs from the "
                            + "journal's \(result.expected)")
                case .missing:
                    StandardError.print("rawcap pull: \(entry.path): missing")
                case .unreadable:
                    StandardError.print("rawcap pull: \(result.path ?? entry.path): \(result.detail ?? "unreadable")")
                }
            }
            let bad = entries.count - counts[.ok, default: 0]
            StandardError.print(
                "rawcap pull: verified \(entries.count) file\(entries.count == 1 ? "" : "s") in \(output): "
                    + "\(counts[.ok, default: 0]) as journaled, \(counts[.mismatch, default: 0]) differing, "
                    + "\(counts[.missing, default: 0]) missing, \(counts[.unreadable, default: 0]) unreadable")
            if bad > 0 {
                throw ShootFailure.report(
                    CommandFailure(.badInput, "\(bad) of \(entries.count) files do not match the journal"),
                    command: "pull", json: json)
            }
        }
    }
}

/// One `pull --verify --json` line.
struct VerifyRecord: Encodable {
    /// The file as the journal names it.
    var path: String
    /// Where it was found, when not at `path` (the folder was moved).
    var foundAt: String?
    /// `ok`, `mismatch`, `missing`, `unreadable`.
    var verify: String
    /// The journal's SHA-256.
    var sha256: String
    /// The file's SHA-256 now, when it differs.
    var actualSha256: String?
    /// Why it could not be read.
    var detail: String?

    init(_ result: JournalVerifier.Result) {
        path = result.journalPath
        foundAt = result.path == result.journalPath ? nil : result.path
        verify = result.status.rawValue
        sha256 = result.expected
        actualSha256 = result.status == .mismatch ? result.actual : nil
        detail = result.detail
    }

    var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
