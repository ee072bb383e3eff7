import DNG
import Foundation
import JPEG
import RawImage
import SceneSynthesis
import Testing

/// Writes the previews rawcap would embed for a few synthetic shots as JPEG files, for looking at by eye, plus
/// the same images decoded back (by rawcap's JPEG decoder) as binary PPM for viewers that lack JPEG:
/// `RAWCAP_PREVIEW_DIR=/tmp/previews swift test --filter PreviewGalleryTests`.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["RAWCAP_PREVIEW_DIR"] != nil, "set RAWCAP_PREVIEW_DIR"))
struct PreviewGalleryTests {
    static func write(_ jpeg: JPEGImage, _ folder: URL, _ name: String) throws {
        try Data(jpeg.bytes).write(to: folder.appendingPathComponent("\(name).jpg"))
        let decoded = try jpeg.decoded()
        var ppm = Data("P6\n\(decoded.width) \(decoded.height)\n255\n".utf8)
        ppm.append(contentsOf: decoded.pixels)
        try ppm.write(to: folder.appendingPathComponent("\(name).ppm"))
    }

    @Test func writesPreviewsOfABracketAndAnXTransShot() throws {
        let folder = URL(fileURLWithPath: ProcessInfo.processInfo.environment["RAWCAP_PREVIEW_DIR"] ?? "/tmp")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let shots: [(name: String, cfa: CFAPattern, bias: Int32, light: SceneIlluminant)] = [
            ("bayer-0ev", .rggb, 0, .d65), ("bayer-minus2ev", .rggb, -2, .d65), ("bayer-plus2ev", .rggb, 2, .d65),
            ("xtrans-0ev", .xTrans, 0, .d65), ("bayer-tungsten", .grbg, 0, .standardA),
        ]
        for shot in shots {
            var scene = try SyntheticScene(width: 6000, height: 4000, cfa: shot.cfa, bitsPerSample: 14)
            scene.illuminant = shot.light
            let settings = try ExposureSettings.standard.withExposureBias(try #require(Rational(shot.bias, 1)))
            let frame = try scene.render(exposure: settings, seed: 11)
            let previews = try DNGPreviews.render(from: frame)
            let preview = try #require(previews.preview)
            try Self.write(preview, folder, shot.name)
            try Self.write(try JPEGImage(encoding: previews.thumbnail, quality: 95), folder, "\(shot.name)-thumbnail")
            // A 100 % crop of the full-quality rendering around the Siemens star, for demosaicing artefacts.
            let full = try frame.renderRGB8(RenderOptions(method: .quality))
            let crop = PixelRect(x: full.width * 70 / 100, y: full.height * 8 / 100, width: 600, height: 400)
            var pixels: [UInt8] = []
            for row in crop.y..<crop.bottom {
                let start = (row * full.width + crop.x) * 3
                pixels += full.pixels[start..<(start + crop.width * 3)]
            }
            let detail = try RGBImage8(width: crop.width, height: crop.height, pixels: pixels)
            try Self.write(
                try JPEGImage(encoding: detail, quality: 95, subsampling: .yuv444), folder, "\(shot.name)-star-100pct")
        }
    }
}
