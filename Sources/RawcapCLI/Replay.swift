import ArgumentParser
import FoundationEssentials
import PTPRecord
import PlatformSupport
import RawExport

#if canImport(Glibc)
    import Glibc
#endif

extension RawcapCommand {
    /// `rawcap replay`: recordings of real cameras' sessions, for `--camera replay:FILE`.
    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "replay",
            abstract: "Make recordings that --camera replay:FILE replays, from the forms camera owners share.",
            discussion: """
                `rawcap replay import LOG -o FILE.pcapng` turns a libgphoto2 debug log (gphoto2 --debug \
                --debug-logfile=LOG, as pasted into bug reports) into a pcapng recording; `rawcap --camera \
                replay:FILE.pcapng info` then replays the camera.
                """,
            subcommands: [Import.self, Check.self])
    }
}

extension RawcapCommand.Replay {
    /// `rawcap replay import LOG... -o FILE.pcapng [--json] [-q]`.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Turn a libgphoto2 debug log into a pcapng recording of the camera's PTP session.",
            discussion: """
                Reads the hex dumps of a `gphoto2 --debug --debug-logfile=LOG` log, in libgphoto2's older form \
                (up to 2.5.5: "Hexdump of 12 = 0xc bytes follows:") or newer one ("(hexdump of 12 bytes)"), over \
                USB or PTP/IP, and writes the PTP transactions and events they hold as FILE.pcapng (usbmon for USB, \
                TCP/IPv4 for PTP/IP), which Wireshark opens and `--camera replay:FILE.pcapng` replays. Several LOGs \
                are one log split in parts, read in order. Pasted logs may have CRLF line ends, leading blanks, \
                Markdown fences and squeezed spaces; other text between the lines is ignored.
                Nothing is guessed: a dump line that is damaged (wrong number of bytes, not hex, wrapped or joined, \
                its ASCII column not matching) is reported with its line number and not used, and a data phase the \
                log holds only in part (a cut dump, the first 1 MiB of a larger one, a missing read) keeps the bytes \
                the log holds and is marked as cut in the recording; a replay that reaches it says so.
                Standard error gets each problem and a summary; with --json, standard output gets one JSON object. \
                Exit status: 0 written; 65 the log holds no PTP transaction; 66 a LOG does not exist; 73 FILE \
                exists or cannot be created; 74 writing failed.
                """)

        @Argument(help: "The debug log (several: one log in parts, in order).")
        var logs: [String]

        @Option(name: [.short, .customLong("output")], help: "The recording to write (never replaced).")
        var output: String

        @Option(help: "The camera's model, for a recording whose DeviceInfo the log does not hold whole.")
        var camera: String?

        @Flag(help: "Print one JSON object with the summary and the problems found.")
        var json = false

        @Flag(name: .shortAndLong, help: "Print nothing on standard error but failures.")
        var quiet = false

        func run() throws {
            do {
                try importLogs()
            } catch {
                let failure = error
                StandardError.print("rawcap replay import: \(failure.message.oneLine)")
                if json { print(failure.json(command: "replay import")) }
                throw failure.exitCode
            }
        }

        private func importLogs() throws(CommandFailure) {
            var text = ""
            var starts: [(file: String, firstLine: Int)] = []
            var lineCount = 0
            for (index, path) in logs.enumerated() {
                let content = try Self.read(path)
                if index > 0 {
                    // A part boundary: nothing continues across it.
                    text += "\n#GAP: next part\n"
                    lineCount += 1
                }
                starts.append((path, lineCount + 1))
                text += content
                lineCount += content.utf8.reduce(0) { $0 + ($1 == 10 ? 1 : 0) } + (content.hasSuffix("\n") ? 0 : 1)
                if content.hasSuffix("\n") { text.removeLast() }
            }
            let result = GPhoto2LogImporter.importLog(text)
            func place(_ line: Int) -> (String, Int) {
                let start = starts.last { $0.firstLine <= line } ?? starts[0]
                return (start.file, line - start.firstLine + 1)
            }
            if !quiet {
                for diagnostic in result.diagnostics {
                    let (file, line) = place(diagnostic.line)
                    StandardError.print(
                        "rawcap replay import: \(file):\(line): \(diagnostic.kind.rawValue): \(diagnostic.message.oneLine)"
                    )
                }
            }
            let conversation = result.conversation
            guard !conversation.transactions.isEmpty else {
                throw CommandFailure(
                    .badInput,
                    "\(logs.joined(separator: ", ")): no PTP transaction in the log (\(result.dumpCount) hex dumps; "
                        + "a log written with --debug-loglevel=debug has none)")
            }
            var sources = logs.map { "source: \(Self.baseName($0))" }
            if let camera, conversation.cameraModel == nil { sources.append("camera: \(camera)") }
            let bytes = conversation.pcapngEncoded(
                application: "rawcap \(RawcapVersion.current) replay import",
                comments: ["imported from a libgphoto2 debug log (\(result.format.rawValue) format)"] + sources)
            try Self.write(bytes, to: output)
            let summary = Summary(result, output: output, inputs: logs, place: place)
            if !quiet { StandardError.print("rawcap replay import: \(summary.line)") }
            if json { print(summary.json) }
        }

        static func baseName(_ path: String) -> String {
            String(path.split(separator: "/").last ?? Substring(path))
        }

        static func read(_ path: String) throws(CommandFailure) -> String {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                let code = errno
                throw CommandFailure(
                    code == ENOENT || code == ENOTDIR ? .noInput : code == EACCES ? .noInput : .io,
                    "\(path): \(String(cString: strerror(code)))")
            }
            defer { close(descriptor) }
            var status = stat()
            if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
                throw CommandFailure(.noInput, "\(path): is a folder")
            }
            let data = DescriptorIO.readToEnd(descriptor)
            return String(decoding: data, as: UTF8.self)
        }

        static func write(_ bytes: [UInt8], to path: String) throws(CommandFailure) {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw CommandFailure(.cannotCreate, "\(path): \(String(cString: strerror(errno)))")
            }
            var offset = 0
            while offset < bytes.count {
                let count = bytes.withUnsafeBytes { buffer in
                    buffer.baseAddress.map { Glibc.write(descriptor, $0 + offset, buffer.count - offset) } ?? 0
                }
                if count < 0 {
                    if errno == EINTR { continue }
                    let message = String(cString: strerror(errno))
                    close(descriptor)
                    unlink(path)
                    throw CommandFailure(.io, "writing \(path): \(message)")
                }
                offset += count
            }
            guard fsync(descriptor) == 0 || errno == EINVAL else {
                let message = String(cString: strerror(errno))
                close(descriptor)
                throw CommandFailure(.io, "writing \(path): \(message)")
            }
            close(descriptor)
        }
    }

    /// What `replay import` reports.
    struct Summary: Encodable {
        struct Problem: Encodable {
            var file: String
            var line: Int
            var kind: String
            var message: String
        }

        var inputs: [String]
        var output: String
        var camera: String?
        var transport: String
        var format: String
        var libgphoto2: String?
        var transactions: Int
        var events: Int
        var cutDataPhases: Int
        var damagedLines: Int
        var problems: [Problem]

        init(_ result: GPhoto2LogImporter.Result, output: String, inputs: [String], place: (Int) -> (String, Int)) {
            self.inputs = inputs
            self.output = output
            camera = result.conversation.cameraModel
            transport = result.conversation.transport == .usb ? "usb" : "ptpip"
            format = result.format.rawValue
            libgphoto2 = result.libgphoto2Version
            transactions = result.conversation.transactions.count
            events = result.conversation.events.count
            cutDataPhases =
                result.conversation.cutTransactions.filter { $0.cut?.onlyTheResponseIsMissing == false }.count
            damagedLines = result.damagedLineCount
            problems = result.diagnostics.map {
                let (file, line) = place($0.line)
                return Problem(file: file, line: line, kind: $0.kind.rawValue, message: $0.message)
            }
        }

        /// `FILE: 12 transactions, 1 event, 1 cut data phase, 0 damaged lines (Nikon D3X, USB, new format)`.
        var line: String {
            func count(_ value: Int, _ noun: String) -> String { "\(value) \(noun)\(value == 1 ? "" : "s")" }
            var text = "\(output): \(count(transactions, "transaction")), \(count(events, "event")), "
            text += "\(count(cutDataPhases, "cut data phase")), \(count(damagedLines, "damaged line")) ("
            text += [
                camera, transport == "usb" ? "USB" : "PTP/IP", "\(format) format",
                libgphoto2.map { "libgphoto2 \($0)" },
            ]
            .compactMap { $0 }.joined(separator: ", ")
            return text + ")"
        }

        var json: String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            guard let data = try? encoder.encode(self) else { return "{}" }
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// `rawcap replay check [PATH...] [--write DOC] [--against DOC]`: the conformance table (hidden; `make
    /// real-cameras` runs it).
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Replay every recording through rawcap's drivers and print how far each stage gets.",
            shouldDisplay: false)

        @Argument(help: "Recordings, or folders searched for *.pcapng.")
        var paths: [String] = ["Fixtures/traces"]

        @Option(help: "Compare with the table in this document: a stage that did better there fails the check.")
        var against: String?

        @Option(help: "Write the table into this Markdown document (only when nothing regressed).")
        var write: String?

        func run() async throws {
            let files = Self.recordings(paths)
            var rows: [RealCameraConformance.Row] = []
            for file in files {
                rows.append(await RealCameraConformance.check(path: file, recording: Self.name(file)))
            }
            let table = RealCameraConformance.table(rows)
            print(table, terminator: "")
            var regressions: [String] = []
            if let against, let committed = try? Import.read(against) {
                regressions = RealCameraConformance.regressions(committed: committed, rows: rows)
            }
            for regression in regressions { StandardError.print("regression: \(regression)") }
            StandardError.print("\(RealCameraDocument.summary(rows)) \(regressions.count) regressions.")
            guard regressions.isEmpty else { throw ExitCode.failure }
            if let write {
                let document = RealCameraDocument.render(table: table, rows: rows)
                let temporary = write + ".tmp"
                unlink(temporary)
                try Import.write(Array(document.utf8), to: temporary)
                guard rename(temporary, write) == 0 else {
                    throw CommandFailure(.cannotCreate, "\(write): \(String(cString: strerror(errno)))")
                }
            }
        }

        /// The recording's name in the table: its path below `Fixtures/traces/` without `.pcapng`.
        static func name(_ path: String) -> String {
            var name = path
            if let range = name.firstRange(of: "Fixtures/traces/") { name = String(name[range.upperBound...]) }
            if name.hasSuffix(".pcapng") { name.removeLast(".pcapng".count) }
            return name
        }

        /// The `*.pcapng` files at or under `paths`, sorted, each once.
        static func recordings(_ paths: [String]) -> [String] {
            var found: Set<String> = []
            for path in paths {
                if path.hasSuffix(".pcapng") {
                    found.insert(path)
                    continue
                }
                let items = (try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? []
                for item in items where item.hasSuffix(".pcapng") {
                    found.insert(path.hasSuffix("/") ? path + item : path + "/" + item)
                }
            }
            return found.sorted()
        }
    }
}

