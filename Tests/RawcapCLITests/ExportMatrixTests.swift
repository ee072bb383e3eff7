import CameraEmulator
import Capture
import DNG
import Foundation
import PTP
import RawDecoders
import RawExport
import RawImage
import TestSupport
import Testing

@testable import RawcapCLI

/// One raw becomes the same file whichever command writes it: every product (CFA DNG, linear DNG, TIFF) from every
/// source kind, written once as a camera's shot (`ShotProcessor`: shoot, tether, pull) and once as a file
/// (`Converter`: convert), byte for byte the same, with the fixes both share (linear samples for a companded DNG, an
/// upright TIFF, one Software tag).
@Suite struct ExportMatrixTests {
    enum Source: String, CaseIterable, Sendable {
        /// rawcap's emulator's TIFF/EP, 12-bit, the body held turned (Orientation 8).
        case tiffEP
        /// A DNG with a LinearizationTable, Orientation 6.
        case compandedDNG

        var bytes: [UInt8] {
            get throws {
                switch self {
                case .compandedDNG:
                    return CompandedDNG.bytes(orientation: 6)
                case .tiffEP:
                    let (width, height) = (96, 64)
                    let samples = (0..<(width * height)).map { index in
                        UInt16((index % width) * 40 + (index / width) * 3 + (index * 7) % 13) & 0x0FFF
                    }
                    let frame = try RawFrame(
                        width: width, height: height, bitsPerSample: 12, samples: samples, cfa: .rggb,
                        blackLevels: [64, 64, 64, 64], whiteLevel: 4095,
                        metadata: CaptureMetadata(make: "Matrix", model: "Body", iso: 200, orientation: .rotate270))
                    return try TIFFEPWriter.encode(frame, software: "matrix")
                }
            }
        }

        var fileName: String { self == .tiffEP ? "IMG_0001.TIF" : "IMG_0001.DNG" }
    }

    enum Product: String, CaseIterable, Sendable {
        case dng, linear, tiff

        var shot: ResolvedFormat.Product {
            switch self {
            case .dng: .bayer
            case .linear: .linear
            case .tiff: .tiff
            }
        }

        var convert: Converter.Target {
            switch self {
            case .dng: .dng(.lossless)
            case .linear: .linearDNG(.lossless)
            case .tiff: .tiff(.lossless)
            }
        }
    }

    @Test(arguments: Product.allCases, Source.allCases)
    func aShotAndAConvertedFileAreTheSame(product: Product, source: Source) throws {
        let folder = try TemporaryDirectory("export-matrix")
        let input = folder.file(source.fileName).path
        let bytes = try source.bytes
        try Data(bytes).write(to: URL(fileURLWithPath: input))

        // convert
        let converted = folder.file("converted").path
        try FileManager.default.createDirectory(atPath: converted, withIntermediateDirectories: true)
        var converter = Converter(target: product.convert, folder: converted)
        converter.computesSHA256 = true
        let result = try converter.convert(input)

        // a shot through shoot's encode stage
        let shots = folder.file("shot").path
        let processor = ShotProcessor(
            format: ResolvedFormat(product: product.shot, rawBitDepth: nil), keepJPEG: false,
            options: DNGOptions(compression: .lossless, software: "rawcap"), namer: try FileNamer(template: "IMG_0001"),
            camera: "Body", serial: "1", store: try OutputStore(folder: shots), journal: try Journal(folder: shots))
        let shot = ShotProcessor.Shot(
            frame: 1, index: 0, bracket: nil, date: Date(), sequence: 1,
            raw: (
                AnnouncedObject(
                    handle: ObjectHandle(rawValue: 1),
                    info: ObjectInfo(objectFormat: .tiffEP, filename: source.fileName)),
                bytes
            ), jpeg: nil, captureSeconds: 0, downloadSeconds: 0, triggered: .now)
        let saved = try #require(try processor.process(shot).first)

        #expect(
            URL(fileURLWithPath: saved.path).lastPathComponent
                == URL(fileURLWithPath: result.output).lastPathComponent)
        let shotBytes = try #require(FileManager.default.contents(atPath: saved.path))
        let convertedBytes = try #require(FileManager.default.contents(atPath: result.output))
        #expect(shotBytes == convertedBytes, "\(product) from \(source): the shot and the conversion differ")
        #expect(saved.sha256 == result.sha256)

        // What both must hold.
        let written = [UInt8](convertedBytes)
        #expect(TIFFIFD0.text(305, in: written) == Exporter.software)
        if product == .tiff {
            #expect(TIFFIFD0.numbers(274, in: written) == [1], "a rendering is upright")
        } else {
            #expect(TIFFIFD0.numbers(274, in: written) != [1], "a DNG keeps the camera's orientation")
            let decoded = try RawDecoder.decode(written[...])
            #expect(decoded.linearizationTable == nil)
            if product == .dng, source == .compandedDNG {
                #expect(decoded.frame?.samples == CompandedDNG.linearSamples)
            }
        }
    }

    /// A name that is taken gives the next free `STEM-N` in both, and both say which name they wanted.
    @Test func aTakenNameGivesTheNextFreeName() throws {
        let folder = try TemporaryDirectory("export-matrix-taken")
        let input = folder.file("IMG_0001.DNG").path
        try Data(CompandedDNG.bytes()).write(to: URL(fileURLWithPath: input))
        let out = folder.file("out").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try Data([1]).write(to: URL(fileURLWithPath: out + "/IMG_0001.dng"))
        let result = try Converter(target: .dng(.lossless), folder: out).convert(input)
        #expect(result.output == out + "/IMG_0001-1.dng")
        #expect(result.takenName == out + "/IMG_0001.dng")
        #expect(FileManager.default.contents(atPath: out + "/IMG_0001.dng") == Data([1]))
    }
}
