import DNG
import Foundation
import OutputFiles
import RawDecoders
import RawImage
import TestSupport
import Testing

/// `rawcap convert` run as the built binary: DNGs from another writer and TIFF/EP files from the emulated camera
/// come out with exactly the same samples; damaged inputs and unusable output folders give the documented status,
/// one line of message, and no file.
@Suite(.serialized) struct ConvertCommandTests {
    @Test(arguments: ["none", "lossless"])
    func piDNGConvertsToIdenticalPixels(compression: String) async throws {
        let folder = try TemporaryDirectory("convert-pidng")
        let (input, samples) = try await ConvertTestFiles.pidngFile(width: 96, height: 64, bits: 12, in: folder)
        let outputFolder = try TemporaryDirectory("convert-pidng-out")
        let result = try await ConvertTestFiles.rawcap([
            "convert", input, "-o", outputFolder.url.path, "--compression", compression, "--json",
        ])
        #expect(result.status == 0, "\(result.errorOutput)")
        let records = try ConvertTestFiles.jsonLines(result.output)
        try #require(records.count == 1)
        let record = records[0]
        let output = outputFolder.file("pidng-12.dng").path
        #expect(record["input"] as? String == input)
        #expect(record["path"] as? String == output)
        #expect(record["format"] as? String == "dng")
        #expect(record["compression"] as? String == compression)
        #expect(record["camera"] as? String == "Interop Test")
        #expect(record["make"] as? String == "PiDNG")
        #expect(record["inputFormat"] as? String == "DNG 1.4.0.0 (backward 1.0.0.0)")
        let attributes = try FileManager.default.attributesOfItem(atPath: output)
        #expect(record["size"] as? Int == (attributes[.size] as? NSNumber)?.intValue)
        #expect(record["sha256"] as? String == MessageDigest.hex(try MessageDigest.hashFile(.sha256, at: output)))
        #expect(try outputFolder.contents() == ["pidng-12.dng"])

        // rawcap's reader and LibRaw (an independent decoder) both return exactly PiDNG's samples.
        let bytes = try RawDecoder.readFile(output)
        let decoded = try RawDecoder.decode(bytes[...])
        let frame = try #require(decoded.frame)
        #expect(frame.samples == samples)
        #expect(frame.cfa == .rggb && frame.blackLevels == [64, 64, 64, 64] && frame.whiteLevel == 4095)
        #expect(frame.metadata.make == "PiDNG" && frame.metadata.model == "Interop Test")
        #expect(decoded.info.storage.compression == (compression == "lossless" ? .jpeg : TIFFCompression.none))
        #expect(InputFileDigest.verified(decoded))
        #expect(try LibRawDecoder.decode(bytes[...]).frame?.samples == samples)
    }

    @Test func emulatorTIFFEPConvertsToIdenticalPixels() async throws {
        let folder = try TemporaryDirectory("convert-tiffep")
        let frame = try ConvertTestFiles.frame()
        let input = folder.file("DSC_0001.tif").path
        try ConvertTestFiles.writeTIFFEP(frame, to: input)
        let result = try await ConvertTestFiles.rawcap(["convert", input])
        #expect(result.status == 0, "\(result.errorOutput)")
        let output = folder.file("DSC_0001.dng").path
        #expect(result.output == "\(input) → \(output) (DNG, lossless, 160×120, \(Self.size(output)))\n")

        let decoded = try RawDecoder.decode(contentsOf: output)
        let converted = try #require(decoded.frame)
        #expect(converted.samples == frame.samples)
        #expect(converted.cfa == frame.cfa && converted.bitsPerSample == 14)
        #expect(converted.blackLevels == frame.blackLevels && converted.whiteLevel == frame.whiteLevel)
        #expect(converted.activeArea == frame.activeArea && converted.defaultCrop == frame.defaultCrop)
        #expect(converted.metadata.exposureTime == Rational(1, 250) && converted.metadata.iso == 400)
        #expect(converted.metadata.captureTime == frame.metadata.captureTime)
        #expect(decoded.info.previews.count == 2)  // the IFD0 thumbnail and the JPEG preview
    }