/// `docs/real-cameras.md`: the conformance table and how to read and regenerate it.
enum RealCameraDocument {
    /// The summary line: recordings, bodies, makers, and how many hold a stage and pass it.
    static func summary(_ rows: [RealCameraConformance.Row]) -> String {
        let makers = Set(rows.map(\.maker).filter { $0 != "?" }).sorted()
        let bodies = Set(rows.map(\.camera).filter { $0 != "?" })
        let holding = rows.filter(\.holdsAStage)
        let holdingBodies = Set(holding.map(\.camera))
        let infoBodies = Set(rows.filter { if case .pass = $0.outcomes[.info] { true } else { false } }.map(\.camera))
        let infoMakers = Set(rows.filter { if case .pass = $0.outcomes[.info] { true } else { false } }.map(\.maker))
        let failing = holding.filter { !$0.allHeldStagesPass }
        var text = "\(rows.count) recordings of \(bodies.count) bodies from \(makers.count) makers "
        text +=
            "(\(makers.joined(separator: ", "))). \(holdingBodies.count) bodies (\(holding.count) recordings) hold at "
        text += "least one stage, \(infoBodies.count) bodies from \(infoMakers.count) makers a whole DeviceInfo; "
        text += "\(holding.count - failing.count) of those \(holding.count) recordings pass every stage they hold"
        if !failing.isEmpty { text += "; FAIL: \(failing.map(\.recording).joined(separator: ", "))" }
        return text + "."
    }

