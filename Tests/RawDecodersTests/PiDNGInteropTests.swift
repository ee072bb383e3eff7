import Foundation
import RawDecoders
import TestSupport
import Testing

/// DNGs written by an independent writer (PiDNG, from PyPI in the project's venv) decode to exactly the samples
/// PiDNG was given, through rawcap's reader and through LibRaw.
@Suite struct PiDNGInteropTests {
    /// Runs Tests/Interop/pidng_write.py; returns the DNG's bytes and the samples that went in.
    static func pidngFile(width: Int, height: Int, bits: Int, in directory: TemporaryDirectory) async throws -> (
        dng: [UInt8], samples: [UInt16]
    ) {
        let python = try ExternalTool.requirePython(modules: ["pidng", "numpy"])
        let script = ExternalTool.packageRoot.appendingPathComponent("Tests/Interop/pidng_write.py").path
        let dngURL = directory.file("pidng-\(bits).dng")
        let rawURL = directory.file("pidng-\(bits).raw")
        let result = try await Subprocess.runDetached(
            python, [script, dngURL.path, rawURL.path, String(width), String(height), String(bits)])
        try #require(result.status == 0, "pidng_write.py failed: \(result.errorOutput)")
        let raw = try Data(contentsOf: rawURL)
        let samples = stride(from: 0, to: raw.count, by: 2).map { UInt16(raw[$0]) | UInt16(raw[$0 + 1]) << 8 }
        return (Array(try Data(contentsOf: dngURL)), samples)
    }

    @Test(arguments: [10, 12, 16])
    func decodesWhatPiDNGWrote(bits: Int) async throws {
        let directory = try TemporaryDirectory("pidng")
        let (dng, samples) = try await Self.pidngFile(width: 96, height: 64, bits: bits, in: directory)
        #expect(RawDecoder.detectFormat(dng[...]) == .dng)
        let decoded = try RawDecoder.decode(dng[...])
        let frame = try #require(decoded.frame)
        #expect(frame.samples == samples)
        #expect(frame.cfa == .rggb)
        #expect(frame.blackLevels == [64, 64, 64, 64])
        #expect(frame.whiteLevel == (1 << bits) - 1)
        #expect(frame.metadata.make == "PiDNG")
        #expect(decoded.info.container == .dng(version: "1.4.0.0", backwardVersion: "1.0.0.0"))
        #expect(decoded.info.storage.layout == "1 tile of 96×64")
        #expect(try LibRawDecoder.decode(dng[...]).frame?.samples == samples)
    }
}
