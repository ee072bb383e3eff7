import DNG
import Foundation
import JPEG
import RawDecoders
import RawImage
import TestSupport
import Testing

/// `rawcap inspect` run as the built binary on files whose content the test knows.
@Suite(.serialized) struct InspectCommandTests {
    /// A frame whose red photosites are clipped in the top quarter of the active area, so the clipped fractions are
    /// known exactly.
    static func clippedFrame() throws -> (frame: RawFrame, clipped: [String: Double]) {
        let frame = try ConvertTestFiles.frame(width: 160, height: 120)
        var samples = frame.samples
        let area = frame.activeArea
        var counts: [String: (clipped: Int, total: Int)] = ["R": (0, 0), "G": (0, 0), "B": (0, 0)]
        for row in area.y..<area.bottom {
            for column in area.x..<area.right {
                let color = frame.color(row: row, column: column)
                let channel = color == .red ? "R" : color == .green ? "G" : "B"
                if color == .red && row < area.y + area.height / 4 {
                    samples[row * frame.width + column] = UInt16(frame.whiteLevel)
                }
                let isClipped = Int(samples[row * frame.width + column]) >= frame.whiteLevel
                counts[channel, default: (0, 0)].clipped += isClipped ? 1 : 0
                counts[channel, default: (0, 0)].total += 1
            }
        }
        let clipped = counts.mapValues { Double($0.clipped) / Double($0.total) }
        return (try frame.withSamples(samples), clipped)
    }

    @Test func jsonFieldsDescribeAKnownDNG() async throws {
        let folder = try TemporaryDirectory("inspect-json")
        let (frame, clipped) = try Self.clippedFrame()
        let path = folder.file("known.dng").path
        try ConvertTestFiles.writeDNG(frame, to: path, compression: .lossless)

        let result = try await ConvertTestFiles.rawcap(["inspect", path, "--json"])
        #expect(result.status == 0, "\(result.errorOutput)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let camera = try #require(report["camera"] as? [String: Any])
        #expect(camera["make"] as? String == "rawcap" && camera["model"] as? String == "Test Body")
        let exposure = try #require(report["exposure"] as? [String: Any])
        #expect(exposure["time"] as? String == "1/250")
        #expect(exposure["seconds"] as? Double == 0.004)
        #expect(exposure["fNumber"] as? Double == 5.6)
        #expect(exposure["iso"] as? Int == 400)
        #expect(exposure["captureTime"] as? String == "2026:11:22 06:30:05")
        let image = try #require(report["image"] as? [String: Any])
        #expect(image["kind"] as? String == "cfa" && image["pattern"] as? String == "RGGB")
        #expect(image["width"] as? Int == 160 && image["height"] as? Int == 120)
        #expect(image["bitsPerSample"] as? Int == 14)
        #expect(image["blackLevels"] as? [Double] == frame.blackLevels)
        #expect(image["whiteLevels"] as? [Int] == [frame.whiteLevel])
        let storage = try #require(report["storage"] as? [String: Any])
        #expect(storage["container"] as? String == "DNG 1.4.0.0 (backward 1.1.0.0)")
        #expect(storage["compression"] as? String == "lossless JPEG")
        #expect(storage["rawImageDigest"] as? String == "verified")
        #expect(report["fileSize"] as? Int == (try Data(contentsOf: URL(fileURLWithPath: path))).count)
        #expect((report["previews"] as? [Any])?.count == 2)

        let histograms = try #require(report["histograms"] as? [[String: Any]])
        #expect(histograms.map { $0["channel"] as? String } == ["R", "G", "B"])
        for histogram in histograms {
            let channel = try #require(histogram["channel"] as? String)
            let fraction = try #require(histogram["clippedFraction"] as? Double)
            #expect(abs(fraction - (clipped[channel] ?? -1)) < 1e-12, "\(channel)")
            let bins = try #require(histogram["bins"] as? [Int])
            #expect(bins.count == 64)
            #expect(bins.reduce(0, +) == histogram["sampleCount"] as? Int)
            #expect(histogram["clippedCount"] as? Int == Int((fraction * Double(bins.reduce(0, +))).rounded()))
        }
        #expect((clipped["R"] ?? 0) > 0.24 && (clipped["B"] ?? 1) < 0.01)
    }

