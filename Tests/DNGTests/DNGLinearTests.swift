import DNG
import Foundation
import RawImage
import TestSupport
import Testing

/// LinearRaw DNGs (PhotometricInterpretation 34892), rawcap's "ProRAW-like" fallback, built from a LinearImage made
/// by hand: the stored samples come back from libtiff and tifffile, LibRaw and dcraw return them through the
/// LinearizationTable, and both render.
@Suite struct DNGLinearTests {
    static let compressions: [DNGOptions.Compression] = [.none, .lossless]

    @Test(arguments: compressions)
    func readersReturnTheStoredAndTheLinearizedSamples(compression: DNGOptions.Compression) async throws {
        let folder = try TemporaryDirectory("dng-linear-\(compression)")
        let encoder = DNGEncoder(options: DNGOptions(compression: compression))
        var manifest: [[String: Any]] = []
        var written: [(image: LinearImage, path: String)] = []
        for (name, image) in [
            ("companded", try LinearTestImages.image(width: 61, height: 37)),
            ("plain16", try LinearTestImages.image(width: 48, height: 32, companded: false, seed: 4)),
        ] {
            let previews = DNGPreviews(thumbnail: try LinearTestImages.thumbnail(of: image), preview: nil)
            let path = folder.file("\(name).dng").path
            try DNGWriter.write(try encoder.plan(for: image, previews: previews), to: path)
            written.append((image, path))

            let readBack = try TIFFReadBack(path: path)
            let raw = try #require(readBack.raw)
            #expect(raw.photometric == 34892 && raw.samplesPerPixel == 3, "\(name)")
            #expect(try RawSampleDecoder.samples(of: raw, planes: 3) == image.samples, "\(name): libtiff")

            let expected = folder.file("\(name).raw")
            try InteropSupport.writeExpected(image.samples, to: expected)
            var entry: [String: Any] = [
                "path": path, "expected": expected.path, "height": image.height, "width": image.width, "planes": 3,
                "black": image.blackLevels, "white": image.whiteLevels,
                "digest_bytes_per_sample": 2, "render": true,
            ]
            if let table = image.linearizationTable { entry["table"] = table.map(Int.init) }
            manifest.append(entry)
        }
        for (path, failures) in try await InteropSupport.runPythonChecks(manifest, in: folder) {
            #expect(failures.isEmpty, "\(URL(fileURLWithPath: path).lastPathComponent): \(failures)")
        }

        let dcraw = try ExternalTool.require("dcraw")
        let dcrawEmu = try ExternalTool.require("dcraw_emu")
        for (image, path) in written {
            // dcraw -D writes LinearRaw as a 16-bit PPM of linearized values.
            let result = try await Subprocess.runDetached(dcraw, ["-D", "-4", "-t", "0", "-c", path])
            #expect(result.status == 0, "\(path): \(result.errorOutput)")
            let linear = image.samples.map { value in image.linearizationTable.map { $0[Int(value)] } ?? value }
            #expect(try InteropSupport.readPGM16(result.stdout).samples == linear, "\(path): dcraw pixels")
            let render = try await Subprocess.runDetached(dcrawEmu, ["-4", "-T", path])
            #expect(render.status == 0 && !render.errorOutput.contains("Cannot"), "\(path): \(render.errorOutput)")
        }
    }
}
