import DNG
import Foundation
import OutputFiles
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

    /// `computesFileSHA256`: the SHA-256 the writer reads back while it syncs the file is the finished file's, for
    /// CFA frames with ready and pending previews and for LinearRaw images; without the option there is none.
    @Test func theWriterReturnsTheFinishedFilesSHA256() throws {
        let folder = try TemporaryDirectory("dng-file-sha256")
        let frame = try TestImages.frame(width: 530, height: 301, bitsPerSample: 14, cfa: .gbrg, seed: 3)
        let previews = try TestImages.previews(of: frame)
        let image = try LinearTestImages.image(width: 161, height: 97)
        var options = DNGOptions(compression: .lossless, tileSize: 64)
        options.computesFileSHA256 = true
        let paths = ["ready", "pending", "linear"].map { folder.file("\($0).dng").path }
        let results = [
            try DNGWriter.write(frame, previews: previews, options: options, to: paths[0]),
            try DNGWriter.write(
                frame, previews: PendingPreviews(expecting: try .init(renderingFrom: frame)) { previews },
                options: options, to: paths[1]),
            try DNGWriter.write(
                image, previews: DNGPreviews(thumbnail: try LinearTestImages.thumbnail(of: image), preview: nil),
                options: options, to: paths[2]),
        ]
        for (path, result) in zip(paths, results) {
            #expect(result.sha256 != nil, "\(path)")
            #expect(result.sha256 == (try MessageDigest.hashFile(.sha256, at: path)), "\(path)")
        }
        options.computesFileSHA256 = false
        let plain = try DNGWriter.write(frame, previews: previews, options: options, to: folder.file("plain.dng").path)
        #expect(plain.sha256 == nil)
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
