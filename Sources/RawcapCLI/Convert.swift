import ArgumentParser
import DNG
import FoundationEssentials
import PlatformSupport

#if canImport(Glibc)
    import Glibc
#endif

extension RawcapCommand {
    /// `rawcap convert FILE... [-o DIR] [--compression lossless|none] [--linear] [--tiff] [--json]`.
    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Convert raw files (DNG, TIFF/EP, NEF, CR2, ARW, RAF, …) to DNG, linear DNG or 16-bit TIFF.",
            discussion: """
                Each FILE is decoded (DNG and TIFF/EP by rawcap, other raw formats through LibRaw) and written as \
                STEM.dng (STEM.tif with --tiff) in DIR (created if missing), or beside the input. An existing file \
                is never replaced: the new one gets -1, -2, … and the output line says so. A file that fails does \
                not stop the others; each failure is one line on standard error.
                Exit status: 0 when every file converted; otherwise the worst failure: 70 internal error, 74 a read \
                or write failed part-way (disk full), 73 an output cannot be created (a read-only folder, a file \
                where DIR should be), 66 an input does not exist, 65 an input is not a raw file rawcap can read \
                (corrupt, truncated); 130 after Ctrl-C (the file being written is finished first; a second Ctrl-C \
                stops at once).
                """)

        @Argument(help: "Raw files to convert.")
        var files: [String]

        @Option(
            name: [.short, .customLong("output")],
            help: "Folder for the new files, created if missing (default: beside each input).")
        var output: String?

        @Option(help: "Raw data storage in the DNG: none or lossless (lossless JPEG, about half the size).")
        var compression: CompressionChoice = .lossless

        @Flag(help: "Write a LinearRaw DNG (demosaiced by rawcap) instead of keeping the mosaic.")
        var linear = false

        @Flag(help: "Write a rendered 16-bit RGB TIFF (Deflate with --compression lossless) instead of a DNG.")
        var tiff = false

        @Flag(help: "Print one JSON object per file (input, output, size, sha256, camera, format, …) per line.")
        var json = false

        enum CompressionChoice: String, ExpressibleByArgument, CaseIterable {
            case lossless, none
        }

        func validate() throws {
            if linear && tiff { throw ValidationError("--linear and --tiff exclude each other.") }
        }

        var target: Converter.Target {
            let dngCompression: DNGOptions.Compression = compression == .lossless ? .lossless : .none
            if tiff { return .tiff(dngCompression) }
            return linear ? .linearDNG(dngCompression) : .dng(dngCompression)
        }

        func run() throws {
            if let output {
                // Created when missing, as `shoot -o` does.
                var isFolder = false
                if FileManager.default.fileExists(atPath: output, isDirectory: &isFolder) {
                    guard isFolder else {
                        StandardError.print("rawcap convert: \(output) exists and is not a folder")
                        throw SysExit.cannotCreate
                    }
                } else {
                    do {
                        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
                    } catch {
                        StandardError.print(
                            "rawcap convert: cannot create the folder \(output): \(SystemErrorText.reason(error))")
                        throw SysExit.cannotCreate
                    }
                }
            }
            var converter = Converter(target: target, folder: output)
            converter.computesSHA256 = json
            let interruption = ConvertInterruption()
            defer { interruption.stop() }
            var worst: ExitCode?
            for file in files {
                if interruption.isInterrupted { throw interrupted(before: file, terminated: interruption.isTerminated) }
                do {
                    let result = try converter.convert(file)
                    Self.emit(json ? ConvertRecord(result).jsonLine : Self.line(for: result))
                } catch {
                    StandardError.print("rawcap convert: \(error.message.oneLine)")
                    if json { Self.emit(ConvertRecord(input: file, failure: error).jsonLine) }
                    worst = Self.worse(worst, error.status)
                }
            }
            if interruption.isInterrupted { throw interrupted(before: nil, terminated: interruption.isTerminated) }
            if let worst { throw worst }
        }

        /// Reports Ctrl-C (one line; with `--json` also the error object, as the last line of the output) and
        /// returns the status to throw.
        func interrupted(before file: String?, terminated: Bool = false) -> ExitCode {
            let failure = CommandFailure(
                terminated ? .terminated : .interrupted,
                (terminated ? "terminated (SIGTERM)" : "interrupted (Ctrl-C)")
                    + (file.map { "; \($0) and the files after it were not converted" } ?? ""))
            StandardError.print("rawcap convert: \(failure.message)")
            if json { Self.emit(failure.json(command: "convert")) }
            return failure.status
        }

        /// Writes one line to standard output at once, unbuffered, so a script reading a pipe sees each file as
        /// soon as it is written.
        static func emit(_ line: String) {
            DescriptorIO.writeStandardOutput(line + "\n")
        }

        /// `IN → OUT (DNG, lossless, 12.3 MB)`, and a note when a suffix was added.
        static func line(for result: Converter.Result) -> String {
            let kind =
                switch result.target {
                case .dng: "DNG"
                case .linearDNG: "linear DNG"
                case .tiff: "16-bit TIFF"
                }
            var text =
                "\(result.input) → \(result.output) (\(kind), \(result.compression), "
                + "\(result.width)×\(result.height), \(Self.megabytes(result.byteCount)))"
            if let taken = result.takenName { text += "; \(taken) exists and is kept" }
            return text
        }

        /// `31.2 MB`, or `33.6 kB` below a megabyte.
        static func megabytes(_ count: Int) -> String {
            count < 1_000_000
                ? String(cFormat: "%.1f kB", Double(count) / 1000)
                : String(cFormat: "%.1f MB", Double(count) / 1_000_000)
        }

        /// The more serious of two statuses: an internal error, then I/O, then an output that cannot be created,
        /// then a missing input, then a bad one.
        static func worse(_ current: ExitCode?, _ new: ExitCode) -> ExitCode {
            let rank: [Int32: Int] = [70: 5, 74: 4, 73: 3, 66: 2, 65: 1]
            guard let current else { return new }
            return (rank[new.rawValue] ?? 0) > (rank[current.rawValue] ?? 0) ? new : current
        }
    }
}