    /// A TIFF that is a picture (rawcap's own `--format tiff` rendering) is refused with what rawcap reads.
    @Test func aProcessedTIFFIsNotRawData() async throws {
        let folder = try TemporaryDirectory("convert-picture")
        let dng = folder.file("frame.dng").path
        try ConvertTestFiles.writeDNG(try ConvertTestFiles.frame(), to: dng)
        let rendered = try await ConvertTestFiles.rawcap(["convert", dng, "--tiff", "-o", folder.file("tif").path])
        #expect(rendered.status == 0, "\(rendered.errorOutput)")
        let tiff = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.file("tif").path).first)
        for command in ["convert", "inspect"] {
            let result = try await ConvertTestFiles.rawcap([command, folder.file("tif").path + "/" + tiff])
            #expect(result.status == 65)
            #expect(result.errorOutput.contains("a TIFF without raw sensor data"), "\(result.errorOutput)")
        }
    }

    @Test func vendorRawThroughLibRawConvertsToIdenticalPixels() async throws {
        let folder = try TemporaryDirectory("convert-vendor")
        let (bytes, samples) = ConvertTestFiles.vendorStyleRaw()
        #expect(RawDecoder.detectFormat(bytes[...]) == .vendor)
        let input = folder.file("DSC_0002.RAW")
        try Data(bytes).write(to: input)
        let result = try await ConvertTestFiles.rawcap(["convert", input.path, "--json", "--compression", "none"])
        #expect(result.status == 0, "\(result.errorOutput)")
        let record = try #require(try ConvertTestFiles.jsonLines(result.output).first)
        // Named by its make for people; which LibRaw decoder read it is in inspect's storage line.
        #expect(record["inputFormat"] as? String == "Vendor raw")
        #expect(record["camera"] as? String == "Test Model")
        let converted = try #require(try RawDecoder.decode(contentsOf: folder.file("DSC_0002.dng").path).frame)
        #expect(converted.samples == samples)
        #expect(converted.cfa == .rggb && converted.width == 96 && converted.height == 64)
    }

    @Test func existingNamesGetASuffixAndAreKept() async throws {
        let folder = try TemporaryDirectory("convert-suffix")
        let input = folder.file("shot.dng").path
        try ConvertTestFiles.writeDNG(try ConvertTestFiles.frame(width: 64, height: 48), to: input)
        let outputFolder = try TemporaryDirectory("convert-suffix-out")
        try Data("keep".utf8).write(to: outputFolder.file("shot.dng"))

        // The same input twice: the first gets -1 (shot.dng exists), the second -2.
        let result = try await ConvertTestFiles.rawcap(["convert", input, input, "-o", outputFolder.url.path])
        #expect(result.status == 0, "\(result.errorOutput)")
        let lines = result.output.split(separator: "\n")
        try #require(lines.count == 2)
        #expect(lines[0].hasSuffix("; \(outputFolder.file("shot.dng").path) exists and is kept"))
        #expect(lines[0].contains("→ \(outputFolder.file("shot-1.dng").path) "))
        #expect(lines[1].contains("→ \(outputFolder.file("shot-2.dng").path) "))
        #expect(try outputFolder.contents() == ["shot-1.dng", "shot-2.dng", "shot.dng"])
        #expect(try Data(contentsOf: outputFolder.file("shot.dng")) == Data("keep".utf8))
    }

    @Test func damagedInputsExit65WithOneLineAndWriteNothing() async throws {
        let folder = try TemporaryDirectory("convert-damaged")
        let good = folder.file("good.dng").path
        try ConvertTestFiles.writeDNG(try ConvertTestFiles.frame(), to: good)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))

        let truncated = folder.file("truncated.dng")
        try bytes.prefix(bytes.count / 2).write(to: truncated)
        // One bit flipped in the middle of the raw samples: the structure is intact, NewRawImageDigest is not.
        let bitFlipped = folder.file("flipped.dng")
        try ConvertTestFiles.flippingRawBit(of: good).write(to: bitFlipped)
        let notRaw = folder.file("notes.dng")
        try Data("not a raw file\n".utf8).write(to: notRaw)

        let outputFolder = try TemporaryDirectory("convert-damaged-out")
        for input in [truncated, bitFlipped, notRaw] {
            let result = try await ConvertTestFiles.rawcap(["convert", input.path, "-o", outputFolder.url.path])
            #expect(result.status == 65, "\(input.lastPathComponent): \(result.errorOutput)")
            #expect(result.output.isEmpty)
            let message = result.errorOutput
            #expect(message.hasPrefix("rawcap convert: \(input.path): "), "\(message)")
            #expect(message.hasSuffix("\n") && message.dropLast().contains("\n") == false, "\(message)")
            #expect(try outputFolder.contents().isEmpty)
        }
        let flippedMessage = try await ConvertTestFiles.rawcap([
            "convert", bitFlipped.path, "-o", outputFolder.url.path,
        ])
        #expect(flippedMessage.errorOutput.contains("NewRawImageDigest"))

        // One bad file among good ones: the good ones convert, the status is the bad one's.
        let mixed = try await ConvertTestFiles.rawcap([
            "convert", good, truncated.path, "-o", outputFolder.url.path, "--compression", "none",
        ])
        #expect(mixed.status == 65)
        #expect(mixed.output.split(separator: "\n").count == 1)
        #expect(try outputFolder.contents() == ["good.dng"])
    }

    @Test func unusableOutputFoldersExit73() async throws {
        let folder = try TemporaryDirectory("convert-unwritable")
        let input = folder.file("shot.dng").path
        try ConvertTestFiles.writeDNG(try ConvertTestFiles.frame(width: 64, height: 48), to: input)

        // A missing folder is created, as `shoot -o` does; a file in its place is refused.
        let missing = try await ConvertTestFiles.rawcap(["convert", input, "-o", folder.file("new/sub").path])
        #expect(missing.status == 0, "\(missing.errorOutput)")
        #expect(FileManager.default.fileExists(atPath: folder.file("new/sub/shot.dng").path))

        // /sys refuses new files even to root (EACCES), so this holds however the tests run.
        let refused = try await ConvertTestFiles.rawcap(["convert", input, "-o", "/sys", "--json"])
        #expect(refused.status == 73, "\(refused.errorOutput)")
        #expect(refused.errorOutput.hasPrefix("rawcap convert: \(input): cannot write /sys/shot.dng: "))
        let record = try #require(try ConvertTestFiles.jsonLines(refused.output).first)
        #expect(record["path"] == nil && record["input"] as? String == input)
        let error = try #require(record["error"] as? [String: Any])
        #expect(error["code"] as? String == "cannotCreate" && error["exitStatus"] as? Int == 73)
        #expect(error["command"] as? String == "convert")
        #expect((error["message"] as? String)?.hasPrefix("\(input): cannot write /sys/shot.dng: ") == true)

        if getuid() != 0 {
            let readOnly = folder.file("read-only")
            try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: false)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: readOnly.path)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: readOnly.path) }
            let result = try await ConvertTestFiles.rawcap(["convert", input, "-o", readOnly.path])
            #expect(result.status == 73, "\(result.errorOutput)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: readOnly.path).isEmpty)
        }

        let notAFolder = try await ConvertTestFiles.rawcap(["convert", input, "-o", input])
        #expect(notAFolder.status == 73)
        #expect(notAFolder.errorOutput == "rawcap convert: \(input) exists and is not a folder\n")
    }

    @Test func aFullDiskExits74AndOutranksABadInput() async throws {
        let folder = try TemporaryDirectory("convert-full")
        let input = folder.file("shot.dng").path
        try ConvertTestFiles.writeDNG(try ConvertTestFiles.frame(), to: input)
        let bad = folder.file("bad.dng")
        try Data("not a raw file".utf8).write(to: bad)
        let outputFolder = try TemporaryDirectory("convert-full-out")
        let rawcap = try #require(ChildProcess.builtProduct(named: "rawcap"))
        // A file-size limit of 40 blocks (at most 40 KiB) stands in for a full disk: write(2) fails with EFBIG, which
        // rawcap treats like ENOSPC. SIGXFSZ is ignored so the write fails instead of killing the process.
        let result = try await Subprocess.runDetached(
            "/bin/sh",
            [
                "-c", "trap '' XFSZ; ulimit -f 40; exec \"$0\" \"$@\"", rawcap, "convert", bad.path, input, "-o",
                outputFolder.url.path, "--compression", "none",
            ])
        #expect(result.status == 74, "\(result.errorOutput)")
        let lines = result.errorOutput.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(
            lines.last?.hasPrefix("rawcap convert: \(input): cannot write \(outputFolder.file("shot.dng").path): ")
                == true)
        #expect(try outputFolder.contents().isEmpty)
    }

    @Test func linearAndTIFFTargets() async throws {
        let folder = try TemporaryDirectory("convert-targets")
        let frame = try ConvertTestFiles.frame(width: 96, height: 64)
        let input = folder.file("frame.dng").path
        try ConvertTestFiles.writeDNG(frame, to: input)

        let linear = try await ConvertTestFiles.rawcap(["convert", input, "--linear", "--json"])
        #expect(linear.status == 0, "\(linear.errorOutput)")
        let record = try #require(try ConvertTestFiles.jsonLines(linear.output).first)
        #expect(record["format"] as? String == "linear-dng")
        let output = try #require(record["path"] as? String)
        let linearImage = try #require(try RawDecoder.decode(contentsOf: output).linearImage)
        #expect(linearImage.width == frame.activeArea.width && linearImage.height == frame.activeArea.height)
        #expect(linearImage.metadata.iso == 400)

        let tiff = try await ConvertTestFiles.rawcap(["convert", input, "--tiff", "--json"])
        #expect(tiff.status == 0, "\(tiff.errorOutput)")
        let tiffRecord = try #require(try ConvertTestFiles.jsonLines(tiff.output).first)
        #expect(tiffRecord["format"] as? String == "tiff")
        #expect(tiffRecord["path"] as? String == folder.file("frame.tif").path)
        #expect(tiffRecord["compression"] as? String == "deflate")
        #expect(tiffRecord["width"] as? Int == frame.defaultCrop.width)
        #expect(tiffRecord["height"] as? Int == frame.defaultCrop.height)
        let info = try await Subprocess.runDetached(
            try ExternalTool.require("tiffinfo"), [folder.file("frame.tif").path])
        #expect(info.output.contains("Bits/Sample: 16") && info.output.contains("Samples/Pixel: 3"))
        #expect(info.output.contains("Image Width: \(frame.defaultCrop.width)"))

        let both = try await ConvertTestFiles.rawcap(["convert", input, "--tiff", "--linear"])
        #expect(both.status == 64)
    }

    @Test func ctrlCFinishesTheCurrentFileAndExits130() async throws {
        let folder = try TemporaryDirectory("convert-interrupt")
        let input = folder.file("shot.dng").path
        try ConvertTestFiles.writeDNG(try ConvertTestFiles.frame(width: 160, height: 120), to: input)
        let outputFolder = try TemporaryDirectory("convert-interrupt-out")
        // 300 demosaicing conversions take minutes; the interrupt comes after the first.
        let inputs = [String](repeating: input, count: 300)
        let result = try await ConvertTestFiles.rawcapInterruptedAfterFirstLine(
            ["convert"] + inputs + ["-o", outputFolder.url.path, "--linear", "--json"])
        #expect(result.status == 130, "\(result.errorOutput)")
        #expect(result.errorOutput.contains("rawcap convert: interrupted"))
        var written = result.output.split(separator: "\n")
        // The last line is the interruption's error object; the others are the files written.
        let popped = written.popLast()
        let last = try #require(popped)
        #expect(last.contains(#""code":"interrupted""#) && last.contains(#""exitStatus":130"#), "\(last)")
        #expect(written.allSatisfy { $0.contains(#""path":"#) })
        #expect(written.count >= 1 && written.count < 300)
        // Every file announced exists, complete; nothing else is in the folder, no temporary file either.
        let names = try outputFolder.contents()
        #expect(names.count == written.count, "\(names)")
        #expect(names.allSatisfy { !$0.hasPrefix(".") })
        for name in names {
            #expect(try RawDecoder.decode(contentsOf: outputFolder.file(name).path).linearImage != nil)
        }
    }

    /// The DNG writer's and the reader's libtiff tag extenders are process-wide. Whichever is installed last runs
    /// first, and libtiff keeps the first definition of a tag: the writer's fixed-count definitions once reached the
    /// reader's files, and NewRawImageDigest then failed to load ("Failed to allocate memory for custom tag binary
    /// object"), so a correct file looked damaged. Reader first, then writer, then reader again must still see it.
    @Test func theReaderSeesTheDigestWhateverOrderTheExtendersWereInstalled() throws {
        let folder = try TemporaryDirectory("convert-extenders")
        let frame = try ConvertTestFiles.frame(width: 64, height: 48)
        // The emulator's TIFF/EP writer does not use libtiff, so in a fresh process this installs the reader's
        // extender first.
        let tiffEP = folder.file("first.tif").path
        try ConvertTestFiles.writeTIFFEP(frame, to: tiffEP)
        _ = try RawDecoder.decode(contentsOf: tiffEP)
        let first = folder.file("first.dng").path
        try ConvertTestFiles.writeDNG(frame, to: first)
        let second = folder.file("second.dng").path
        try ConvertTestFiles.writeDNG(frame, to: second, compression: .lossless)
        for path in [first, second] {
            let decoded = try RawDecoder.decode(contentsOf: path)
            #expect(decoded.info.rawImageDigest?.count == 16, "\(decoded.info.warnings)")
            #expect(InputFileDigest.verified(decoded))
            #expect(decoded.info.warnings.isEmpty)
        }
    }

    static func size(_ path: String) -> String {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let bytes = (attributes?[.size] as? NSNumber)?.intValue ?? 0
        return bytes < 1_000_000
            ? String(format: "%.1f kB", Double(bytes) / 1000) : String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}

/// The digest check `rawcap convert` runs, from outside RawcapCLI: the samples hash to the stored
/// NewRawImageDigest.
enum InputFileDigest {
    static func verified(_ decoded: DecodedRaw) -> Bool {
        guard let stored = decoded.info.rawImageDigest, let frame = decoded.frame else { return false }
        let computed = frame.samples.withUnsafeBufferPointer {
            RawImageDigest.compute(
                samples: $0, width: frame.width, height: frame.height, planes: 1,
                bytesPerSample: decoded.storedBitsPerSample <= 8 ? 1 : 2, threadCount: 1)
        }
        return computed == stored
    }
}
