import Foundation
import LosslessJPEG
import TestSupport
import Testing

/// Independent implementations agree with ours, sample for sample (STYLE.md §3 "Oracles"):
/// - libjpeg-turbo 3 (the IJG lossless codec, through imagecodecs) decodes our streams, and we decode its streams,
///   for every predictor, 1…4 components and precisions 2…16;
/// - liblj92 and jpegsof3 (through imagecodecs) decode the streams DNG writing produces;
/// - LibRaw (through rawpy) reads a DNG whose raw tiles come from `LJ92TiledEncoder`, in Adobe's 2-component layout.
///
/// Each test needs the project's Python venv (`make deps`); a missing tool fails under CI=true.
@Suite struct LJ92InteropTests {
    /// One stream written for an external decoder, with the samples it must decode to.
    struct Case {
        let name: String
        let stream: [UInt8]
        let samples: [UInt16]
        let decoders: [String]
    }

    /// Runs a program to completion on a Dispatch thread and waits without blocking.
    ///
    /// `Subprocess.run` blocks its thread until the child exits. Called directly from a test it would hold one of the
    /// few threads of Swift's cooperative pool (two on this machine) for seconds, stalling every other test,
    /// including PTP timeout tests that then miss their deadlines.
    static func run(_ executable: String, _ arguments: [String]) async throws -> Subprocess.Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try Subprocess.run(executable, arguments) })
            }
        }
    }

    /// Writes the cases into `directory` with a manifest, runs the Python decoder script, and returns its verdicts:
    /// one "name decoder OK|MISMATCH|ERROR …" line per case and decoder.
    func runExternalDecoders(
        _ cases: [Case], python: String, in directory: TemporaryDirectory
    ) async throws -> [String] {
        var manifest: [[String: Any]] = []
        for item in cases {
            try Data(item.stream).write(to: directory.file("\(item.name).jpg"))
            try Data(item.samples.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }).write(
                to: directory.file("\(item.name).u16"))
            manifest.append(["name": item.name, "decoders": item.decoders])
        }
        try JSONSerialization.data(withJSONObject: manifest).write(to: directory.file("manifest.json"))
        let result = try await Self.run(python, ["-c", Self.decodeScript, directory.url.path])
        #expect(result.status == 0, "\(result.errorOutput)")
        return result.output.split(separator: "\n").map(String.init)
    }

    static let decodeScript = """
        import json, sys
        import numpy as np, imagecodecs
        d = sys.argv[1]
        for case in json.load(open(d + "/manifest.json")):
            data = open(d + "/" + case["name"] + ".jpg", "rb").read()
            expected = np.fromfile(d + "/" + case["name"] + ".u16", dtype="<u2")
            for decoder in case["decoders"]:
                try:
                    got = np.asarray(getattr(imagecodecs, decoder)(data)).astype(np.uint16).reshape(-1)
                    same = got.shape == expected.shape and bool((got == expected).all())
                    print(case["name"], decoder, "OK" if same else "MISMATCH")
                except Exception as error:
                    print(case["name"], decoder, "ERROR", type(error).__name__, str(error).replace("\\n", " "))
        """

    @Test func libjpegTurboDecodesOurStreams() async throws {
        let python = try ExternalTool.requirePython(modules: ["numpy", "imagecodecs"])
        let directory = try TemporaryDirectory("lj92-ours")
        var cases: [Case] = []
        for precision in [2, 5, 8, 9, 12, 14, 16] {
            for components in 1...4 {
                for predictor in LJ92Predictor.allValid {
                    let seed = UInt64(precision * 100 + components * 10 + Int(predictor.rawValue))
                    let smooth = predictor.rawValue % 2 == 1
                    let samples =
                        smooth
                        ? TestData.smooth(
                            width: 13, height: 6, components: components, precision: precision, seed: seed)
                        : TestData.random(count: 13 * 6 * components, precision: precision, seed: seed)
                    let restartRows = predictor.rawValue == 4 ? 2 : 0
                    let encoder = try LJ92Encoder(
                        precision: precision, components: components, predictor: predictor, restartRows: restartRows)
                    cases.append(
                        Case(
                            name: "p\(precision)-c\(components)-s\(predictor.rawValue)",
                            stream: try encoder.encode(samples, width: 13), samples: samples,
                            decoders: ["jpeg8_decode"]))
                }
            }
        }
        let verdicts = try await runExternalDecoders(cases, python: python, in: directory)
        #expect(verdicts.count == cases.count)
        for verdict in verdicts { #expect(verdict.hasSuffix(" OK"), "\(verdict)") }
    }

    /// The DNG case: 12/14/16-bit, predictor 1, one or two components (a CFA tile) and three (LinearRaw).
    @Test func otherDecodersReadDNGStyleStreams() async throws {
        let python = try ExternalTool.requirePython(modules: ["numpy", "imagecodecs"])
        let directory = try TemporaryDirectory("lj92-dng")
        var cases: [Case] = []
        for precision in [12, 14, 16] {
            for components in [1, 2] {
                let samples = TestData.smooth(
                    width: 32, height: 16, components: components, precision: precision, seed: 9)
                let encoder = try LJ92Encoder(precision: precision, components: components)
                cases.append(
                    Case(
                        name: "dng-p\(precision)-c\(components)", stream: try encoder.encode(samples, width: 32),
                        samples: samples, decoders: ["jpeg8_decode", "ljpeg_decode", "jpegsof3_decode"]))
            }
        }
        let verdicts = try await runExternalDecoders(cases, python: python, in: directory)
        #expect(verdicts.count == cases.count * 3)
        for verdict in verdicts { #expect(verdict.hasSuffix(" OK"), "\(verdict)") }
    }

    @Test func weDecodeLibjpegTurboStreams() async throws {
        let python = try ExternalTool.requirePython(modules: ["numpy", "imagecodecs"])
        let directory = try TemporaryDirectory("lj92-turbo")
        let script = """
            import sys
            import numpy as np, imagecodecs
            d = sys.argv[1]
            rng = np.random.default_rng(7)
            for precision in (2, 4, 8, 9, 12, 14, 16):
                for components in (1, 2, 3, 4):
                    for predictor in range(1, 8):
                        shape = (7, 11, components) if components > 1 else (7, 11)
                        if predictor % 2:
                            y, x = np.mgrid[0:7, 0:11]
                            base = (x * 37 + y * 53) % (1 << precision)
                            if components > 1:
                                base = np.stack([base] * components, axis=-1)
                            data = (base + rng.integers(0, 3, size=shape)) % (1 << precision)
                        else:
                            data = rng.integers(0, 1 << precision, size=shape)
                        data = data.astype(np.uint8 if precision <= 8 else np.uint16)
                        stream = imagecodecs.jpeg8_encode(
                            data, lossless=True, predictor=predictor, bitspersample=precision)
                        name = f"t{precision}-{components}-{predictor}"
                        open(f"{d}/{name}.jpg", "wb").write(stream)
                        data.astype("<u2").tofile(f"{d}/{name}.u16")
                        print(name)
            """
        let result = try await Self.run(python, ["-c", script, directory.url.path])
        try #require(result.status == 0, "\(result.errorOutput)")
        let names = result.output.split(separator: "\n").map(String.init)
        #expect(names.count == 7 * 4 * 7)
        for name in names {
            let stream = [UInt8](try Data(contentsOf: directory.file("\(name).jpg")))
            let raw = [UInt8](try Data(contentsOf: directory.file("\(name).u16")))
            let expected = stride(from: 0, to: raw.count, by: 2).map { UInt16(raw[$0]) | UInt16(raw[$0 + 1]) << 8 }
            let image = try LJ92Decoder.decode(stream)
            #expect(image.samples == expected, "\(name)")
        }
    }

    /// LibRaw decodes a CFA DNG whose raw data is our tiles: 256 × 256 tiles of a 600 × 400 14-bit frame (so the
    /// right and bottom tiles are padded), each a 128 × 256 × 2-component stream with predictor 1.
    @Test func libRawReadsADNGOfOurTiles() async throws {
        let python = try ExternalTool.requirePython(modules: ["numpy", "rawpy", "tifffile"])
        let directory = try TemporaryDirectory("lj92-dng-tiles")
        let width = 600
        let height = 400
        let plane = TestData.smooth(width: width, height: height, components: 1, precision: 14, seed: 31)
        let tiler = try LJ92TiledEncoder(tileWidth: 256, tileHeight: 256, samplesPerPixel: 1, precision: 14)
        let tiles = try tiler.encode(plane, width: width, height: height)
        for (index, tile) in tiles.enumerated() { try Data(tile).write(to: directory.file("tile\(index).jpg")) }
        try Data(plane.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }).write(to: directory.file("plane.u16"))
        let script = """
            import sys
            import numpy as np, rawpy, tifffile
            d, width, height, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
            tiles = [open(f"{d}/tile{i}.jpg", "rb").read() for i in range(count)]
            identity = (1, 1, 0, 1, 0, 1, 0, 1, 1, 1, 0, 1, 0, 1, 0, 1, 1, 1)
            tags = [
                (271, "s", 0, "rawcap", True),                        # Make
                (50706, "B", 4, (1, 4, 0, 0), True),                  # DNGVersion
                (50707, "B", 4, (1, 1, 0, 0), True),                  # DNGBackwardVersion
                (50708, "s", 0, "rawcap LJ92 test", True),            # UniqueCameraModel
                (33421, "H", 2, (2, 2), True),                        # CFARepeatPatternDim
                (33422, "B", 4, (0, 1, 1, 2), True),                  # CFAPattern RGGB
                (50717, "I", 1, (16383,), True),                      # WhiteLevel
                (50721, "2i", 9, identity, True),                     # ColorMatrix1
            ]
            with tifffile.TiffWriter(f"{d}/tiles.dng") as writer:
                writer.write(iter(tiles), shape=(height, width), dtype="uint16", photometric=32803,
                             compression=7, tile=(256, 256), subfiletype=0, extratags=tags)
            raw = rawpy.imread(f"{d}/tiles.dng").raw_image.copy()
            expected = np.fromfile(f"{d}/plane.u16", dtype="<u2").reshape(height, width)
            print("shape", raw.shape, "equal", bool(raw.shape == expected.shape and (raw == expected).all()))
            """
        let result = try await Self.run(
            python, ["-c", script, directory.url.path, "\(width)", "\(height)", "\(tiles.count)"])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.contains("shape (400, 600) equal True"), "\(result.output)")
    }
}
