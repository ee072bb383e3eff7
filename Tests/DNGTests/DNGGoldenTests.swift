import DNG
import Foundation
import OutputFiles
import RawImage
import TestSupport
import Testing

/// Golden files (STYLE §3.4): the plan as readable text, the file's size and SHA-256, and the SHA-256 of the pixels
/// read back from the file, under `Fixtures/golden/`. Any change to what rawcap writes shows up as a diff to review;
/// re-record with `RAWCAP_RECORD=1 swift test --filter DNGGoldenTests`.
@Suite struct DNGGoldenTests {
    static let folder = ExternalTool.packageRoot.appendingPathComponent("Fixtures/golden")
    static let recording = ProcessInfo.processInfo.environment["RAWCAP_RECORD"] == "1"

    enum Input: Sendable {
        case frame(CFAPattern, bits: Int, DNGOptions.Compression)
        case linear(DNGOptions.Compression)
    }

    static let cases: [(name: String, input: Input)] = [
        ("cfa-rggb-14bit-uncompressed", .frame(.rggb, bits: 14, .none)),
        ("cfa-xtrans-12bit-lossless", .frame(.xTrans, bits: 12, .lossless)),
        ("linear-companded-lossless", .linear(.lossless)),
    ]

    @Test(arguments: cases.map(\.name)) func outputMatchesTheGoldenFile(name: String) throws {
        let input = try #require(Self.cases.first { $0.name == name }?.input)
        let folder = try TemporaryDirectory("dng-golden")
        let path = folder.file("\(name).dng").path
        let plan: DNGPlan
        let planes: Int
        switch input {
        case .frame(let cfa, let bits, let compression):
            let frame = try TestImages.frame(width: 64, height: 48, bitsPerSample: bits, cfa: cfa)
            plan = try DNGEncoder(options: DNGOptions(compression: compression))
                .plan(for: frame, previews: try TestImages.previews(of: frame))
            planes = 1
        case .linear(let compression):
            let image = try LinearTestImages.image(width: 40, height: 30)
            plan = try DNGEncoder(options: DNGOptions(compression: compression))
                .plan(
                    for: image,
                    previews: DNGPreviews(thumbnail: try LinearTestImages.thumbnail(of: image), preview: nil))
            planes = 3
        }
        let written = try DNGWriter.write(plan, to: path)
        let pixels = try RawSampleDecoder.samples(of: try #require(try TIFFReadBack(path: path).raw), planes: planes)
        let pixelBytes = pixels.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let text = """
            # rawcap DNG golden file. Re-record: RAWCAP_RECORD=1 swift test --filter DNGGoldenTests
            \(plan)
            file: \(written.byteCount) bytes, sha256 \(MessageDigest.hex(try MessageDigest.hashFile(.sha256, at: path)))
            pixels read back (\(pixels.count) samples, little-endian): sha256 \(MessageDigest.hex(MessageDigest.hash(.sha256, pixelBytes)))

            """
        let golden = Self.folder.appendingPathComponent("\(name).txt")
        if Self.recording {
            try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: golden)
            return
        }
        let recorded = try #require(
            try? String(contentsOf: golden, encoding: .utf8),
            "no golden file \(golden.path); record with RAWCAP_RECORD=1")
        let firstDifference = zip(recorded.split(separator: "\n"), text.split(separator: "\n")).first { $0 != $1 }
        #expect(
            recorded == text,
            "\(name) differs from its golden file; first differing line: \(firstDifference.map { "\($0.0) → \($0.1)" } ?? "(length)")"
        )
    }

    @Test(arguments: [DNGOptions.Compression.none, .lossless])
    func theSameInputGivesTheSameBytes(compression: DNGOptions.Compression) throws {
        let folder = try TemporaryDirectory("dng-deterministic")
        let frame = try TestImages.frame(width: 300, height: 270, bitsPerSample: 14, cfa: .gbrg)
        let previews = try TestImages.previews(of: frame)
        var digests: [[UInt8]] = []
        for (index, threads) in [1, 2, 5].enumerated() {
            let path = folder.file("\(index).dng").path
            try DNGWriter.write(
                frame, previews: previews, options: DNGOptions(compression: compression, threadCount: threads), to: path
            )
            digests.append(try MessageDigest.hashFile(.sha256, at: path))
        }
        #expect(Set(digests).count == 1)
    }

    /// The writer's fast path computes the digests while writing and patches them in; the result must be the file
    /// the pure plan describes.
    @Test(arguments: [DNGOptions.Compression.none, .lossless])
    func theOverlappedDigestGivesThePlannedFile(compression: DNGOptions.Compression) throws {
        let folder = try TemporaryDirectory("dng-overlap")
        let options = DNGOptions(compression: compression)
        let frame = try TestImages.frame(width: 530, height: 270, bitsPerSample: 12, cfa: .bggr)
        let previews = try TestImages.previews(of: frame)
        try DNGWriter.write(
            try DNGEncoder(options: options).plan(for: frame, previews: previews), to: folder.file("planned.dng").path)
        try DNGWriter.write(frame, previews: previews, options: options, to: folder.file("fast.dng").path)
        let image = try LinearTestImages.image(width: 70, height: 50)
        let linearPreviews = DNGPreviews(thumbnail: try LinearTestImages.thumbnail(of: image), preview: nil)
        try DNGWriter.write(
            try DNGEncoder(options: options).plan(for: image, previews: linearPreviews),
            to: folder.file("planned-linear.dng").path)
        try DNGWriter.write(image, previews: linearPreviews, options: options, to: folder.file("fast-linear.dng").path)
        for name in ["", "-linear"] {
            let planned = try Data(contentsOf: folder.file("planned\(name).dng"))
            let fast = try Data(contentsOf: folder.file("fast\(name).dng"))
            #expect(planned == fast, "\(compression)\(name)")
        }
    }
}
