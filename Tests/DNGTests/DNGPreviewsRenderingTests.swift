import DNG
import JPEG
import RawImage
import SceneSynthesis
import Testing

@Suite struct DNGPreviewsRenderingTests {
    @Test(arguments: [CFAPattern.rggb, .xTrans])
    func rawFramesGetA256ThumbnailAnd1024Preview(cfa: CFAPattern) throws {
        // The smallest frame whose default crop bins by 2 down to a 1024-pixel preview.
        let frame = try SyntheticScene(width: 2100, height: 1400, cfa: cfa, bitsPerSample: 14).render()
        let previews = try DNGPreviews.render(from: frame)
        #expect(max(previews.thumbnail.width, previews.thumbnail.height) == 256)
        let preview = try #require(previews.preview)
        #expect(max(preview.width, preview.height) == 1024)
        let header = try JPEGImage.size(of: preview.bytes)
        #expect(header.width == preview.width && header.height == preview.height)
        // The thumbnail is the preview, shrunk: both show the same picture.
        let shrunk = try preview.decoded().downscaled(toLongSide: 256)
        #expect(shrunk.width == previews.thumbnail.width && shrunk.height == previews.thumbnail.height)
        let difference = zip(shrunk.pixels, previews.thumbnail.pixels).map { abs(Int($0) - Int($1)) }
        #expect(Double(difference.reduce(0, +)) / Double(difference.count) < 3)
    }

    @Test func previewsStayInTheSensorsOrientation() throws {
        var scene = try SyntheticScene(width: 1600, height: 1000, cfa: .rggb, bitsPerSample: 12)
        scene.identity.orientation = .rotate90
        let previews = try DNGPreviews.render(from: try scene.render())
        let preview = try #require(previews.preview)
        #expect(preview.width == 1024 && preview.height < 1024)
        #expect(previews.thumbnail.width == 256 && previews.thumbnail.height < 256)
    }

    @Test func smallFramesKeepTheirSize() throws {
        let frame = try SyntheticScene(width: 120, height: 90, cfa: .bggr, bitsPerSample: 10).render()
        let previews = try DNGPreviews.render(from: frame)
        let preview = try #require(previews.preview)
        #expect(preview.width == frame.defaultCrop.width && preview.height == frame.defaultCrop.height)
        #expect(previews.thumbnail.width == frame.defaultCrop.width)
        let tiny = try SyntheticScene(width: 16, height: 16, cfa: .xTrans, bitsPerSample: 8).render()
        #expect(try DNGPreviews.render(from: tiny).thumbnail.width == tiny.defaultCrop.width)
    }

    @Test func linearImagesRenderTheSamePictureAsTheirFrame() throws {
        let frame = try SyntheticScene(width: 640, height: 420, cfa: .rggb, bitsPerSample: 14).render()
        let fromFrame = try DNGPreviews.render(from: frame).thumbnail
        let fromLinear = try DNGPreviews.render(from: try LinearImage(demosaicing: frame)).thumbnail
        #expect(fromFrame.width == fromLinear.width && fromFrame.height == fromLinear.height)
        let difference = zip(fromFrame.pixels, fromLinear.pixels).map { abs(Int($0) - Int($1)) }
        #expect(Double(difference.reduce(0, +)) / Double(difference.count) < 2)
    }

    @Test func aCameraJPEGIsThePreviewAsIs() throws {
        let picture = try SyntheticScene(width: 2100, height: 1400, cfa: .rggb, bitsPerSample: 12).render()
            .renderRGB8(RenderOptions(longSide: 1024))
        let cameraJPEG = try JPEGImage(encoding: picture, quality: 95)
        let previews = try DNGPreviews.render(fromCameraJPEG: cameraJPEG)
        #expect(previews.preview == cameraJPEG)
        #expect(previews.thumbnail.width == 256)
        let expected = try picture.downscaled(toLongSide: 256)
        #expect(previews.thumbnail.height == expected.height)
        // Same picture; libjpeg-turbo's 1/4-scale DCT decode filters fine detail differently from an area
        // filter, so allow a few levels on this chart of 1-pixel gratings.
        let difference = zip(expected.pixels, previews.thumbnail.pixels).map { abs(Int($0) - Int($1)) }
        #expect(Double(difference.reduce(0, +)) / Double(difference.count) < 6)
        #expect(throws: JPEGError(.invalidData)) {
            try DNGPreviews.render(fromCameraJPEG: JPEGImage(bytes: [1, 2, 3], width: 1, height: 1))
        }
    }
}
