import CameraEmulator
import Foundation
import RawDecoders
import RawImage
import SceneSynthesis
import TestSupport
import Testing

/// The ARW files of the `sony` personality: LibRaw (rawcap's adapter and rawpy's build) identifies the body and
/// returns exactly the rendered samples of the active area.
@Suite(.serialized) struct ARWWriterTests {
    static func frame(width: Int = 100, height: Int = 68) throws -> RawFrame {
        var scene = try SyntheticScene(width: width, height: height, cfa: .rggb, bitsPerSample: 14)
        scene.identity = CaptureMetadata(make: "Sony Corporation", model: "ILCE-7M3", lensModel: "FE 50mm F1.8")
        let exposure = try ExposureSettings(
            exposureTime: try #require(Rational(1, 125)), fNumber: 5.6, iso: 400,
            exposureBias: try #require(Rational(0, 1)))
        return try scene.render(exposure: exposure, seed: 11, captureTime: nil)
    }

    /// The rendered samples of the active area, row by row.
    static func activeSamples(_ frame: RawFrame) -> [UInt16] {
        let area = frame.activeArea
        return (area.y..<area.bottom).flatMap { row in
            frame.samples[(row * frame.width + area.x)..<(row * frame.width + area.right)]
        }
    }

    @Test func libRawDecodesTheRenderedSamplesWithTheBodysCalibration() throws {
        let frame = try Self.frame()
        let bytes = try ARWWriter.encode(frame, software: "test")
        #expect(RawDecoder.detectFormat(bytes[...]) == .vendor)
        let decoded = try RawDecoder.decode(bytes[...])
        #expect(decoded.info.container.description == "Sony ARW")
        #expect(decoded.info.storage.layout.contains("LibRaw "), "\(decoded.info.storage)")
        let result = try #require(decoded.frame)
        #expect(result.width == frame.activeArea.width && result.height == frame.activeArea.height)
        #expect(result.samples == Self.activeSamples(frame))
        #expect(result.cfa == .rggb)
        #expect(result.metadata.make == "Sony" && result.metadata.model == "ILCE-7M3")
        #expect(result.blackLevels.allSatisfy { $0 == frame.blackLevels[0] })
        #expect(result.metadata.iso == 400)
        // LibRaw's table matrix for the ILCE-7M3 (not the synthetic sensor's): XYZ→camera starts 0.7374.
        #expect(abs(result.color.colorMatrix1.values[0] - 0.7374) < 0.2)
    }

    @Test func rawpyReadsTheSameSamplesAndLevels() async throws {
        let python = try ExternalTool.requirePython(modules: ["rawpy", "numpy"])
        let directory = try TemporaryDirectory("arw-rawpy")
        let frame = try Self.frame()
        let file = directory.url.appendingPathComponent("DSC00001.ARW")
        try Data(try ARWWriter.encode(frame, software: "test")).write(to: file)
        let expected = directory.url.appendingPathComponent("expected.u16")
        try Self.activeSamples(frame).withUnsafeBytes { try Data($0).write(to: expected) }
        let script = """
            import sys, rawpy, numpy as np
            r = rawpy.imread(sys.argv[1])
            want = np.fromfile(sys.argv[2], dtype='<u2').reshape(r.raw_image.shape)
            print("equal" if np.array_equal(r.raw_image, want) else "different",
                  r.black_level_per_channel[0], r.raw_pattern.tolist(), r.color_desc.decode())
            """
        let result = try await Subprocess.runDetached(python, ["-c", script, file.path, expected.path])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == "equal 512 [[0, 1], [3, 2]] RGBG")
    }

    @Test func aNonBayerFrameIsRefused() throws {
        let scene = try SyntheticScene(width: 36, height: 36, cfa: .xTrans, bitsPerSample: 14)
        let frame = try scene.render(exposure: .standard, seed: 1, captureTime: nil)
        #expect(throws: EmulatorError.self) { try ARWWriter.encode(frame, software: "test") }
    }
}
