import CLibTIFF
import DNG
import Foundation
import RawImage
import TestSupport
import Testing

/// The RGB TIFF writer: every combination of depth and compression decodes to exactly the samples that went in,
/// through libtiff (in process and `tiffinfo`) and tifffile; sizes a classic TIFF cannot hold are refused up front.
@Suite(.serialized) struct RGBTIFFWriterTests {
    static let combinations: [(bits: Int, compression: RGBTIFFWriter.Options.Compression)] = [
        (16, .none), (16, .deflate), (8, .none), (8, .deflate),
    ]

    /// A 61×37 image whose samples cover the whole 16-bit range with no pattern a codec could exploit.
    static func image(width: Int = 61, height: Int = 37) throws -> RGBImage16 {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let pixels = (0..<width * height * 3).map { _ -> UInt16 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt16(truncatingIfNeeded: state >> 33)
        }
        return try RGBImage16(width: width, height: height, pixels: pixels)
    }

    static let metadata: CaptureMetadata = {
        var metadata = CaptureMetadata(
            make: "rawcap", model: "Test Body", exposureTime: Rational(1, 250), fNumber: 5.6, iso: 400,
            focalLength: 35)
        metadata.captureTime = try? CaptureTime(year: 2026, month: 11, day: 22, hour: 6, minute: 30, second: 5)
        metadata.orientation = .rotate90
        return metadata
    }()

    /// What the writer must store for a 16-bit sample at `bits` bits.
    static func expected(_ image: RGBImage16, bits: Int) -> [UInt16] {
        bits == 16 ? image.pixels : image.pixels.map { UInt16((UInt32($0) + 128) / 257) }
    }

    /// Decodes every strip with libtiff (`TIFFReadEncodedStrip` undoes Deflate and the predictor).
    static func libtiffSamples(_ path: String) throws -> (width: Int, height: Int, bits: Int, samples: [UInt16]) {
        guard let tif = TIFFOpen(path, "r") else { throw TestFailure("TIFFOpen(\(path)) failed") }
        defer { TIFFClose(tif) }
        var width: UInt32 = 0
        var height: UInt32 = 0
        var bits: UInt16 = 0
        guard rc_tiff_get_u32(tif, UInt32(TIFFTAG_IMAGEWIDTH), &width) == 1,
            rc_tiff_get_u32(tif, UInt32(TIFFTAG_IMAGELENGTH), &height) == 1,
            rc_tiff_get_u16(tif, UInt32(TIFFTAG_BITSPERSAMPLE), &bits) == 1
        else { throw TestFailure("size tags missing") }
        var bytes: [UInt8] = []
        for strip in 0..<TIFFNumberOfStrips(tif) {
            var buffer = [UInt8](repeating: 0, count: Int(TIFFStripSize(tif)))
            let read = buffer.withUnsafeMutableBytes {
                TIFFReadEncodedStrip(tif, strip, $0.baseAddress, tmsize_t($0.count))
            }
            guard read > 0 else { throw TestFailure("strip \(strip) did not decode") }
            bytes += buffer.prefix(Int(read))
        }
        let samples: [UInt16] =
            bits == 8
            ? bytes.map(UInt16.init)
            : stride(from: 0, to: bytes.count - 1, by: 2).map { UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8 }
        return (Int(width), Int(height), Int(bits), samples)
    }

    @Test(arguments: 0..<4)
    func libtiffDecodesExactlyThePixelsWritten(combination: Int) async throws {
        let (bits, compression) = Self.combinations[combination]
        let folder = try TemporaryDirectory("rgbtiff")
        let path = folder.file("out.tif").path
        let image = try Self.image()
        let result = try RGBTIFFWriter.write(
            image, metadata: Self.metadata,
            options: RGBTIFFWriter.Options(bitsPerSample: bits, compression: compression), to: path)
        #expect(result.warnings.isEmpty)
        #expect(try folder.contents() == ["out.tif"])  // no temporary file left behind

        let decoded = try Self.libtiffSamples(path)
        #expect(decoded.width == 61 && decoded.height == 37 && decoded.bits == bits)
        #expect(decoded.samples == Self.expected(image, bits: bits))

        let info = try await Subprocess.runDetached(try ExternalTool.require("tiffinfo"), [path])
        #expect(info.status == 0, "\(info.errorOutput)")
        #expect(info.output.contains("Bits/Sample: \(bits)"))
        #expect(info.output.contains("Samples/Pixel: 3"))
        #expect(info.output.contains("Photometric Interpretation: RGB color"))
        #expect(info.output.contains(compression == .deflate ? "AdobeDeflate" : "Compression Scheme: None"))
        #expect(info.output.contains("Make: rawcap") && info.output.contains("Model: Test Body"))
        #expect(info.output.contains("DateTime: 2026:11:22 06:30:05"))
        #expect(info.output.contains("Orientation: row 0 rhs, col 0 top"))
        #expect(info.errorOutput.isEmpty, "tiffinfo warned: \(info.errorOutput)")
    }

