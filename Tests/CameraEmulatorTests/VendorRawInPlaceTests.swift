import CameraEmulator
import DNG
import JPEG
import Foundation
import RawImage
import SceneSynthesis
import TestSupport
import Testing

@testable import RawDecoders

/// The uncompressed NEF, ARW and RAF files the emulated bodies write, read by rawcap's own readers
/// (``RawDecoders/VendorRawLayout``) with LibRaw only identifying the file: the same samples (digest), levels, colour
/// and metadata as LibRaw's whole decode, in this process and through the contained worker; and damaged files give
/// a ``RawDecoders/DecodeError``, never a trap.
@Suite(.serialized) struct VendorRawInPlaceTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let format: String
        let bits: Int
        var testDescription: String { "\(format) \(bits)-bit" }
    }

    static let cases = [
        Case(format: "NEF", bits: 12), Case(format: "NEF", bits: 14), Case(format: "ARW", bits: 12),
        Case(format: "ARW", bits: 14), Case(format: "RAF", bits: 14),
    ]

    static func file(_ testCase: Case, width: Int = 160, height: Int = 120) throws -> [UInt8] {
        let cfa: CFAPattern = testCase.format == "RAF" ? .xTrans : .rggb
        var scene = try SyntheticScene(width: width, height: height, cfa: cfa, bitsPerSample: testCase.bits)
        switch testCase.format {
        case "NEF": scene.identity = CaptureMetadata(make: "Nikon Corporation", model: "D850")
        case "ARW": scene.identity = CaptureMetadata(make: "Sony Corporation", model: "ILCE-7M3")
        default: scene.identity = CaptureMetadata(make: "FUJIFILM", model: "X-T2")
        }
        let exposure = try ExposureSettings(
            exposureTime: try #require(Rational(1, 125)), fNumber: 5.6, iso: 400, exposureBias: Rational.zero)
        let frame = try scene.render(exposure: exposure, seed: 3, captureTime: nil)
        switch testCase.format {
        case "NEF": return try NEFWriter.encode(frame, model: CameraModel.nikonTIFFModel, software: "Ver.1.10")
        case "ARW": return try ARWWriter.encode(frame, software: "ILCE-7M3 v3.01")
        default:
            let preview = try JPEGImage(encoding: try frame.renderRGB8(RenderOptions(longSide: 32)), quality: 80)
            return try RAFWriter.encode(frame, preview: preview.bytes, software: "Digital Camera X-T2 Ver4.30")
        }
    }

    /// FNV-1a (64-bit) of the samples' bytes.
    static func digest(_ samples: [UInt16]) -> UInt64 {
        samples.withUnsafeBytes { bytes in
            bytes.reduce(0xCBF2_9CE4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
        }
    }

    /// Everything but the reader and the layout text is LibRaw's whole decode.
    static func expectSame(_ ours: DecodedRaw, _ libRaw: DecodedRaw, _ label: String) throws {
        let (a, b) = (try #require(ours.frame), try #require(libRaw.frame))
        #expect(digest(a.samples) == digest(b.samples), "\(label): sample digests")
        #expect(a.width == b.width && a.height == b.height && a.bitsPerSample == b.bitsPerSample, "\(label)")
        #expect(a.cfa == b.cfa && a.blackLevels == b.blackLevels && a.whiteLevel == b.whiteLevel, "\(label)")
        #expect(a.activeArea == b.activeArea && a.defaultCrop == b.defaultCrop, "\(label)")
        #expect(a.pixelAspectRatio == b.pixelAspectRatio, "\(label)")
        #expect(a.color == b.color, "\(label)")
        #expect(a.metadata == b.metadata, "\(label)")
        #expect(ours.info.container == libRaw.info.container, "\(label)")
        #expect(ours.info.previews == libRaw.info.previews && ours.info.warnings == libRaw.info.warnings, "\(label)")
        #expect(ours.storedBitsPerSample == libRaw.storedBitsPerSample, "\(label)")
        #expect(ours.info.reader == .rawcap && libRaw.info.reader == .libRaw, "\(label)")
    }

    @Test(arguments: cases)
    func rawcapsReaderGivesLibRawsSamplesAndDescription(_ testCase: Case) throws {
        let bytes = try Self.file(testCase)
        let layout = try #require(VendorRawLayout.find(in: bytes[...]), "\(testCase.format) is read in place")
        #expect(layout.format == testCase.format)
        let ours = try #require(try RawDecoder.decodeInPlace(bytes[...], layout: layout), "LibRaw's loader matches")
        let libRaw = try LibRawDecoder.decode(bytes[...])
        try Self.expectSame(ours, libRaw, testCase.testDescription)
        // The public entry point takes the in-place path.
        #expect(try RawDecoder.decode(bytes[...]).info.reader == .rawcap)
    }

    @Test func theContainedWorkerIdentifiesWithoutTheSamples() throws {
        let rawcap = try #require(ChildProcess.builtProduct(named: "rawcap"), "the rawcap binary was not built")
        let contained = ContainedDecoder(executable: rawcap, arguments: ["decode-worker"])
        defer { contained.stopWorker() }
        let previous = RawDecoder.containedDecoder
        RawDecoder.containedDecoder = contained
        defer { RawDecoder.containedDecoder = previous }
        for testCase in Self.cases {
            let bytes = try Self.file(testCase)
            let layout = try #require(VendorRawLayout.find(in: bytes[...]))
            // The worker is sent the file without its samples and describes it as it does the whole file.
            let identified = try contained.identify(bytes[...], omitting: layout.dataRange)
            let whole = try bytes.withUnsafeBytes { (raw) throws(DecodeError) in try LibRawDecoder.identify(raw) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            #expect(
                try encoder.encode(identified) == encoder.encode(whole), "\(testCase.testDescription)")
            let ours = try RawDecoder.decode(bytes[...])
            try Self.expectSame(ours, try LibRawDecoder.decode(bytes[...]), "contained \(testCase.testDescription)")
        }
        #expect(contained.workersStarted == 1)
    }

    @Test func layoutsRawcapDoesNotReadStayWithLibRaw() throws {
        // CR2 (lossless JPEG) and the TIFF/EP rawcap's TIFF reader takes are not vendor layouts read in place.
        var scene = try SyntheticScene(width: 160, height: 120, cfa: .rggb, bitsPerSample: 14)
        scene.identity = CaptureMetadata(make: "Canon", model: "Canon EOS 5D Mark IV")
        let exposure = try ExposureSettings(
            exposureTime: try #require(Rational(1, 125)), fNumber: 5.6, iso: 400, exposureBias: Rational.zero)
        let frame = try scene.render(exposure: exposure, seed: 3, captureTime: nil)
        let cr2 = try CR2Writer.encode(frame, model: "Canon EOS 5D Mark IV")
        #expect(VendorRawLayout.find(in: cr2[...]) == nil)
        #expect(try RawDecoder.decode(cr2[...]).info.reader == .libRaw)
        // A NEF whose Make is another maker's: not read in place.
        var nef = try Self.file(Case(format: "NEF", bits: 14))
        let make = try #require(Self.range(of: Array("NIKON CORPORATION".utf8), in: nef))
        nef.replaceSubrange(make, with: Array("PENTAX CORPORATE ".utf8))
        #expect(VendorRawLayout.find(in: nef[...]) == nil)
    }

    @Test(arguments: cases)
    func aTruncatedFileIsADecodeError(_ testCase: Case) throws {
        let bytes = try Self.file(testCase)
        let layout = try #require(VendorRawLayout.find(in: bytes[...]))
        for cut in [layout.offset + layout.byteCount / 2, layout.offset + layout.byteCount - 1, layout.offset + 1] {
            let truncated = Array(bytes.prefix(cut))
            do {
                let decoded = try RawDecoder.decode(truncated[...])
                Issue.record("\(testCase.testDescription) cut at \(cut) decoded as \(decoded.info.storage)")
            } catch {
                #expect(error.code == .truncated, "\(testCase.testDescription) cut at \(cut): \(error)")
            }
        }
    }

    @Test func lyingSizesAreADecodeErrorWithoutAHugeAllocation() throws {
        let bytes = try Self.file(Case(format: "ARW", bits: 14))
        let layout = try #require(VendorRawLayout.find(in: bytes[...]))
        // Width, height and byte count of the raw IFD raised together to a 20000×20000 image (800 MB of samples) in a
        // file of a few kilobytes: the strip runs past the end, refused before any sample is decoded.
        var lying = bytes
        try Self.patchLong(&lying, tag: 256, from: UInt32(layout.width), to: 20000)
        try Self.patchLong(&lying, tag: 257, from: UInt32(layout.height), to: 20000)
        try Self.patchLong(&lying, tag: 279, from: UInt32(layout.byteCount), to: 20000 * 20000 * 2)
        let lied = try #require(VendorRawLayout.find(in: lying[...]))
        #expect(lied.width == 20000 && lied.height == 20000)
        var output = [UInt16](repeating: 0, count: 4)
        let wrongSize = try #require(throws: DecodeError.self) {
            try output.withUnsafeMutableBufferPointer { (buffer) throws(DecodeError) in
                _ = try layout.decode(bytes[...], into: buffer)
            }
        }
        #expect(wrongSize.code == .corrupt)
        let error = try #require(throws: DecodeError.self) { try RawDecoder.decode(lying[...]) }
        #expect([.truncated, .tooLarge, .corrupt].contains(error.code), "\(error)")
        // A strip offset past the end.
        var far = bytes
        try Self.patchLong(&far, tag: 273, from: UInt32(layout.offset), to: UInt32.max - 16)
        #expect(throws: DecodeError.self) { try RawDecoder.decode(far[...]) }
    }

    /// Replaces the inline LONG value `from` of the first entry `tag` (little-endian, ARW) with `to`.
    static func patchLong(_ bytes: inout [UInt8], tag: UInt16, from: UInt32, to: UInt32) throws {
        let type: UInt16 = 4
        let needle =
            [UInt8(tag & 0xFF), UInt8(tag >> 8), UInt8(type), 0, 1, 0, 0, 0]
            + withUnsafeBytes(of: from.littleEndian, Array.init)
        let found = try #require(range(of: needle, in: bytes), "entry \(tag) = \(from)")
        bytes.replaceSubrange((found.lowerBound + 8)..<found.upperBound, with: withUnsafeBytes(of: to.littleEndian, Array.init))
    }

    static func range(of needle: [UInt8], in bytes: [UInt8]) -> Range<Int>? {
        guard bytes.count >= needle.count else { return nil }
        for start in 0...(bytes.count - needle.count) where bytes[start..<(start + needle.count)].elementsEqual(needle) {
            return start..<(start + needle.count)
        }
        return nil
    }
}
