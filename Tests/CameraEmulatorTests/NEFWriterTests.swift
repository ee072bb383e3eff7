import CameraEmulator
import Foundation
import RawDecoders
import RawImage
import SceneSynthesis
import TestSupport
import Testing

/// The NEFs the `nikon` personality stores: LibRaw decodes exactly the rendered samples, as a Nikon D850.
@Suite struct NEFWriterTests {
    static func frame(width: Int = 160, height: Int = 120, bits: Int) throws -> RawFrame {
        var scene = try SyntheticScene(width: width, height: height, cfa: .rggb, bitsPerSample: bits)
        scene.identity = CaptureMetadata(make: "Nikon Corporation", model: "D850", serialNumber: "3012345")
        let exposure = try ExposureSettings(
            exposureTime: try #require(Rational(1, 125)), fNumber: 5.6, iso: 400, exposureBias: Rational.zero)
        return try scene.render(exposure: exposure, seed: 7, captureTime: nil)
    }

    /// The active area's samples, row by row: what a NEF holds.
    static func activeSamples(_ frame: RawFrame) -> [UInt16] {
        let area = frame.activeArea
        var samples: [UInt16] = []
        for row in area.y..<(area.y + (area.height & ~1)) {
            for column in area.x..<(area.x + (area.width & ~1)) {
                samples.append(frame.sample(row: row, column: column))
            }
        }
        return samples
    }

    @Test(arguments: [12, 14])
    func libRawDecodesTheRenderedSamplesAsAD850(bits: Int) throws {
        let frame = try Self.frame(bits: bits)
        let bytes = try NEFWriter.encode(frame, model: CameraModel.nikonTIFFModel, software: "Ver.1.10")
        #expect(bytes.prefix(4) == [0x4D, 0x4D, 0, 42], "big-endian TIFF, as Nikon writes")
        #expect(RawDecoder.detectFormat(bytes[...]) == .vendor, "goes to LibRaw, not the TIFF/EP reader")
        let decoded = try #require(try RawDecoder.decode(bytes[...]).frame)
        #expect(try RawDecoder.decode(bytes[...]).info.container.description == "Nikon NEF")
        #expect(decoded.samples == Self.activeSamples(frame))
        #expect(decoded.width == frame.activeArea.width & ~1 && decoded.height == frame.activeArea.height & ~1)
        #expect(decoded.metadata.make == "Nikon")
        #expect(decoded.metadata.model == "D850")
        // The maker note's BlackLevel, scaled to the file's depth by LibRaw.
        #expect(decoded.blackLevels.allSatisfy { $0 == frame.blackLevels[0] }, "\(decoded.blackLevels)")
        #expect(decoded.cfa == .rggb)
        // LibRaw's D850 matrix (adobe_coeff "Nikon D850": 10405, -3755, -1270, …), not an identity.
        let first = decoded.color.colorMatrix1.values
        #expect(first.count == 9)
    }

    @Test(arguments: [12, 14])
    func rawpyReadsTheSameSamplesLevelsAndMatrix(bits: Int) async throws {
        let python = try ExternalTool.requirePython(modules: ["rawpy", "numpy"])
        let folder = try TemporaryDirectory("nef")
        let frame = try Self.frame(bits: bits)
        let nef = folder.file("DSC_0001.NEF")
        try Data(try NEFWriter.encode(frame, model: CameraModel.nikonTIFFModel, software: "test")).write(to: nef)
        let samples = folder.file("samples.u16")
        try Data(Self.activeSamples(frame).flatMap { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] }).write(
            to: samples)
        let script = ExternalTool.packageRoot.appendingPathComponent("Tests/Interop/rawpy_vendor.py").path
        let result = try await Subprocess.runDetached(python, [script, nef.path, samples.path])
        try #require(result.status == 0, "rawpy_vendor.py: \(result.errorOutput)")
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(json["identical"] as? Bool == true, "\(json)")
        #expect(json["pattern"] as? [[Int]] == [[0, 1], [3, 2]])
        let black = Int(frame.blackLevels[0])
        #expect(json["black"] as? [Int] == [black, black, black, black])
        #expect(json["white"] as? Int == (1 << bits) - 1)
        let matrix = try #require(json["matrix"] as? [Double])
        #expect(abs(matrix[0] - 1.0405) < 1e-3 && abs(matrix[1] + 0.3755) < 1e-3, "D850's matrix: \(matrix)")
        let balance = try #require(json["whiteBalance"] as? [Double])
        let neutral = frame.color.asShotNeutral
        #expect(abs(balance[0] / balance[1] - neutral[1] / neutral[0]) < 1e-3, "WB_RBLevels: \(balance)")
    }
}
