import CameraEmulator
import DNG
import Foundation
import JPEG
import RawDecoders
import RawImage
import SceneSynthesis
import TestSupport
import Testing

/// The RAF files of the `fuji` personality: LibRaw (rawcap's adapter and rawpy's build) identifies the X-T2 and
/// returns exactly the rendered X-Trans samples of the active area.
@Suite(.serialized) struct RAFWriterTests {
    static func frame(width: Int = 100, height: Int = 76) throws -> RawFrame {
        var scene = try SyntheticScene(width: width, height: height, cfa: .xTrans, bitsPerSample: 14)
        scene.identity = CaptureMetadata(make: "FUJIFILM", model: "X-T2", lensModel: "XF35mmF1.4 R")
        let exposure = try ExposureSettings(
            exposureTime: try #require(Rational(1, 250)), fNumber: 4, iso: 200,
            exposureBias: try #require(Rational(0, 1)))
        return try scene.render(exposure: exposure, seed: 5, captureTime: nil)
    }

    static func preview() throws -> [UInt8] {
        let image = try Self.frame().renderRGB8(RenderOptions(longSide: 32))
        return try JPEGImage(encoding: image, quality: 80).bytes
    }

    @Test func libRawDecodesTheRenderedXTransSamples() throws {
        let frame = try Self.frame()
        let bytes = try RAFWriter.encode(frame, preview: try Self.preview(), software: "test")
        #expect(Array(bytes.prefix(16)) == Array("FUJIFILMCCD-RAW ".utf8))
        let result = try #require(try RawDecoder.decode(bytes[...]).frame)
        #expect(try RawDecoder.decode(bytes[...]).info.container.description == "Fujifilm RAF")
        #expect(result.width == frame.activeArea.width && result.height == frame.activeArea.height)
        let area = frame.activeArea
        let expected = (area.y..<area.bottom).flatMap { row in
            frame.samples[(row * frame.width + area.x)..<(row * frame.width + area.right)]
        }
        #expect(result.samples == expected)
        #expect(result.cfa == frame.cfa)
        #expect(result.metadata.make == "Fujifilm" && result.metadata.model == "X-T2")
        #expect(result.blackLevels.allSatisfy { $0 == frame.blackLevels[0] })
        #expect(result.metadata.iso == 200)
        // The embedded preview comes back as the camera's thumbnail.
        #expect(try RawDecoder.embeddedPreview(bytes[...]) != nil)
    }

    @Test func rawpyReadsTheSameSamplesAndPattern() async throws {
        let python = try ExternalTool.requirePython(modules: ["rawpy", "numpy"])
        let directory = try TemporaryDirectory("raf-rawpy")
        let frame = try Self.frame()
        let file = directory.url.appendingPathComponent("DSCF0001.RAF")
        try Data(try RAFWriter.encode(frame, preview: try Self.preview(), software: "test")).write(to: file)
        let area = frame.activeArea
        let expected = (area.y..<area.bottom).flatMap { row in
            frame.samples[(row * frame.width + area.x)..<(row * frame.width + area.right)]
        }
        let samples = directory.url.appendingPathComponent("expected.u16")
        try expected.withUnsafeBytes { try Data($0).write(to: samples) }
        let pattern = frame.cfa.colors.map { String($0.rawValue) }.joined()
        let script = """
            import sys, rawpy, numpy as np
            r = rawpy.imread(sys.argv[1])
            want = np.fromfile(sys.argv[2], dtype='<u2').reshape(r.raw_image.shape)
            pattern = "".join(str(int(v) if v != 3 else 1) for v in r.raw_pattern.reshape(-1))
            print("equal" if np.array_equal(r.raw_image, want) else "different",
                  r.black_level_per_channel[0], pattern == sys.argv[3])
            """
        let result = try await Subprocess.runDetached(python, ["-c", script, file.path, samples.path, pattern])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == "equal 512 True")
    }

    @Test func aBayerFrameOrAMissingPreviewIsRefused() throws {
        let scene = try SyntheticScene(width: 36, height: 36, cfa: .rggb, bitsPerSample: 14)
        let bayer = try scene.render(exposure: .standard, seed: 1, captureTime: nil)
        #expect(throws: EmulatorError.self) { try RAFWriter.encode(bayer, preview: try Self.preview(), software: "t") }
        #expect(throws: EmulatorError.self) {
            try RAFWriter.encode(try Self.frame(), preview: [1, 2, 3], software: "t")
        }
    }
}
