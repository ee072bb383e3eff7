import DNG
import Foundation
import RawImage
import TestSupport
import Testing

/// Writing test files for the interop suites and reading what outside tools print.
enum InteropSupport {
    /// The folder of this test target's Python helpers.
    static let scriptFolder = ExternalTool.packageRoot.appendingPathComponent("Tests/DNGTests/Scripts")

    /// Writes `samples` as little-endian 16-bit values: the "expected" file the Python checks read.
    static func writeExpected(_ samples: [UInt16], to url: URL) throws {
        try Data(samples.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }).write(to: url)
    }

    /// Runs check_dngs.py over `manifest` and returns, per DNG path, the failures it found; throws when a file
    /// is missing from its output (the script crashed half-way).
    static func runPythonChecks(_ manifest: [[String: Any]], in folder: TemporaryDirectory) async throws -> [String:
        [String]]
    {
        let python = try ExternalTool.requirePython(modules: ["numpy", "rawpy", "tifffile", "imagecodecs"])
        let manifestURL = folder.file("manifest.json")
        try JSONSerialization.data(withJSONObject: manifest).write(to: manifestURL)
        let result = try await Subprocess.runDetached(
            python, [scriptFolder.appendingPathComponent("check_dngs.py").path, manifestURL.path])
        guard result.status == 0 else { throw TestFailure("check_dngs.py failed: \(result.errorOutput)") }
        var failures: [String: [String]] = [:]
        for line in result.output.split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let path = object["path"] as? String, let found = object["failures"] as? [String],
                let checks = object["checks"] as? [String]
            else { throw TestFailure("unexpected line from check_dngs.py: \(line)") }
            failures[path] = found + (checks.isEmpty ? ["no check ran"] : [])
        }
        for entry in manifest {
            guard let path = entry["path"] as? String, failures[path] != nil else {
                throw TestFailure("check_dngs.py gave no result for \(entry["path"] ?? "?")")
            }
        }
        return failures
    }

    /// A binary PGM (P5) or PPM (P6) with 16-bit big-endian samples, as dcraw and LibRaw's unprocessed_raw write
    /// them; samples interleaved for P6.
    static func readPGM16(_ data: Data) throws -> (width: Int, height: Int, samples: [UInt16]) {
        let bytes = [UInt8](data)
        let channels: Int
        if bytes.starts(with: Array("P5".utf8)) {
            channels = 1
        } else if bytes.starts(with: Array("P6".utf8)) {
            channels = 3
        } else {
            throw TestFailure("not a binary PGM or PPM")
        }
        var fields: [Int] = []
        var index = 2
        while fields.count < 3 {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D {
                index += 1
            }
            var value = 0
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                value = value * 10 + Int(bytes[index] - 0x30)
                index += 1
            }
            fields.append(value)
        }
        index += 1  // the single whitespace after maxval
        let (width, height, maximum) = (fields[0], fields[1], fields[2])
        let count = width * height * channels
        guard maximum > 255 else { throw TestFailure("maxval \(maximum) is not 16-bit") }
        guard bytes.count >= index + count * 2 else { throw TestFailure("short PGM/PPM") }
        let samples = (0..<count).map { UInt16(bytes[index + 2 * $0]) << 8 | UInt16(bytes[index + 2 * $0 + 1]) }
        return (width, height, samples)
    }

    /// The samples of `frame` inside `rect` (absolute coordinates), row by row.
    static func crop(_ frame: RawFrame, _ rect: PixelRect) -> [UInt16] {
        (rect.y..<rect.bottom).flatMap { row in
            frame.samples[(row * frame.width + rect.x)..<(row * frame.width + rect.right)]
        }
    }
}
