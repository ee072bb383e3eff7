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
                file is on disk. With --reconnect a camera that goes away is waited for (by serial number) and \
                the pull goes on with the files it has not written (docs/reconnect.md).
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

        @Option(
            help: ArgumentHelp(
                "What raw files become: dng (CFA DNG, the default), linear (LinearRaw DNG), tiff (16-bit RGB rendering) or original (as the camera wrote them).",
                valueName: "format"))
        var format: PullFormat?

        @Option(
            help: ArgumentHelp(
                "File name template, as for shoot ({file} the camera's name, {date:%Y-%m-%d}, {seq}, a/b for subfolders); default: the camera's names.",
                valueName: "template"))
        var name: String?

        @Flag(help: "With --all: pull files the folder already has again (as -1 files); by default they are skipped.")
        var again = false

        @Flag(help: "Save files exactly as the camera wrote them.")
        var original = false

        @Option(help: "DNG raw data: lossless (lossless JPEG, about half the size; the default) or none. A --format tiff file is Deflate with lossless.")
        var compression: CompressionChoice = .lossless

        @Flag(help: "Delete each file from the camera once it is safely on disk.")
        var deleteAfter = false

        @Option(
            help: ArgumentHelp(
                "Run CMD after each file is on disk, with RAWCAP_FILE and more in its environment (no shell; see docs/hooks.md).",
                valueName: "CMD"))
        var exec: String?

        @Flag(help: "Check the files in the output folder against the SHA-256 its journal recorded (no camera).")
        var verify = false

        @Flag(help: "Print one JSON object per saved (or, with --verify, checked) file on standard output.")
        var json = false

        @OptionGroup(title: "Long runs")
        var reconnect: ReconnectOptions

        func validate() throws {
            try reconnect.check()
            let chosen = [all, new, resume, verify, !handles.isEmpty].filter { $0 }.count
            guard chosen == 1 else {
                throw ValidationError("Choose one of --all, --new, --resume, --verify or handles.")
            }
            guard !(dng && original) else { throw ValidationError("--dng and --original exclude each other.") }
            if let format, (dng && format != .dng) || (original && format != .original) {
                throw ValidationError("--format \(format.rawValue) and --\(dng ? "dng" : "original") say different things.")
            }
            guard !(original && compression == .none) else {
                throw ValidationError("--compression applies to DNGs; --original saves the camera's files as they are.")
            }
            if let exec { _ = try ExecHook(exec, command: "pull") }
        }

        func run() async throws {
            if verify { return try runVerify() }
            let signals = ShootSignals()
            let progress = ShootProgress(json: json, pulling: true, quiet: connection.logging.quiet)
            defer { progress.finish() }
            let hooks = try exec.map { try ExecHook($0, command: "pull") }
            let selection: Puller.Selection =
                all ? .all : new ? .new : resume ? .resume : .handles(handles)
            do {
                _ = try connection.oneCamera()
                if resume, !Journal.exists(folder: output) {
                    // Nothing to resume from: most likely not the folder the shoot wrote into.
                    throw CommandFailure(
                        .usage,
                        "no journal in \(output) (\(Journal.fileName)): --resume fetches what a shoot into that folder announced and never wrote; give that shoot's -o folder"
                    )
                }
                let namer = try name.map { try FileNamer(template: $0) }
                let store = try OutputStore(folder: output)
                let journal = try Journal(folder: store.folder)
                let camera = try await CameraConnector.connect(connection)
                let reconnector = reconnect.reconnector(connection, first: camera)
                let files: [SavedFile]
                do {
                    try await camera.open()
                    var puller = Puller(
                        session: camera.session, store: store, journal: journal, logger: connection.logger,
                        stop: signals.stop, observer: hooks?.observing(progress.handle, journal: journal) ?? progress.handle)
                    puller.compression = compression.dngCompression
                    puller.product = format?.product ?? .bayer
                    puller.namer = namer
                    puller.again = again
                    puller.reconnector = reconnector
                    files = try await puller.pull(
                        selection, original: original || format == .original, deleteAfter: deleteAfter)
                } catch {
                    try? await camera.session.endSession()
                    if let reconnector { await reconnector.closeLinks() } else { await camera.close() }
                    throw error
                }
                try? await camera.session.endSession()
                if let reconnector { await reconnector.closeLinks() } else { await camera.close() }
                progress.finish()
                hooks?.finish()
                progress.summary("rawcap pull: \(files.count) file\(files.count == 1 ? "" : "s") in \(store.folder)")
            } catch {
                progress.finish()
                hooks?.finish()
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

/// `pull --format dng|linear|tiff|original`.
enum PullFormat: String, ExpressibleByArgument, CaseIterable {
    case dng
    case linear
    case tiff
    case original

    /// What ``Capture/Puller`` makes of a raw file.
    var product: ResolvedFormat.Product {
        switch self {
        case .linear: .linear
        case .tiff: .tiff
        case .dng, .original: .bayer
        }
    }
}
