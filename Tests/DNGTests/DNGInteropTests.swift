import DNG
import Foundation
import RawImage
import TestSupport
import Testing

/// Structure is not enough (DESIGN.md): every file must decode to exactly the samples that went in, in every
/// independent reader on the machine.
///
/// Each run writes one DNG per case into a temporary folder and checks it with libtiff (through a test-only
/// reader) and the project's lossless JPEG decoder, rawpy (LibRaw 0.22) and tifffile (one Python process for all
/// files), dcraw 9.28, and Debian's LibRaw 0.20 tools (`unprocessed_raw`, `raw-identify`, `dcraw_emu`).
@Suite struct DNGInteropTests {
    struct Case: CustomStringConvertible, Sendable {
        let cfa: CFAPattern
        let bitsPerSample: Int
        let width: Int
        let height: Int
        /// Also demosaic with LibRaw (rawpy postprocess, dcraw_emu). LibRaw's X-Trans demosaic needs at least
        /// 512×512 visible pixels, so only the large cases render.
        let render: Bool
        /// One black level for every CFA position (written as BlackLevelRepeatDim 1×1).
        var uniformBlack = false
        /// Non-square pixels (written as DefaultScale).
        var pixelAspectRatio = 1.0

        var name: String {
            "\(cfa.name.replacingOccurrences(of: "-", with: ""))-\(bitsPerSample)bit-\(width)x\(height)"
                + (uniformBlack ? "-oneblack" : "") + (pixelAspectRatio == 1 ? "" : "-aspect\(pixelAspectRatio)")
        }
        var description: String { name }
    }

    /// Every pattern at every bit depth, at an odd size without masked pixels (37×23) and at a size with a masked
    /// border (64×48, active area from (4, 2)); then two larger frames that LibRaw also renders.
    static let cases: [Case] =
        (CFAPattern.bayerPatterns + [.xTrans]).flatMap { cfa in
            [8, 10, 12, 14, 16].flatMap { bits in
                [(37, 23), (64, 48)].map {
                    Case(cfa: cfa, bitsPerSample: bits, width: $0.0, height: $0.1, render: false)
                }
            }
        } + [
            Case(cfa: .rggb, bitsPerSample: 14, width: 300, height: 200, render: true),
            Case(cfa: .xTrans, bitsPerSample: 14, width: 530, height: 524, render: true),
            // A Kodak DC120's shape: 8-bit, one black level, pixels 1.535 times as wide as tall (issue 17); and
            // narrow pixels, as a Nikon D1X's.
            Case(
                cfa: .gbrg, bitsPerSample: 8, width: 64, height: 48, render: false, uniformBlack: true,
                pixelAspectRatio: 1.535),
            Case(
                cfa: .rggb, bitsPerSample: 12, width: 300, height: 200, render: true, uniformBlack: true,
                pixelAspectRatio: 0.5),
        ]

    /// The test frame for `testCase`.
    static func frame(_ testCase: Case, seed: UInt64) throws -> RawFrame {
        var frame = try TestImages.frame(
            width: testCase.width, height: testCase.height, bitsPerSample: testCase.bitsPerSample, cfa: testCase.cfa,
            seed: seed)
        if testCase.uniformBlack {
            frame = try RawFrame(
                width: frame.width, height: frame.height, bitsPerSample: frame.bitsPerSample, samples: frame.samples,
                cfa: frame.cfa, blackLevels: frame.blackLevels.map { _ in frame.blackLevels[0] },
                whiteLevel: frame.whiteLevel, activeArea: frame.activeArea, color: frame.color,
                metadata: frame.metadata)
        }
        frame.pixelAspectRatio = testCase.pixelAspectRatio
        return frame
    }

    static let compressions: [DNGOptions.Compression] = [.none, .lossless]

