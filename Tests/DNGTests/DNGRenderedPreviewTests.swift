import DNG
import Foundation
import JPEG
import RawImage
import TestSupport
import Testing

/// The previews rawcap really writes come from the renderer (`DNGPreviews.render`); the files that carry them must
/// validate, and the preview and thumbnail must come back byte for byte.
@Suite struct DNGRenderedPreviewTests {
    @Test(arguments: [DNGOptions.Compression.none, .lossless])
    func renderedPreviewsAreStoredUnchanged(compression: DNGOptions.Compression) async throws {
        let exiftool = try ExternalTool.require("exiftool")
        let folder = try TemporaryDirectory("dng-rendered")
        let frame = try TestImages.frame(width: 640, height: 426, bitsPerSample: 14, cfa: .rggb, orientation: .rotate90)
        let image = try LinearTestImages.image(width: 120, height: 80)
        let inputs: [(name: String, previews: DNGPreviews, write: (DNGPreviews, String) throws -> Void)] = [
            (
                "cfa", try DNGPreviews.render(from: frame),
                { previews, path in
                    try DNGWriter.write(
                        frame, previews: previews, options: DNGOptions(compression: compression), to: path)
                }
            ),
            (
                "linear", try DNGPreviews.render(from: image),
                { previews, path in
                    try DNGWriter.write(
                        image, previews: previews, options: DNGOptions(compression: compression), to: path)
                }
            ),
        ]
        for (name, previews, write) in inputs {
            let path = folder.file("\(name).dng").path
            try write(previews, path)
            let readBack = try TIFFReadBack(path: path)
            let thumbnail = readBack.ifd0.chunks.first ?? []
            let mismatch = zip(thumbnail, previews.thumbnail.pixels).enumerated().first { $1.0 != $1.1 }?.offset
            #expect(
                readBack.ifd0.chunks.count == 1 && thumbnail == previews.thumbnail.pixels,
                "\(name): thumbnail of \(thumbnail.count) bytes, \(previews.thumbnail.pixels.count) expected, first difference at \(String(describing: mismatch)), \(readBack.ifd0.width)×\(readBack.ifd0.height) vs \(previews.thumbnail.width)×\(previews.thumbnail.height)"
            )
            let jpeg = try #require(previews.preview)
            let previewIFD = try #require(readBack.subIFDs.last)
            #expect(previewIFD.compression == 7 && previewIFD.width == jpeg.width, "\(name)")
            #expect(previewIFD.chunks == [jpeg.bytes], "\(name): preview JPEG")

            let extracted = try await Subprocess.runDetached(exiftool, ["-b", "-PreviewImage", path])
            #expect(Array(extracted.stdout) == jpeg.bytes, "\(name): exiftool's PreviewImage")
            let validation = try await Subprocess.runDetached(
                exiftool, ["-validate", "-warning", "-error", "-a", path])
            #expect(
                validation.output.contains("Validate") && validation.output.contains(": OK"), "\(validation.output)")
            #expect(!validation.output.contains("Warning"), "\(name): \(validation.output)")
        }
    }

    @Test func bytesAfterTheJPEGsEndAreLeftOut() throws {
        let frame = try TestImages.frame(width: 64, height: 48, bitsPerSample: 12, cfa: .rggb)
        var previews = try TestImages.previews(of: frame)
        let jpeg = try #require(previews.preview)
        previews.preview = JPEGImage(bytes: jpeg.bytes + [0, 0, 0, 0xFF], width: jpeg.width, height: jpeg.height)
        let plan = try DNGEncoder().plan(for: frame, previews: previews)
        #expect(plan.root.subDirectories.last?.image?.chunks.first?.fileBytes == jpeg.bytes)
    }
}
