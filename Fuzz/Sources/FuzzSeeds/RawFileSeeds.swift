import CameraEmulator
import DNG
import Foundation
import JPEG
import RawImage
import SceneSynthesis

/// Seeds for `FuzzRawFile`: small DNGs from rawcap's writer (every Bayer layout and X-Trans, 8…16 bits, both
/// compressions, with and without previews, a linear and a companded LinearRaw DNG), TIFF/EP files as the
/// emulated camera stores them, and the emulated bodies' uncompressed NEF, ARW and RAF (the same as FuzzLibRaw's).
enum RawFileSeeds {
    static func files() throws -> [(String, [UInt8])] {
        var seeds: [(String, [UInt8])] = []
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rawcap-seeds-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cases: [(CFAPattern, Int, DNGOptions.Compression, Bool)] = [
            (.rggb, 14, .none, false), (.bggr, 12, .lossless, false), (.grbg, 16, .lossless, true),
            (.gbrg, 8, .none, false), (.xTrans, 12, .lossless, false), (.rggb, 10, .lossless, false),
        ]
        for (index, (cfa, bits, compression, withPreview)) in cases.enumerated() {
            let frame = try SyntheticScene(width: 48, height: 36, cfa: cfa, bitsPerSample: bits).render(
                seed: UInt64(index))
            let previews = withPreview ? try DNGPreviews.render(from: frame) : try bareThumbnail()
            let plan = try DNGEncoder(options: DNGOptions(compression: compression, tileSize: 16, threadCount: 1))
                .plan(for: frame, previews: previews)
            seeds.append(("dng-\(index)-\(cfa)-\(bits)-\(compression)", try write(plan, in: folder, index)))
            seeds.append(("tiffep-\(index)-\(cfa)-\(bits)", try TIFFEPWriter.encode(frame, software: "seed")))
        }
        let frame = try SyntheticScene(width: 40, height: 30, cfa: .rggb, bitsPerSample: 14).render(seed: 9)
        for (name, encoding) in [("linear16", LinearImage.Encoding.linear16), ("companded12", .companded12)] {
            let image = try LinearImage(demosaicing: frame, encoding: encoding)
            let plan = try DNGEncoder(options: DNGOptions(compression: .lossless, tileSize: 16, threadCount: 1))
                .plan(for: image, previews: try bareThumbnail())
            seeds.append(("dng-\(name)", try write(plan, in: folder, seeds.count)))
        }
        // The uncompressed NEF, ARW and RAF that rawcap's in-place readers take (RawDecoder.vendorSamplesInPlace).
        seeds += try vendorFiles().filter { [".nef", ".arw", ".raf"].contains(where: $0.0.hasSuffix) }
        return seeds
    }

    /// Seeds for `FuzzLibRaw`: the vendor raws the emulated bodies write (NEF, CR2, ARW, RAF), small, plus a
    /// TIFF/EP file; the hostile inputs that once crashed or hung LibRaw are copied in from FuzzRawFile's corpus.
    static func vendorFiles() throws -> [(String, [UInt8])] {
        func frame(_ cfa: CFAPattern, _ make: String, _ model: String) throws -> RawFrame {
            var scene = try SyntheticScene(width: 96, height: 64, cfa: cfa, bitsPerSample: 14)
            scene.identity = CaptureMetadata(make: make, model: model, serialNumber: "0123")
            return try scene.render(seed: 5)
        }
        let fuji = try frame(.xTrans, "FUJIFILM", "X-T2")
        let preview = try JPEGImage(encoding: try fuji.renderRGB8(RenderOptions(longSide: 32)), quality: 80).bytes
        return [
            ("vendor-nikon.nef", try NEFWriter.encode(
                try frame(.rggb, "Nikon Corporation", "D850"), model: CameraModel.nikonTIFFModel, software: "Ver.1.10")),
            ("vendor-canon.cr2", try CR2Writer.encode(
                try frame(.rggb, "Canon Inc.", "Canon EOS 5D Mark IV"), model: CameraModel.canonTIFFModel)),
            ("vendor-sony.arw", try ARWWriter.encode(
                try frame(.rggb, "Sony Corporation", "ILCE-7M3"), software: "ILCE-7M3 v3.01")),
            ("vendor-fuji.raf", try RAFWriter.encode(fuji, preview: preview, software: "seed")),
            ("vendor-generic.tif", try TIFFEPWriter.encode(
                try frame(.rggb, "rawcap", "Emulated Camera"), software: "seed")),
        ]
    }

    /// A 4×3 thumbnail and no preview: the smallest IFD0 a DNG may have.
    private static func bareThumbnail() throws -> DNGPreviews {
        DNGPreviews(thumbnail: try RGBImage8(width: 4, height: 3, pixels: [UInt8](repeating: 128, count: 36)), preview: nil)
    }

    private static func write(_ plan: DNGPlan, in folder: String, _ index: Int) throws -> [UInt8] {
        let path = "\(folder)/seed-\(index).dng"
        _ = try DNGWriter.write(plan, to: path)
        defer { unlink(path) }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