    static func render(table: String, rows: [RealCameraConformance.Row]) -> String {
        return """
            # Real cameras: how far rawcap gets

            Each row is a real camera's session, recorded by other software (USB and PTP/IP captures, libgphoto2 \
            debug logs imported with `rawcap replay import`), replayed leniently in memory through rawcap's \
            production code: the session, the settings, and the capture driver `CameraProfile.select` picks. The \
            recordings and their sources are in `Fixtures/traces/` (`real/README.md` for the imported logs).

            Regenerate this page with `make real-cameras`; it fails when a stage that passed (or was cut in the \
            source) does worse. `Tests/RawcapCLITests/RealCameraConformanceTests.swift` runs the same check in \
            `make test`.

            A cell is `pass` (with what rawcap read), `FAIL` (the source holds the stage and rawcap does not get \
            through it), `cut in source` (the source holds the stage's data only in part) or `—` (the source does \
            not hold the stage). Stages: **connect** OpenSession; **info** DeviceInfo decoded, with the storages \
            when the source holds GetStorageIDs; **vendor data** every recorded answer to the vendor operations \
            rawcap's drivers read (Canon EOS and Nikon GetEvent, Nikon GetVendorPropCodes, Sony \
            GetSDIOExtDeviceInfo and GetAllDevicePropData) decoded by rawcap's parsers; **config list** the \
            property descriptors rawcap reads; **set** the \
            source's own SetDevicePropValue replayed through rawcap's settings; **capture** the driver's prepare and \
            capture announce an object; **download** the object arrives (full, cut in source, or — when the \
            source does not hold it).

            \(summary(rows))

            \(table)
            """
    }
}