    @Test func textShowsTheHistogramsWithClippedPercentages() async throws {
        let folder = try TemporaryDirectory("inspect-text")
        let (frame, clipped) = try Self.clippedFrame()
        let path = folder.file("known.dng").path
        try ConvertTestFiles.writeDNG(frame, to: path)
        let result = try await ConvertTestFiles.rawcap(["inspect", path])
        #expect(result.status == 0, "\(result.errorOutput)")
        let lines = result.output.split(separator: "\n")
        #expect(
            lines.contains {
                $0.hasPrefix("Camera:") && $0.contains("rawcap Test Body (profile \"rawcap Emulated Camera\")")
            }, "\(result.output)")
        #expect(lines.contains { $0.hasPrefix("Exposure:") && $0.contains("1/250 s") && $0.contains("ISO 400") })
        #expect(
            lines.contains { $0.hasPrefix("Image:") && $0.contains("160×120, 14-bit in 16-bit samples, CFA RGGB") },
            "\(result.output)")
        #expect(lines.contains("Digest:      NewRawImageDigest verified"))
        let red = String(format: "%.2f", (clipped["R"] ?? 0) * 100)
        #expect(lines.contains { $0.hasPrefix("  R │") && $0.hasSuffix("│ clipped \(red)%") }, "\(result.output)")
        #expect(lines.contains { $0.hasPrefix("  G │") } && lines.contains { $0.hasPrefix("  B │") })
    }

    @Test func previewIsTheEmbeddedJPEGOrARenderedOne() async throws {
        let folder = try TemporaryDirectory("inspect-preview")
        let frame = try ConvertTestFiles.frame(width: 160, height: 120)
        let dng = folder.file("with-preview.dng").path
        try ConvertTestFiles.writeDNG(frame, to: dng)
        let out = folder.file("preview.jpg").path
        let result = try await ConvertTestFiles.rawcap(["inspect", dng, "--preview", out, "--json"])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.errorOutput.hasPrefix("Preview: wrote \(out) ("))
        #expect(result.errorOutput.contains("embedded"))
        let bytes = try RawDecoder.readFile(dng)
        guard case .jpeg(let embedded, _, _) = try #require(try RawDecoder.embeddedPreview(bytes[...])) else {
            Issue.record("rawcap's DNG has no JPEG preview")
            return
        }
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: out))) == embedded)

        // Never overwritten: 73, and the file keeps its bytes.
        let again = try await ConvertTestFiles.rawcap(["inspect", dng, "--preview", out])
        #expect(again.status == 73)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: out))) == embedded)

        // TIFF/EP from the emulator has no preview: one is rendered, upright, at the crop's size.
        let tiffEP = folder.file("bare.tif").path
        try ConvertTestFiles.writeTIFFEP(frame, to: tiffEP)
        let rendered = folder.file("rendered.jpg").path
        let renderedResult = try await ConvertTestFiles.rawcap(["inspect", tiffEP, "--preview", rendered])
        #expect(renderedResult.status == 0, "\(renderedResult.errorOutput)")
        #expect(renderedResult.output.contains("Previews:    none"))
        #expect(renderedResult.output.contains("rendered"))
        let jpeg = try JPEGImage(validating: Array(try Data(contentsOf: URL(fileURLWithPath: rendered))))
        #expect(jpeg.width == frame.defaultCrop.width && jpeg.height == frame.defaultCrop.height)
    }

    @Test func damagedFilesExit65() async throws {
        let folder = try TemporaryDirectory("inspect-damaged")
        let path = folder.file("shot.dng").path
        try ConvertTestFiles.writeDNG(try ConvertTestFiles.frame(), to: path)
        let bytes = try ConvertTestFiles.flippingRawBit(of: path, mask: 0x01)
        let flipped = folder.file("flipped.dng")
        try bytes.write(to: flipped)
        let result = try await ConvertTestFiles.rawcap(["inspect", flipped.path])
        #expect(result.status == 65)
        #expect(result.output.contains("NewRawImageDigest MISMATCH"))
        #expect(result.errorOutput.hasPrefix("rawcap inspect: \(flipped.path): the raw data does not match"))

        let truncated = folder.file("truncated.dng")
        try bytes.prefix(100).write(to: truncated)
        let cut = try await ConvertTestFiles.rawcap(["inspect", truncated.path, "--json"])
        #expect(cut.status == 65)
        // With --json, standard output is the error object every command prints for a failure.
        let object = try JSONSerialization.jsonObject(with: Data(cut.output.utf8)) as? [String: Any]
        let error = try #require(object?["error"] as? [String: Any])
        #expect(error["code"] as? String == "badInput" && error["exitStatus"] as? Int == 65)
        #expect(error["command"] as? String == "inspect")
        #expect(cut.errorOutput.split(separator: "\n").count == 1)
    }
}
