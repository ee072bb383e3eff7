import ArgumentParser
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

extension RawcapCommand {
    /// `rawcap inspect FILE [--json] [--preview OUT.jpg]`: what a raw file holds.
    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a raw file's camera, exposure, size, pattern, levels, storage and histograms.",
            discussion: """
                Decodes FILE (DNG and TIFF/EP by rawcap, other raw formats through LibRaw) and prints the camera, \
                the exposure, the image size and CFA pattern, black and white levels, colour calibration, how the \
                raw data is stored, the embedded previews, and one histogram per colour channel over the active \
                area with the fraction of clipped samples (at or above the white level).
                --preview OUT.jpg saves the largest embedded preview (a JPEG as stored), or renders one \
                (\(PreviewExport.renderedLongSide) pixels on the long side) when the file has none.
                A DNG's NewRawImageDigest is checked against the samples; a mismatch is reported and exits 65.
                Exit status: 0; 65 when FILE is not a raw file rawcap can read or its digest does not match; 66 when it does not exist; 73 when \
                the preview file exists or cannot be created; 74 when reading or writing fails part-way.
                """)

        @Argument(help: "The raw file.")
        var file: String

        @Flag(help: "Print the report as JSON (stable keys, sorted; absent values left out).")
        var json = false

        @Option(help: "Save the preview as a JPEG at this path (never overwrites).")
        var preview: String?

        func run() throws {
            var reportPrinted = false
            do throws(CommandFailure) {
                let input = try InputFile(path: file)
                let decoded = try input.decode()
                let digest = InputFile.checkDigest(of: decoded)
                let report = InspectReport(file: file, fileSize: input.bytes.count, decoded: decoded, digest: digest)
                if json {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                    // A damaged file can carry a rational with a zero denominator; JSON has no infinity or NaN.
                    encoder.nonConformingFloatEncodingStrategy = .convertToString(
                        positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
                    // Strings, integers and (now) any double encode; a failure here is a bug worth its status.
                    guard let data = try? encoder.encode(report) else {
                        throw CommandFailure(SysExit.software, "\(file): the report cannot be encoded as JSON")
                    }
                    print(String(decoding: data, as: UTF8.self))
                } else {
                    print(report.text())
                }
                reportPrinted = true
                if let preview {
                    let written = try PreviewExport.write(bytes: input.bytes, decoded: decoded, to: preview)
                    let line =
                        "Preview: wrote \(written.path) (\(written.width)×\(written.height) JPEG, "
                        + "\(written.source.rawValue), \(written.byteCount) bytes)"
                    // With --json, standard output holds the JSON document alone.
                    if json { StandardError.print(line) } else { print(line) }
                }
                if digest == .mismatch {
                    throw CommandFailure(
                        SysExit.dataError,
                        "\(file): the raw data does not match the file's NewRawImageDigest; the file is damaged")
                }
            } catch {
                StandardError.print("rawcap inspect: \(error.message.oneLine)")
                // With --json, standard output holds exactly one JSON document: the report, or else the error object.
                if json && !reportPrinted { print(error.json(command: "inspect")) }
                throw error.status
            }
        }
    }
}
