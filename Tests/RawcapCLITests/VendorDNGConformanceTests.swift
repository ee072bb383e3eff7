import CameraEmulator
import DNG
import Foundation
import JPEG
import RawDecoders
import RawImage
import SceneSynthesis
import TestSupport
import Testing

/// Issue 17 §2: the DNGs rawcap writes from the emulated bodies' files (NEF, CR2, ARW, RAF, TIFF/EP) meet what
/// Adobe's `dng_validate` asks beyond the specification (rules read in the DNG SDK 1.7 source: at least 1.9 pixels
/// between the default crop and the active area's edges of a CFA image; one BlackLevel with a 1×1 repeat when the
/// levels are equal), and keep exactly the samples LibRaw or rawcap's reader decoded.
@Suite struct VendorDNGConformanceTests {
    static func frame(cfa: CFAPattern, make: String, model: String) throws -> RawFrame {
        var scene = try SyntheticScene(width: 160, height: 120, cfa: cfa, bitsPerSample: 14)
        scene.identity = CaptureMetadata(make: make, model: model, serialNumber: "0123")
        let exposure = try ExposureSettings(
            exposureTime: try #require(Rational(1, 125)), fNumber: 5.6, iso: 400, exposureBias: Rational.zero)
        return try scene.render(exposure: exposure, seed: 3, captureTime: nil)
    }

    static func files() throws -> [(name: String, bytes: [UInt8])] {
        let nikon = try frame(cfa: .rggb, make: "Nikon Corporation", model: "D850")
        let canon = try frame(cfa: .rggb, make: "Canon Inc.", model: "Canon EOS 5D Mark IV")
        let sony = try frame(cfa: .rggb, make: "Sony Corporation", model: "ILCE-7M3")
        let fuji = try frame(cfa: .xTrans, make: "FUJIFILM", model: "X-T2")
        let generic = try frame(cfa: .rggb, make: "rawcap", model: "Emulated Camera")
        let preview = try JPEGImage(encoding: try fuji.renderRGB8(RenderOptions(longSide: 32)), quality: 80).bytes
        return [
            ("nikon.nef", try NEFWriter.encode(nikon, model: CameraModel.nikonTIFFModel, software: "Ver.1.10")),
            ("canon.cr2", try CR2Writer.encode(canon, model: CameraModel.canonTIFFModel)),
            ("sony.arw", try ARWWriter.encode(sony, software: "ILCE-7M3 v3.01")),
            ("fuji.raf", try RAFWriter.encode(fuji, preview: preview, software: "test")),
            ("generic.tif", try TIFFEPWriter.encode(generic, software: "rawcap emulator")),
        ]
    }

    /// The sides where the crop leaves less than dng_validate's 1.9 pixels (`dng_ifd::IsValidDNG`, kMinPad).
    static func thinPaddingSides(_ frame: RawFrame) -> [String] {
        let (crop, area) = (frame.defaultCrop, frame.activeArea)
        var sides: [String] = []
        if Double(crop.x) < 1.9 { sides.append("left") }
        if Double(crop.y) < 1.9 { sides.append("top") }
        if Double(crop.x + crop.width) > Double(area.width) - 1.9 { sides.append("right") }
        if Double(crop.y + crop.height) > Double(area.height) - 1.9 { sides.append("bottom") }
        return sides
    }

    @Test func everyEmulatedBodysDNGLeavesPaddingAndKeepsItsSamples() throws {
        let folder = try TemporaryDirectory("vendor-dng-conformance")
        for (name, bytes) in try Self.files() {
            let decoded = try #require(try RawDecoder.decode(bytes[...]).frame, "\(name)")
            let path = folder.file(name + ".dng").path
            try DNGWriter.write(
                decoded, previews: try DNGPreviews.render(from: decoded), options: DNGOptions(compression: .lossless),
                to: path)
            let written = try #require(try RawDecoder.decode(contentsOf: path).frame, "\(name)")
            #expect(written.samples == decoded.samples, "\(name)")
            #expect(Self.thinPaddingSides(written).isEmpty, "\(name): crop \(written.defaultCrop) in \(written.activeArea)")
            let plan = try DNGEncoder().plan(for: decoded, previews: try DNGPreviews.render(from: decoded))
            let raw = try #require(plan.rawDirectory)
            if Set(decoded.blackLevels).count == 1 {
                #expect(raw[.blackLevelRepeatDim] == .shorts([1, 1]), "\(name)")
            }
        }
    }
}
