import DNG
import Foundation
import JPEG
import RawImage
import TestSupport
import Testing

/// `DNGWriter.write(frame, previews: PendingPreviews…)` writes the raw data while the previews are still being
/// rendered: the preview JPEG is taken when the writer reaches the last SubIFD and the thumbnail is patched over
/// zeros. The file must be byte for byte the one the finished previews give, whatever the rendering turns out to be.
@Suite struct DNGPendingPreviewsTests {
    static func shape(of previews: DNGPreviews) -> PendingPreviews.Shape {
        PendingPreviews.Shape(
            thumbnailWidth: previews.thumbnail.width, thumbnailHeight: previews.thumbnail.height,
            previewWidth: previews.preview?.width, previewHeight: previews.preview?.height)
    }

    /// Rendered and test previews, with and without a JPEG, both compressions, with and without the digest.
    @Test(arguments: [DNGOptions.Compression.none, .lossless])
    func pendingPreviewsGiveTheFileOfFinishedOnes(compression: DNGOptions.Compression) throws {
        let folder = try TemporaryDirectory("dng-pending-\(compression)")
        let frame = try TestImages.frame(width: 530, height: 301, bitsPerSample: 14, cfa: .grbg, seed: 4)
        let candidates = [
            ("rendered", try DNGPreviews.render(from: frame)),
            ("test", try TestImages.previews(of: frame)),
            ("thumbnail-only", try TestImages.previews(of: frame, withJPEG: false)),
        ]
        for (name, previews) in candidates {
            for digest in [true, false] {
                let options = DNGOptions(compression: compression, tileSize: 64, writesRawDigest: digest)
                let ready = folder.file("\(name)-\(digest)-ready.dng").path
                let pending = folder.file("\(name)-\(digest)-pending.dng").path
                try DNGWriter.write(frame, previews: previews, options: options, to: ready)
                let rendering = PendingPreviews(expecting: Self.shape(of: previews)) {
                    Thread.sleep(forTimeInterval: 0.02)  // still rendering when the raw data is written
                    return previews
                }
                try DNGWriter.write(frame, previews: rendering, options: options, to: pending)
                #expect(
                    try Data(contentsOf: URL(fileURLWithPath: pending))
                        == (try Data(contentsOf: URL(fileURLWithPath: ready))), "\(name), digest \(digest)")
            }
        }
    }

    /// The shape ``DNGPreviews/render(from:)-(RawFrame)`` is predicted to have is the one it has.
    @Test func theRenderedShapeIsPredicted() throws {
        for (width, height) in [(530, 301), (301, 530), (6000 / 8, 4000 / 8), (40, 36)] {
            let frame = try TestImages.frame(width: width, height: height, bitsPerSample: 12, cfa: .rggb)
            #expect(try PendingPreviews.Shape(renderingFrom: frame) == Self.shape(of: DNGPreviews.render(from: frame)))
        }
        // Non-square pixels: the rendering is made square (DefaultScale), and the prediction follows it.
        for ratio in [1.535, 0.5] {
            var frame = try TestImages.frame(width: 530, height: 301, bitsPerSample: 12, cfa: .rggb)
            frame.pixelAspectRatio = ratio
            let shape = try PendingPreviews.Shape(renderingFrom: frame)
            #expect(shape == Self.shape(of: try DNGPreviews.render(from: frame)), "\(ratio)")
            let square = try PendingPreviews.Shape(
                renderingFrom: try TestImages.frame(width: 530, height: 301, bitsPerSample: 12, cfa: .rggb))
            #expect(shape != square, "\(ratio)")
        }
    }

    /// A rendering that comes out in another shape (a caller's fallback thumbnail) or at another JPEG sampling
    /// makes the writer start again with what was rendered; nothing else is left in the folder.
    @Test func aRenderingOfAnotherShapeIsWrittenAgain() throws {
        let folder = try TemporaryDirectory("dng-pending-other")
        let frame = try TestImages.frame(width: 300, height: 270, bitsPerSample: 12, cfa: .bggr)
        let previews = try TestImages.previews(of: frame)
        let expected = Self.shape(of: previews)
        var wrongThumbnail = expected
        wrongThumbnail.thumbnailWidth += 1
        var noPreview = expected
        noPreview.previewWidth = nil
        noPreview.previewHeight = nil
        let fullChroma = try DNGPreviews(
            thumbnail: previews.thumbnail,
            preview: JPEGImage(encoding: try TestImages.thumbnail(of: frame, longSide: 96), subsampling: .yuv444))
        let cases: [(String, PendingPreviews.Shape, DNGPreviews)] = [
            ("thumbnail", wrongThumbnail, previews), ("preview", noPreview, previews),
            ("sampling", expected, fullChroma),
        ]
        for (name, shape, rendered) in cases {
            let ready = folder.file("\(name)-ready.dng").path
            let pending = folder.file("\(name)-pending.dng").path
            try DNGWriter.write(frame, previews: rendered, to: ready)
            try DNGWriter.write(frame, previews: PendingPreviews(expecting: shape) { rendered }, to: pending)
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: pending))
                    == (try Data(contentsOf: URL(fileURLWithPath: ready))), "\(name)")
        }
        #expect(try folder.contents().count == 2 * cases.count)
    }

    struct RenderingFailed: Error {}

    /// The rendering's own error comes out of the write, and no file is left behind.
    @Test func aFailedRenderingFailsTheWrite() throws {
        let folder = try TemporaryDirectory("dng-pending-failed")
        let frame = try TestImages.frame(width: 300, height: 270, bitsPerSample: 12, cfa: .bggr)
        let shape = Self.shape(of: try TestImages.previews(of: frame))
        #expect(throws: RenderingFailed.self) {
            try DNGWriter.write(
                frame, previews: PendingPreviews(expecting: shape) { throw RenderingFailed() },
                to: folder.file("failed.dng").path)
        }
        #expect(try folder.contents().isEmpty)
    }
}
