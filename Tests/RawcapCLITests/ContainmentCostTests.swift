import CameraEmulator
import Foundation
import RawDecoders
import RawImage
import SceneSynthesis
import TestSupport
import Testing

/// What containing LibRaw costs per file (docs/containment.md): a 24-megapixel 14-bit NEF from the emulated D850
/// decoded in this process and in the worker, and the worker's start. Prints the figures; runs only when asked:
/// `RAWCAP_MEASURE=1 swift test --skip-build --filter ContainmentCostTests`.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["RAWCAP_MEASURE"] == "1"))
struct ContainmentCostTests {
    static func nef(width: Int, height: Int) throws -> [UInt8] {
        var scene = try SyntheticScene(width: width, height: height, cfa: .rggb, bitsPerSample: 14)
        scene.identity = CaptureMetadata(make: "Nikon Corporation", model: "D850", serialNumber: "3012345")
        let frame = try scene.render(seed: 7, captureTime: nil)
        return try NEFWriter.encode(frame, model: CameraModel.nikonTIFFModel, software: "Ver.1.10")
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    @Test func perFileCost() throws {
        let rawcap = try #require(ChildProcess.builtProduct(named: "rawcap"))
        for (width, height) in [(6048, 4032), (640, 480)] {
            let bytes = try Self.nef(width: width, height: height)
            let rounds = width > 1000 ? 7 : 21
            var here: [Double] = []
            for _ in 0..<rounds {
                let start = ContainedDecoder.now()
                _ = try LibRawDecoder.decode(bytes[...])
                here.append(ContainedDecoder.now() - start)
            }
            let contained = ContainedDecoder(executable: rawcap, arguments: ["decode-worker"])
            defer { contained.stopWorker() }
            var start = ContainedDecoder.now()
            _ = try contained.decode(bytes[...])
            let first = ContainedDecoder.now() - start
            var there: [Double] = []
            for _ in 0..<rounds {
                start = ContainedDecoder.now()
                _ = try contained.decode(bytes[...])
                there.append(ContainedDecoder.now() - start)
            }
            let (a, b) = (Self.median(here), Self.median(there))
            print(
                String(
                    format:
                        "containment %dx%d NEF (%.1f MB): in process %.1f ms, contained %.1f ms (+%.1f ms, %.0f%%), first file with worker start %.1f ms",
                    width, height, Double(bytes.count) / 1e6, a * 1000, b * 1000, (b - a) * 1000, (b / a - 1) * 100,
                    first * 1000))
        }
    }
}
