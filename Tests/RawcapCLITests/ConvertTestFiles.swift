import CameraEmulator
import DNG
import Foundation
import RawDecoders
import RawImage
import SceneSynthesis
import TestSupport
import Testing

/// Inputs and helpers for the `rawcap convert` and `rawcap inspect` tests: the built binary, synthetic frames,
/// files written by rawcap's DNG writer, the emulator's TIFF/EP writer and PiDNG.
enum ConvertTestFiles {
    /// Runs the built `rawcap` off the Swift pool.
    static func rawcap(_ arguments: [String]) async throws -> Subprocess.Result {
        let path = try #require(ChildProcess.builtProduct(named: "rawcap"), "the rawcap binary was not built")
        return try await Subprocess.runDetached(path, arguments)
    }

    /// Runs the built `rawcap`, sends it SIGINT (Ctrl-C) as soon as its first line of output appears, and waits
    /// for it; the reading and waiting happen on dispatch threads, never on the Swift pool.
    static func rawcapInterruptedAfterFirstLine(
        _ arguments: [String]
    ) async throws -> (status: Int32, output: String, errorOutput: String) {
        let path = try #require(ChildProcess.builtProduct(named: "rawcap"), "the rawcap binary was not built")
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue(label: "rawcap.convert.interrupt").async {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: path)
                process.arguments = arguments
                let output = Pipe()
                let errors = Pipe()
                process.standardOutput = output
                process.standardError = errors
                do {
                    try process.run()
                } catch {
                    continuation.resume(throwing: error)
                    return
                }
                let errorText = ErrorText()
                let drained = DispatchGroup()
                drained.enter()
                DispatchQueue(label: "rawcap.convert.interrupt.stderr").async {
                    errorText.set(errors.fileHandleForReading.readDataToEndOfFile())
                    drained.leave()
                }
                var data = Data()
                while !data.contains(0x0A) {
                    let chunk = output.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    data.append(chunk)
                }
                process.interrupt()
                data.append(output.fileHandleForReading.readDataToEndOfFile())
                process.waitUntilExit()
                drained.wait()
                continuation.resume(
                    returning: (process.terminationStatus, String(decoding: data, as: UTF8.self), errorText.text))
            }
        }
    }

    /// Standard error collected on another thread.
    private final class ErrorText: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func set(_ value: Data) { lock.withLock { data = value } }
        var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
    }

    /// A synthetic 14-bit RGGB frame with a masked border, known exposure and camera.
    static func frame(width: Int = 160, height: Int = 120, seed: UInt64 = 1) throws -> RawFrame {
        let scene = try SyntheticScene(width: width, height: height, cfa: .rggb, bitsPerSample: 14)
        var frame = try scene.render(
            seed: seed,
            captureTime: try CaptureTime(year: 2026, month: 11, day: 22, hour: 6, minute: 30, second: 5))
        frame.metadata.make = "rawcap"
        frame.metadata.model = "Test Body"
        frame.metadata.exposureTime = Rational(1, 250)
        frame.metadata.fNumber = 5.6
        frame.metadata.iso = 400
        return frame
    }

    /// Writes `frame` as a DNG with rawcap's writer.
    static func writeDNG(_ frame: RawFrame, to path: String, compression: DNGOptions.Compression = .none) throws {
        try DNGWriter.write(
            frame, previews: try DNGPreviews.render(from: frame), options: DNGOptions(compression: compression),
            to: path)
    }

    /// Writes `frame` as the emulated camera's TIFF/EP file.
    static func writeTIFFEP(_ frame: RawFrame, to path: String) throws {
        try Data(try TIFFEPWriter.encode(frame, software: "rawcap emulator test")).write(to: URL(fileURLWithPath: path))
    }

    /// A big-endian TIFF-based raw file that is neither DNG nor TIFF/EP: an RGB thumbnail in IFD 0 and the 16-bit
    /// CFA image, uncompressed, in a SubIFD, the way NEF and PEF files keep theirs. rawcap routes it to LibRaw.
    static func vendorStyleRaw(width: Int = 96, height: Int = 64) -> (bytes: [UInt8], samples: [UInt16]) {
        let samples = (0..<width * height).map { UInt16(($0 * 37) % 4000 + 100) }
        let big = samples.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let raw = TIFFBuilder.IFD(
            tags: [
                254: .long([0]), 256: .long([UInt32(width)]), 257: .long([UInt32(height)]), 258: .short([16]),
                259: .short([1]), 262: .short([32803]), 277: .short([1]), 284: .short([1]),
                33421: .short([2, 2]), 33422: .byte([0, 1, 1, 2]),
            ],
            data: .strips(rowsPerStrip: UInt32(height), [big]))
        let thumbnail = TIFFBuilder.IFD(
            tags: [
                254: .long([1]), 256: .long([32]), 257: .long([16]), 258: .short([8, 8, 8]), 259: .short([1]),
                262: .short([2]), 271: .ascii("Vendor"), 272: .ascii("Test Model"), 277: .short([3]),
            ],
            data: .strips(rowsPerStrip: 16, [[UInt8](repeating: 128, count: 32 * 16 * 3)]), subIFDs: [raw])
        return (TIFFBuilder(littleEndian: false, chain: [thumbnail]).build(), samples)
    }

    /// Runs Tests/Interop/pidng_write.py: an uncompressed DNG by PiDNG and the samples it was given.
    static func pidngFile(
        width: Int, height: Int, bits: Int, in folder: TemporaryDirectory
    ) async throws -> (path: String, samples: [UInt16]) {
        let python = try ExternalTool.requirePython(modules: ["pidng", "numpy"])
        let script = ExternalTool.packageRoot.appendingPathComponent("Tests/Interop/pidng_write.py").path
        let dng = folder.file("pidng-\(bits).dng").path
        let raw = folder.file("pidng-\(bits).samples").path
        let result = try await Subprocess.runDetached(
            python, [script, dng, raw, String(width), String(height), String(bits)])
        try #require(result.status == 0, "pidng_write.py failed: \(result.errorOutput)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: raw))
        let samples = stride(from: 0, to: bytes.count, by: 2).map { UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8 }
        try FileManager.default.removeItem(atPath: raw)
        return (dng, samples)
    }

    /// The JSON objects of `--json` output, one per line.
    static func jsonLines(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    /// A copy of the file at `path` with one bit flipped in the middle of the raw image's data, found through the
    /// file's structure so that the flip lands in the samples, not in a preview.
    static func flippingRawBit(of path: String, mask: UInt8 = 0x10) throws -> Data {
        let bytes = try RawDecoder.readFile(path)
        let raw = try TIFFRawReader.rawDirectory(in: try TIFFRawReader.structure(of: bytes[...]))
        let offset = try #require(raw.dataOffsets.first.flatMap { Int(exactly: $0) })
        let count = try #require(raw.dataByteCounts.first.flatMap { Int(exactly: $0) })
        var data = Data(bytes)
        data[offset + count / 2] ^= mask
        return data
    }
}
