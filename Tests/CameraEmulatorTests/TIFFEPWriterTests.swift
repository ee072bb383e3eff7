import CameraEmulator
import Foundation
import RawImage
import SceneSynthesis
import TestSupport
import Testing
import WireFormat

/// The TIFF/EP files the camera stores: well-formed TIFF, and what independent tools read from them.
@Suite struct TIFFEPWriterTests {
    static func frame(width: Int = 96, height: Int = 64, bits: Int = 14) throws -> RawFrame {
        var scene = try SyntheticScene(width: width, height: height, cfa: .grbg, bitsPerSample: bits)
        scene.identity = CaptureMetadata(
            make: "rawcap", model: "Emulated Camera", serialNumber: "RC0000001", lensModel: "rawcap Synthetic 50mm F1.8"
        )
        let exposure = try ExposureSettings(
            exposureTime: try #require(Rational(1, 125)), fNumber: 5.6, iso: 400,
            exposureBias: try #require(Rational(-1, 3)))
        let time = try CaptureTime(year: 2024, month: 5, day: 17, hour: 10, minute: 30, second: 7, subSeconds: "4")
        return try scene.render(exposure: exposure, seed: 3, captureTime: time)
    }

    /// One IFD entry as read back.
    struct Entry {
        let tag: UInt16
        let type: UInt16
        let count: UInt32
        let valueOffset: UInt32
    }

    static func entries(_ bytes: [UInt8], at offset: Int) throws -> [Entry] {
        var reader = WireReader(bytes[offset...], byteOrder: .little)
        let count = Int(try reader.read(UInt16.self))
        return try (0..<count).map { _ in
            Entry(
                tag: try reader.read(), type: try reader.read(), count: try reader.read(),
                valueOffset: try reader.read())
        }
    }

    static func longs(_ bytes: [UInt8], _ entry: Entry) throws -> [UInt32] {
        if entry.count == 1 { return [entry.valueOffset] }
        var reader = WireReader(bytes[Int(entry.valueOffset)...], byteOrder: .little)
        return try (0..<entry.count).map { _ in try reader.read(UInt32.self) }
    }

    @Test(arguments: [(96, 64, 14), (1000, 1100, 12), (40, 17, 16)])
    func theFileIsWellFormedTIFFWithTheSamplesInStrips(width: Int, height: Int, bits: Int) throws {
        let frame = try Self.frame(width: width, height: height, bits: bits)
        let bytes = try TIFFEPWriter.encode(frame, software: "test")
        #expect(bytes.prefix(8) == [0x49, 0x49, 42, 0, 8, 0, 0, 0])
        let ifd0 = try Self.entries(bytes, at: 8)
        #expect(ifd0.map(\.tag) == ifd0.map(\.tag).sorted() && Set(ifd0.map(\.tag)).count == ifd0.count)
        #expect(!ifd0.contains { $0.tag == 50706 }, "no DNGVersion: this is TIFF/EP")
        let sizes: [UInt16: Int] = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 10: 8]
        for entry in ifd0 {
            let size = try #require(sizes[entry.type]) * Int(entry.count)
            if size > 4 { #expect(Int(entry.valueOffset) + size <= bytes.count, "tag \(entry.tag)") }
        }
        let offsets = try Self.longs(bytes, try #require(ifd0.first { $0.tag == 273 }))
        let counts = try Self.longs(bytes, try #require(ifd0.first { $0.tag == 279 }))
        #expect(counts.reduce(0, +) == UInt32(width * height * 2))
        var samples: [UInt16] = []
        for (offset, count) in zip(offsets, counts) {
            var reader = WireReader(bytes[Int(offset)..<Int(offset + count)], byteOrder: .little)
            for _ in 0..<(count / 2) { samples.append(try reader.read(UInt16.self)) }
        }
        #expect(samples == frame.samples)
        #expect(Int(offsets.last ?? 0) + Int(counts.last ?? 0) == bytes.count)
        let exif = try #require(ifd0.first { $0.tag == 34665 })
        let exifEntries = try Self.entries(bytes, at: Int(exif.valueOffset))
        #expect(exifEntries.map(\.tag) == exifEntries.map(\.tag).sorted())
        #expect(Set(exifEntries.map(\.tag)).isSuperset(of: [33434, 33437, 34855, 36867, 37380, 37386]))
    }

    @Test func exiftoolReadsTheTagsBack() async throws {
        let exiftool = try ExternalTool.require("exiftool")
        let directory = try TemporaryDirectory("tiffep")
        let file = directory.file("RCAP0001.TIF")
        try Data(try TIFFEPWriter.encode(try Self.frame(), software: "rawcap test")).write(to: file)
        let result = try await Subprocess.runDetached(exiftool, ["-j", "-n", "-G0", file.path])
        #expect(result.status == 0, "\(result.errorOutput)")
        let json =
            try #require(
                try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]]
            ).first ?? [:]
        #expect(json["EXIF:Make"] as? String == "rawcap")
        #expect(json["EXIF:Model"] as? String == "Emulated Camera")
        #expect(json["EXIF:ImageWidth"] as? Int == 96 && json["EXIF:ImageHeight"] as? Int == 64)
        #expect(json["EXIF:BitsPerSample"] as? Int == 16)
        #expect(json["EXIF:PhotometricInterpretation"] as? Int == 32803)
        #expect(json["EXIF:CFARepeatPatternDim"] as? String == "2 2")
        #expect(json["EXIF:CFAPattern2"] as? String == "1 0 2 1")
        #expect(json["EXIF:TIFF-EPStandardID"] as? String == "1 0 0 0")
        #expect(json["EXIF:ExposureTime"] as? Double == 0.008)
        #expect(json["EXIF:FNumber"] as? Double == 5.6)
        #expect(json["EXIF:ISO"] as? Int == 400)
        #expect((json["EXIF:ExposureCompensation"] as? Double).map { abs($0 + 1.0 / 3) < 1e-3 } == true)
        #expect(json["EXIF:DateTimeOriginal"] as? String == "2024:05:17 10:30:07")
        #expect(json["EXIF:LensModel"] as? String == "rawcap Synthetic 50mm F1.8")
        #expect(json["EXIF:SerialNumber"] as? String == "RC0000001")
        #expect(json["EXIF:WhiteLevel"] as? Int == 15359)
        #expect(json["EXIF:UniqueCameraModel"] as? String == "rawcap Emulated Camera")
    }

    @Test func libtiffReadsTheFileWithoutErrors() async throws {
        let tiffinfo = try ExternalTool.require("tiffinfo")
        let directory = try TemporaryDirectory("tiffep")
        let file = directory.file("RCAP0001.TIF")
        try Data(try TIFFEPWriter.encode(try Self.frame(), software: "rawcap test")).write(to: file)
        let result = try await Subprocess.runDetached(tiffinfo, [file.path])
        #expect(result.status == 0)
        #expect(!result.errorOutput.contains("Error"), "\(result.errorOutput)")
        #expect(result.output.contains("Image Width: 96 Image Length: 64"))
        #expect(result.output.contains("Bits/Sample: 16"))
    }
}
