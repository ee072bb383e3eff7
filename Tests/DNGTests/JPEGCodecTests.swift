import DNG
import Foundation
import JPEG
import RawImage
import SceneSynthesis
import TestSupport
import Testing

@Suite struct JPEGCodecTests {
    /// A rendering of the synthetic chart: smooth areas, sharp edges and saturated colours.
    static let chart: RGBImage8 = {
        do {
            let scene = try SyntheticScene(width: 640, height: 440, cfa: .rggb, bitsPerSample: 12)
            return try scene.render().renderRGB8(RenderOptions(longSide: 480))
        } catch {
            preconditionFailure("the synthetic chart renders: \(error)")
        }
    }()

    static func psnr(_ a: RGBImage8, _ b: RGBImage8) -> Double {
        var sum = 0.0
        for (x, y) in zip(a.pixels, b.pixels) {
            let d = Double(x) - Double(y)
            sum += d * d
        }
        return 10 * log10(255 * 255 / (sum / Double(a.pixels.count)))
    }

    @Test(arguments: JPEGImage.ChromaSubsampling.allCases)
    func decodeOfEncodeIsCloseToTheOriginal(subsampling: JPEGImage.ChromaSubsampling) throws {
        let jpeg = try JPEGImage(encoding: Self.chart, quality: 90, subsampling: subsampling)
        #expect(jpeg.width == Self.chart.width && jpeg.height == Self.chart.height)
        #expect(jpeg.bytes.prefix(2) == [0xFF, 0xD8] && jpeg.bytes.suffix(2) == [0xFF, 0xD9])
        let decoded = try jpeg.decoded()
        #expect(decoded.width == Self.chart.width && decoded.height == Self.chart.height)
        let quality = Self.psnr(decoded, Self.chart)
        // Quality 90 on a test chart with 1-pixel gratings: 4:4:4 keeps more than 4:2:0.
        #expect(quality > (subsampling == .yuv444 ? 36 : 32), "PSNR \(quality) dB")
    }

    @Test func higherQualityIsLargerAndCloser() throws {
        let low = try JPEGImage(encoding: Self.chart, quality: 40)
        let high = try JPEGImage(encoding: Self.chart, quality: 95)
        #expect(high.bytes.count > low.bytes.count)
        #expect(Self.psnr(try high.decoded(), Self.chart) > Self.psnr(try low.decoded(), Self.chart) + 3)
        let full = try JPEGImage(encoding: Self.chart, quality: 90, subsampling: .yuv444)
        let half = try JPEGImage(encoding: Self.chart, quality: 90, subsampling: .yuv420)
        #expect(full.bytes.count > half.bytes.count)
    }

    @Test func sizeComesFromTheHeaderAlone() throws {
        let jpeg = try JPEGImage(encoding: Self.chart)
        let size = try JPEGImage.size(of: jpeg.bytes)
        #expect(size.width == Self.chart.width && size.height == Self.chart.height)
        // The frame header is near the start: the size is readable from a prefix without the scan data.
        let headerOnly = Array(jpeg.bytes.prefix(700))
        #expect(try JPEGImage.size(of: headerOnly).width == Self.chart.width)
        let validated = try JPEGImage(validating: jpeg.bytes)
        #expect(validated == jpeg)
    }

    @Test func rejectsWhatIsNotAJPEG() throws {
        #expect(throws: JPEGError(.invalidData)) { try JPEGImage.size(of: []) }
        #expect(throws: JPEGError(.invalidData)) { try JPEGImage.size(of: [0x89, 0x50, 0x4E, 0x47, 0, 0]) }
        #expect(throws: JPEGError(.invalidData)) { try JPEGImage(validating: [0xFF, 0xD8, 0xFF, 0xD9]) }
        let jpeg = try JPEGImage(encoding: Self.chart)
        // Every prefix that ends before the frame header is complete fails to give a size.
        let startOfFrame = try #require(
            (2..<jpeg.bytes.count - 1).first { jpeg.bytes[$0] == 0xFF && jpeg.bytes[$0 + 1] == 0xC0 })
        for length in 0..<(startOfFrame + 9) {
            #expect(throws: JPEGError.self) { try JPEGImage.size(of: Array(jpeg.bytes.prefix(length))) }
        }
        #expect(throws: JPEGError(.invalidArgument)) { try JPEGImage(encoding: Self.chart, quality: 0) }
        #expect(throws: JPEGError(.invalidArgument)) { try JPEGImage(encoding: Self.chart, quality: 101) }
    }

    @Test func damagedDataThrowsOrDecodesButNeverTraps() throws {
        let jpeg = try JPEGImage(encoding: Self.chart, quality: 80)
        var generator = SystemRandomNumberGenerator()
        var outcomes = (decoded: 0, rejected: 0)
        for _ in 0..<40 {
            var bytes = jpeg.bytes
            for _ in 0..<8 {
                let index = Int.random(in: 2..<bytes.count, using: &generator)
                bytes[index] ^= UInt8.random(in: 1...255, using: &generator)
            }
            do {
                let image = try JPEGImage(bytes: bytes, width: jpeg.width, height: jpeg.height).decoded()
                #expect(image.pixels.count == image.width * image.height * 3)
                outcomes.decoded += 1
            } catch {
                outcomes.rejected += 1
            }
        }
        #expect(outcomes.decoded + outcomes.rejected == 40)
        // Truncated scan data decodes with a warning (the rest grey), as cameras' broken files should.
        let truncated = JPEGImage(
            bytes: Array(jpeg.bytes.prefix(jpeg.bytes.count / 2)), width: jpeg.width, height: jpeg.height)
        #expect(try truncated.decoded().width == jpeg.width)
    }

    @Test func scaledDecodingPicksTheSmallestFactorThatIsLargeEnough() throws {
        // A smooth 2000×1334 picture, made directly: decoding, not rendering, is under test.
        var pixels = [UInt8](repeating: 128, count: 2000 * 1334 * 3)
        for row in 0..<1334 {
            for column in 0..<2000 {
                pixels[(row * 2000 + column) * 3] = UInt8(column / 8)
                pixels[(row * 2000 + column) * 3 + 1] = UInt8(row / 6)
            }
        }
        let large = try RGBImage8(width: 2000, height: 1334, pixels: pixels)
        let jpeg = try JPEGImage(encoding: large)
        let thumbnail = try jpeg.decoded(minimumLongSide: 256)
        // 1/8 would give 250 pixels, too few; 1/4 gives 500.
        #expect(thumbnail.width == 500)
        #expect(try jpeg.decoded(minimumLongSide: 2000).width == 2000)
        #expect(try jpeg.decoded(minimumLongSide: 5000).width == 2000)
        #expect(throws: JPEGError(.invalidArgument)) { try jpeg.decoded(minimumLongSide: 0) }
    }

    @Test func anIndependentReaderAgreesOnTheEncodedFile() async throws {
        let exiftool = try ExternalTool.require("exiftool")
        let folder = try TemporaryDirectory("jpeg")
        let file = folder.file("chart.jpg")
        try Data(try JPEGImage(encoding: Self.chart, quality: 88).bytes).write(to: file)
        let result = try await Subprocess.runDetached(
            exiftool, ["-s3", "-ImageWidth", "-ImageHeight", "-YCbCrSubSampling", file.path])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(Self.chart.width)")
        #expect(lines.dropFirst().first == "\(Self.chart.height)")
        #expect(lines.last?.contains("2 2") == true, "\(lines)")
    }
}
