import CameraEmulator
import Foundation
import RawDecoders
import RawImage
import SceneSynthesis
import TestSupport
import Testing

/// The CR2s the `canon` personality stores: LibRaw decodes exactly the rendered readout, as a Canon EOS 5D Mark IV.
@Suite struct CR2WriterTests {
    static func frame(width: Int = 160, height: Int = 120) throws -> RawFrame {
        var scene = try SyntheticScene(width: width, height: height, cfa: .rggb, bitsPerSample: 14)
        scene.identity = CaptureMetadata(make: "Canon Inc.", model: "Canon EOS 5D Mark IV", serialNumber: "0123")
        let exposure = try ExposureSettings(
            exposureTime: try #require(Rational(1, 125)), fNumber: 5.6, iso: 400, exposureBias: Rational.zero)
        return try scene.render(exposure: exposure, seed: 11, captureTime: nil)
    }

    @Test func libRawDecodesTheRenderedReadoutAsA5DMarkIV() throws {
        let frame = try Self.frame()
        let bytes = try CR2Writer.encode(frame, model: CameraModel.canonTIFFModel)
        #expect(Array(bytes[0..<4]) == [0x49, 0x49, 42, 0])
        #expect(Array(bytes[8..<12]) == [0x43, 0x52, 2, 0], "CR, version 2.0")
        #expect(RawDecoder.detectFormat(bytes[...]) == .vendor)
        let decoded = try #require(try RawDecoder.decode(bytes[...]).frame)
        #expect(try RawDecoder.decode(bytes[...]).info.container.description == "Canon CR2")
        #expect(decoded.width == frame.width && decoded.height == frame.height)
        #expect(decoded.samples == frame.samples, "the lossless JPEG slice holds exactly the readout")
        #expect(decoded.metadata.make == "Canon")
        #expect(decoded.metadata.model == "EOS 5D Mark IV")
        // With ColorData's black levels, LibRaw takes the visible area from SensorInfo.
        #expect(decoded.activeArea == frame.activeArea)
    }

    @Test func rawpyReadsTheSameSamplesAndThe5DMarkIVMatrix() async throws {
        let python = try ExternalTool.requirePython(modules: ["rawpy", "numpy"])
        let folder = try TemporaryDirectory("cr2")
        let frame = try Self.frame()
        let cr2 = folder.file("IMG_0001.CR2")
        try Data(try CR2Writer.encode(frame, model: CameraModel.canonTIFFModel)).write(to: cr2)
        let samples = folder.file("samples.u16")
        try Data(frame.samples.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] }).write(to: samples)
        let script = ExternalTool.packageRoot.appendingPathComponent("Tests/Interop/rawpy_vendor.py").path
        let result = try await Subprocess.runDetached(python, [script, cr2.path, samples.path])
        try #require(result.status == 0, "rawpy_vendor.py: \(result.errorOutput)")
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(json["identical"] as? Bool == true, "\(json)")
        #expect(json["size"] as? [Int] == [frame.width, frame.height])
        let matrix = try #require(json["matrix"] as? [Double])
        #expect(matrix[0] > 0.3 && matrix[0] != 1, "a 5D Mark IV matrix, not identity: \(matrix)")
        let black = Int(frame.blackLevels[0])
        #expect(json["black"] as? [Int] == [black, black, black, black], "ColorData's levels: \(json)")
    }
}

extension CR2WriterTests {
    @Test func colorDataCarriesTheLevelsLibRawReads() throws {
        let frame = try Self.frame()
        let decoded = try #require(
            try RawDecoder.decode(try CR2Writer.encode(frame, model: CameraModel.canonTIFFModel)[...]).frame)
        #expect(decoded.blackLevels.allSatisfy { $0 == frame.blackLevels[0] }, "\(decoded.blackLevels)")
        #expect(decoded.whiteLevel == frame.whiteLevel)
        let neutral = frame.color.asShotNeutral
        #expect(abs(decoded.color.asShotNeutral[0] / decoded.color.asShotNeutral[1] - neutral[0] / neutral[1]) < 0.01)
    }
}