    @Test func exifExposureFieldsAreExactFractions() async throws {
        let exiftool = try ExternalTool.require("exiftool")
        let folder = try TemporaryDirectory("rgbtiff-exif")
        let path = folder.file("out.tif").path
        try RGBTIFFWriter.write(try Self.image(), metadata: Self.metadata, to: path)
        let result = try await Subprocess.runDetached(
            exiftool,
            [
                "-s", "-n", "-ExposureTime", "-FNumber", "-ISO", "-FocalLength", "-DateTimeOriginal", "-XResolution",
                path,
            ])
        #expect(result.status == 0)
        let lines = Set(
            result.output.split(separator: "\n").map { $0.split(separator: " ").filter { !$0.isEmpty } }
                .map { $0.joined(separator: " ") })
        #expect(lines.contains("ExposureTime : 0.004"))
        #expect(lines.contains("FNumber : 5.6"))
        #expect(lines.contains("ISO : 400"))
        #expect(lines.contains("FocalLength : 35"))
        #expect(lines.contains("DateTimeOriginal : 2026:11:22 06:30:05"))
        #expect(lines.contains("XResolution : 72"))

        let validate = try await Subprocess.runDetached(exiftool, ["-validate", "-warning", "-a", "-s", path])
        let verdict = validate.output.split(separator: " ").filter { !$0.isEmpty }.joined(separator: " ")
        #expect(verdict == "Validate : OK\n", "\(validate.output)")
    }

    @Test func tifffileReadsTheSamePixels() async throws {
        let python = try ExternalTool.requirePython(modules: ["tifffile", "numpy", "imagecodecs"])
        let folder = try TemporaryDirectory("rgbtiff-tifffile")
        let image = try Self.image()
        var paths: [String] = []
        for (index, (bits, compression)) in Self.combinations.enumerated() {
            let path = folder.file("\(index).tif").path
            try RGBTIFFWriter.write(
                image, metadata: Self.metadata,
                options: RGBTIFFWriter.Options(bitsPerSample: bits, compression: compression), to: path)
            paths.append(path)
        }
        // tifffile prints each file's samples as one line of integers, row-major, interleaved.
        let script = """
            import sys, tifffile
            for path in sys.argv[1:]:
                a = tifffile.imread(path)
                print(a.dtype, *a.shape, " ".join(map(str, a.reshape(-1).tolist())))
            """
        let result = try await Subprocess.runDetached(python, ["-c", script] + paths)
        #expect(result.status == 0, "\(result.errorOutput)")
        let lines = result.output.split(separator: "\n")
        try #require(lines.count == paths.count)
        for (line, (bits, _)) in zip(lines, Self.combinations) {
            let fields = line.split(separator: " ")
            #expect(fields.prefix(4) == [bits == 8 ? "uint8" : "uint16", "37", "61", "3"])
            #expect(fields.dropFirst(4).compactMap { UInt16($0) } == Self.expected(image, bits: bits))
        }
    }

    @Test func hostileSizesAreTypedErrorsBeforeAnyPixelIsTouched() throws {
        let metadata = CaptureMetadata()
        #expect(throws: DNGError(.doesNotFit)) { try RGBTIFFWriter.plan(width: 0, height: 10, metadata: metadata) }
        #expect(throws: DNGError(.doesNotFit)) { try RGBTIFFWriter.plan(width: -4, height: 10, metadata: metadata) }
        #expect(throws: DNGError(.doesNotFit)) {
            try RGBTIFFWriter.plan(width: 70_000, height: 10, metadata: metadata)
        }
        // 40000 × 40000 × 3 × 2 bytes is 9.6 GB: beyond 32-bit offsets.
        #expect(throws: DNGError(.doesNotFit)) {
            try RGBTIFFWriter.plan(width: 40_000, height: 40_000, metadata: metadata)
        }
        // The same size at 8 bits (4.8 GB) is still too large; 30000 × 30000 × 3 bytes (2.7 GB) fits.
        #expect(throws: DNGError(.doesNotFit)) {
            try RGBTIFFWriter.plan(
                width: 40_000, height: 40_000, metadata: metadata, options: RGBTIFFWriter.Options(bitsPerSample: 8))
        }
        _ = try RGBTIFFWriter.plan(
            width: 30_000, height: 30_000, metadata: metadata, options: RGBTIFFWriter.Options(bitsPerSample: 8))
        #expect(throws: DNGError(.unsupportedBitDepth)) {
            try RGBTIFFWriter.plan(
                width: 10, height: 10, metadata: metadata, options: RGBTIFFWriter.Options(bitsPerSample: 12))
        }
        var badISO = metadata
        badISO.iso = 0
        #expect(throws: DNGError(.invalidInput)) { try RGBTIFFWriter.plan(width: 10, height: 10, metadata: badISO) }
    }

    @Test func neverOverwritesAndLeavesNothingOnFailure() throws {
        let folder = try TemporaryDirectory("rgbtiff-exists")
        let path = folder.file("out.tif").path
        try Data("keep".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: DNGError(.fileExists)) {
            try RGBTIFFWriter.write(try Self.image(), metadata: CaptureMetadata(), to: path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("keep".utf8))
        #expect(try folder.contents() == ["out.tif"])
        #expect(throws: DNGError(.folderNotFound)) {
            try RGBTIFFWriter.write(try Self.image(), metadata: CaptureMetadata(), to: folder.file("no/out.tif").path)
        }
    }

    @Test func deflateMakesASmoothRenderingSmaller() throws {
        let folder = try TemporaryDirectory("rgbtiff-size")
        let width = 256
        let height = 128
        let pixels = (0..<width * height * 3).map { UInt16(($0 / 3 % width) * 256) }
        let image = try RGBImage16(width: width, height: height, pixels: pixels)
        let plain = try RGBTIFFWriter.write(image, metadata: CaptureMetadata(), to: folder.file("a.tif").path)
        let deflated = try RGBTIFFWriter.write(
            image, metadata: CaptureMetadata(), options: RGBTIFFWriter.Options(compression: .deflate),
            to: folder.file("b.tif").path)
        #expect(plain.byteCount > width * height * 6)
        #expect(deflated.byteCount * 10 < plain.byteCount)
        #expect(try Self.libtiffSamples(folder.file("b.tif").path).samples == pixels)
    }
}
