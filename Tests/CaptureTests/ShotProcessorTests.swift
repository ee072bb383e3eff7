import CameraEmulator
import DNG
import Foundation
import JPEG
import OutputFiles
import PTP
import RawDecoders
import RawImage
import TestSupport
import Testing

@testable import Capture

/// `ShotProcessor` with `--keep-jpeg`: the camera's JPEG is written and synced while the raw file is encoded, but it
/// appears, and is journaled, only after the raw file; a shot whose raw file fails leaves no JPEG.
@Suite struct ShotProcessorTests {
    private static func processor(_ folder: TemporaryDirectory) throws -> (ShotProcessor, Journal) {
        let journal = try Journal(folder: folder.url.path)
        let processor = ShotProcessor(
            format: ResolvedFormat(product: .bayer, rawBitDepth: 12), keepJPEG: true, options: DNGOptions(),
            namer: try FileNamer(template: "shot{n}"), camera: "Test Camera", serial: "1",
            store: try OutputStore(folder: folder.url.path), journal: journal)
        return (processor, journal)
    }

    private static func shot(raw: [UInt8], jpeg: [UInt8]) -> ShotProcessor.Shot {
        func object(_ handle: UInt32, _ name: String, _ format: ObjectFormatCode) -> AnnouncedObject {
            AnnouncedObject(
                handle: ObjectHandle(rawValue: handle), info: ObjectInfo(objectFormat: format, filename: name))
        }
        return ShotProcessor.Shot(
            frame: 1, index: 1, bracket: nil, date: Date(), sequence: 1,
            raw: (object(1, "IMG_0001.TIF", .tiffEP), raw), jpeg: (object(2, "IMG_0001.JPG", .exifJPEG), jpeg),
            captureSeconds: 0, downloadSeconds: 0, triggered: .now)
    }

    private static func cameraJPEG() throws -> [UInt8] {
        let pixels = (0..<(320 * 240 * 3)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        return try JPEGImage(encoding: try RGBImage8(width: 320, height: 240, pixels: pixels)).bytes
    }

    private static func names(in folder: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    }

    private static func events(in folder: TemporaryDirectory) throws -> [String] {
        let text = try String(contentsOfFile: folder.file(Journal.fileName).path, encoding: .utf8)
        return text.split(separator: "\n").map { line in
            let entry = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return "\(entry?["event"] ?? "?")/\(entry?["kind"] ?? "-")"
        }
    }

    @Test func theJPEGIsSavedAfterTheRawFileByteForByte() throws {
        let folder = try TemporaryDirectory("shot-processor")
        let (processor, _) = try Self.processor(folder)
        let frame = try RawFrame(
            width: 320, height: 240, bitsPerSample: 12,
            samples: (0..<(320 * 240)).map { UInt16(truncatingIfNeeded: $0 &* 31) & 0x0FFF }, cfa: .rggb,
            blackLevels: [0, 0, 0, 0], whiteLevel: 4095)
        let jpeg = try Self.cameraJPEG()
        let saved = try processor.process(Self.shot(raw: try TIFFEPWriter.encode(frame, software: "test"), jpeg: jpeg))
        #expect(saved.map { URL(fileURLWithPath: $0.path).lastPathComponent } == ["shot1.dng", "shot1.jpg"])
        #expect(try Self.names(in: folder) == ["rawcap-journal.jsonl", "shot1.dng", "shot1.jpg"])
        #expect(FileManager.default.contents(atPath: folder.file("shot1.jpg").path) == Data(jpeg))
        #expect(saved.last?.sha256 == MessageDigest.hex(MessageDigest.hash(.sha256, jpeg)))
        #expect(try Self.events(in: folder) == ["file-written/dng", "file-written/jpeg"])
    }

    @Test func aShotWhoseRawFailsLeavesNoJPEG() throws {
        let folder = try TemporaryDirectory("shot-processor-bad")
        let (processor, _) = try Self.processor(folder)
        #expect(throws: CaptureError(.badObject)) {
            try processor.process(Self.shot(raw: [UInt8](repeating: 0x49, count: 4096), jpeg: try Self.cameraJPEG()))
        }
        // Neither the JPEG nor its temporary file, nor a journal: nothing was journaled, so none was created.
        #expect(try Self.names(in: folder) == [])
    }
}

/// What shoot, tether and pull write from a camera's raw object goes through the one export step
/// (`RawExport.Exporter`): a CFA LinearizationTable is applied and a TIFF rendering is upright.
@Suite struct ShotProcessorExportTests {
    private static func processor(_ folder: TemporaryDirectory, _ product: ResolvedFormat.Product) throws
        -> ShotProcessor
    {
        ShotProcessor(
            format: ResolvedFormat(product: product, rawBitDepth: nil), keepJPEG: false,
            options: DNGOptions(compression: .lossless), namer: try FileNamer(template: "shot{n}"),
            camera: "Test Camera", serial: "1", store: try OutputStore(folder: folder.url.path),
            journal: try Journal(folder: folder.url.path))
    }

    private static func shot(raw: [UInt8], name: String) -> ShotProcessor.Shot {
        ShotProcessor.Shot(
            frame: 1, index: 0, bracket: nil, date: Date(), sequence: 1,
            raw: (
                AnnouncedObject(
                    handle: ObjectHandle(rawValue: 1), info: ObjectInfo(objectFormat: .tiffEP, filename: name)),
                raw
            ), jpeg: nil, captureSeconds: 0, downloadSeconds: 0, triggered: .now)
    }

    @Test func aCameraDNGWithALinearizationTableGetsLinearSamples() throws {
        let folder = try TemporaryDirectory("shot-linearization")
        let saved = try Self.processor(folder, .bayer).process(Self.shot(raw: CompandedDNG.bytes(), name: "C.DNG"))
        let path = try #require(saved.first?.path)
        let written = try RawDecoder.decode(try RawDecoder.readFile(path)[...])
        let frame = try #require(written.frame)
        // The DNG carries no table (rawcap writes one for LinearRaw only), so its samples must be the linear values.
        #expect(written.linearizationTable == nil)
        #expect(frame.whiteLevel == Int(CompandedDNG.whiteLevel))
        #expect(frame.samples == CompandedDNG.linearSamples)
        #expect(frame.samples != CompandedDNG.storedSamples.map(UInt16.init))
    }

    @Test func aTIFFRenderingIsWrittenUpright() throws {
        let folder = try TemporaryDirectory("shot-tiff-orientation")
        // The camera held the body turned: Orientation 6, the rendering is turned to display upright.
        let saved = try Self.processor(folder, .tiff)
            .process(Self.shot(raw: CompandedDNG.bytes(orientation: 6), name: "C.DNG"))
        let path = try #require(saved.first?.path)
        #expect(path.hasSuffix(".tif"))
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
        #expect(TIFFIFD0.numbers(274, in: bytes) == [1])
        let (width, height) = (TIFFIFD0.numbers(256, in: bytes)?.first, TIFFIFD0.numbers(257, in: bytes)?.first)
        #expect(try #require(height) > #require(width), "a sensor 64 wide turned a quarter is taller than wide")
    }
}
