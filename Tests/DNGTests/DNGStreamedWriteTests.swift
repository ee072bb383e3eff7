import DNG
import Foundation
import RawImage
import TestSupport
import Testing

/// `DNGWriter.write(frame…)` streams lossless tiles into the file while later ones are still being encoded. The
/// file must be byte for byte what planning first and writing the finished plan gives, and a tile that cannot be
/// encoded must fail the write cleanly.
@Suite struct DNGStreamedWriteTests {
    /// Many tiles (small tiles on a larger frame), edge tiles, 1–3 encoder threads, with and without the digest.
    @Test(arguments: [1, 2, 3])
    func streamedFilesEqualPlannedFiles(threads: Int) throws {
        let folder = try TemporaryDirectory("dng-streamed-\(threads)")
        let frame = try TestImages.frame(width: 530, height: 301, bitsPerSample: 14, cfa: .gbrg, seed: 9)
        let previews = try TestImages.previews(of: frame)
        for digest in [true, false] {
            let options = DNGOptions(
                compression: .lossless, tileSize: 64, threadCount: threads, writesRawDigest: digest)
            let streamed = folder.file("streamed-\(digest).dng").path
            let planned = folder.file("planned-\(digest).dng").path
            try DNGWriter.write(frame, previews: previews, options: options, to: streamed)
            try DNGWriter.write(try DNGEncoder(options: options).plan(for: frame, previews: previews), to: planned)
            let streamedBytes = try Data(contentsOf: URL(fileURLWithPath: streamed))
            #expect(streamedBytes == (try Data(contentsOf: URL(fileURLWithPath: planned))), "digest \(digest)")
            #expect(streamedBytes.count > 40_000)
        }
    }

    @Test func streamedLinearFilesEqualPlannedFiles() throws {
        let folder = try TemporaryDirectory("dng-streamed-linear")
        let image = try LinearTestImages.image(width: 161, height: 97)
        let previews = DNGPreviews(thumbnail: try LinearTestImages.thumbnail(of: image), preview: nil)
        let options = DNGOptions(compression: .lossless, tileSize: 32)
        let streamed = folder.file("streamed.dng").path
        let planned = folder.file("planned.dng").path
        try DNGWriter.write(image, previews: previews, options: options, to: streamed)
        try DNGWriter.write(try DNGEncoder(options: options).plan(for: image, previews: previews), to: planned)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: streamed))
                == (try Data(contentsOf: URL(fileURLWithPath: planned))))
    }

    /// A sample above the bit depth in a late tile: the write fails with the error that names the sample, after
    /// earlier tiles were already in the temporary file, and nothing is left in the folder.
    @Test func aBadSampleInALateTileFailsTheWriteAndLeavesNothing() throws {
        let folder = try TemporaryDirectory("dng-streamed-bad")
        var samples = TestImages.samples(count: 400 * 300, maximum: 4095, seed: 6)
        samples[299 * 400 + 398] = 4096
        let frame = try RawFrame(
            width: 400, height: 300, bitsPerSample: 12, samples: samples, cfa: .rggb,
            blackLevels: [256, 256, 256, 256], whiteLevel: 4095)
        let path = folder.file("bad.dng").path
        let error = #expect(throws: DNGError(.sampleOutOfRange)) {
            try DNGWriter.write(
                frame, previews: try TestImages.previews(of: frame),
                options: DNGOptions(compression: .lossless, tileSize: 32, threadCount: 2), to: path)
        }
        #expect(error?.description.contains("sample 119998") == true, "\(String(describing: error))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }
}