    @Test(arguments: compressions)
    func everyReaderReturnsExactlyTheSamplesThatWentIn(compression: DNGOptions.Compression) async throws {
        let folder = try TemporaryDirectory("dng-interop-\(compression)")
        let encoder = DNGEncoder(options: DNGOptions(compression: compression))
        var manifest: [[String: Any]] = []
        var written: [(testCase: Case, frame: RawFrame, path: String)] = []

        for (index, testCase) in Self.cases.enumerated() {
            let frame = try Self.frame(testCase, seed: UInt64(index + 1))
            let plan = try encoder.plan(for: frame, previews: try TestImages.previews(of: frame))
            let path = folder.file("\(testCase.name).dng").path
            try DNGWriter.write(plan, to: path)
            written.append((testCase, frame, path))

            // libtiff and the project's own lossless JPEG decoder.
            let readBack = try TIFFReadBack(path: path)
            let raw = try #require(readBack.raw, "\(testCase): no raw IFD")
            #expect(raw.compression == (compression == .none ? 1 : 7), "\(testCase)")
            #expect(compression == .lossless ? raw.isTiled : raw.chunks.count == 1, "\(testCase): one strip or tiles")
            #expect(try RawSampleDecoder.samples(of: raw, planes: 1) == frame.samples, "\(testCase): libtiff")

            let expected = folder.file("\(testCase.name).raw")
            try InteropSupport.writeExpected(frame.samples, to: expected)
            let active = frame.activeArea
            manifest.append([
                "path": path, "expected": expected.path, "height": frame.height, "width": frame.width, "planes": 1,
                "cfa": frame.cfa.colors.map(\.description).joined(), "cfa_size": [frame.cfa.height, frame.cfa.width],
                "active": [active.y, active.x, active.bottom, active.right], "black": frame.blackLevels,
                "white": frame.whiteLevel, "digest_bytes_per_sample": frame.bitsPerSample <= 8 ? 1 : 2,
                "render": testCase.render, "aspect": testCase.pixelAspectRatio,
            ])
        }

        // rawpy (LibRaw 0.22), tifffile, and the independent NewRawImageDigest.
        for (path, failures) in try await InteropSupport.runPythonChecks(manifest, in: folder) {
            #expect(failures.isEmpty, "\(URL(fileURLWithPath: path).lastPathComponent): \(failures)")
        }

        let dcraw = try ExternalTool.require("dcraw")
        let unprocessedRaw = try ExternalTool.require("unprocessed_raw")
        let rawIdentify = try ExternalTool.require("raw-identify")
        let dcrawEmu = try ExternalTool.require("dcraw_emu")
        for (testCase, frame, path) in written {
            // dcraw 9.28: document mode, 16-bit, no flip, no stretching of non-square pixels (-j). It outputs the
            // active area.
            let dcrawResult = try await Subprocess.runDetached(dcraw, ["-D", "-4", "-j", "-t", "0", "-c", path])
            #expect(dcrawResult.status == 0, "\(testCase): dcraw \(dcrawResult.errorOutput)")
            if dcrawResult.status == 0 {
                let image = try InteropSupport.readPGM16(dcrawResult.stdout)
                #expect(image.width == frame.activeArea.width && image.height == frame.activeArea.height, "\(testCase)")
                #expect(image.samples == InteropSupport.crop(frame, frame.activeArea), "\(testCase): dcraw pixels")
            }

            // LibRaw 0.20 (Debian): unprocessed_raw writes the whole raw frame next to the input.
            let unprocessed = try await Subprocess.runDetached(unprocessedRaw, ["-q", path])
            #expect(unprocessed.status == 0, "\(testCase): unprocessed_raw \(unprocessed.errorOutput)")
            let pgm = try InteropSupport.readPGM16(try Data(contentsOf: URL(fileURLWithPath: path + ".pgm")))
            #expect(pgm.samples == frame.samples, "\(testCase): unprocessed_raw pixels")

            let identify = try await Subprocess.runDetached(rawIdentify, ["-v", path])
            #expect(identify.status == 0, "\(testCase): raw-identify")
            if testCase.cfa.isBayer {
                // LibRaw prints the pattern of the visible area's top-left, which is the frame's pattern.
                let line = identify.output.split(separator: "\n").first { $0.hasPrefix("Filter pattern:") }
                #expect(line?.contains(testCase.cfa.name) == true, "\(testCase): \(line ?? "no pattern line")")
            }
            if testCase.render {
                let render = try await Subprocess.runDetached(dcrawEmu, ["-4", "-T", path])
                #expect(
                    render.status == 0 && !render.errorOutput.contains("Cannot"), "\(testCase): \(render.errorOutput)")
                #expect(FileManager.default.fileExists(atPath: path + ".tiff"), "\(testCase): dcraw_emu wrote nothing")
            }
        }
    }
}
