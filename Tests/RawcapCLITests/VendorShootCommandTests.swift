import Foundation
import RawDecoders
import TestSupport
import Testing

/// `rawcap shoot --camera sim --model nikon|canon` as a user runs it: the built binary drives the vendor personality
/// through the vendor driver, and the DNGs carry the model's identity and samples.
@Suite(.serialized) struct VendorShootCommandTests {
    @Test(arguments: [
        ("nikon", "Nikon", "D850", ["--format", "bayer12"], 12),
        ("canon", "Canon", "EOS 5D Mark IV", [], 14),
        // No bit depth setting on the body: bayer14 is its 14-bit CR2, checked per frame.
        ("canon", "Canon", "EOS 5D Mark IV", ["--format", "bayer14"], 14),
    ])
    func twoFramesEndInDNGsOfTheModel(model: String, make: String, name: String, extra: [String], bits: Int)
        async throws
    {
        let folder = try TemporaryDirectory("shoot-\(model)")
        let rawcap = try #require(ChildProcess.builtProduct(named: "rawcap"), "the rawcap binary was not built")
        let result = try await Subprocess.runDetached(
            rawcap,
            [
                "shoot", "--camera", "sim", "--model", model, "--sim-sensor", "320x240", "--count", "2", "-o",
                folder.url.path,
            ]
                + extra)
        #expect(result.status == 0, "\(result.errorOutput)")
        let contents = try folder.contents()
        let dngs = contents.filter { $0.hasSuffix(".dng") }.sorted()
        #expect(dngs.count == 2, "\(contents)")
        for dng in dngs {
            let frame = try #require(try RawDecoder.decode(contentsOf: folder.file(dng).path).frame)
            #expect(frame.metadata.make == make)
            #expect(frame.metadata.model == name)
            #expect(frame.bitsPerSample == bits)
            #expect(frame.cfa == .rggb)
            #expect(frame.width >= 300 && frame.height >= 220, "\(frame.width)×\(frame.height)")
            // Real pixels: the test chart, not a constant.
            #expect(Set(frame.samples.prefix(4096)).count > 100)
        }
        let journal = try String(contentsOf: folder.file("rawcap-journal.jsonl"), encoding: .utf8)
        #expect(!journal.contains("\"warning\""), "\(journal)")
        #expect(journal.contains(model == "nikon" ? "DSC_0001.NEF" : "IMG_0001.CR2"), "\(journal)")
        #expect(journal.contains(model == "nikon" ? "profile nikon" : "profile canon-eos"), "\(journal)")
    }
}

/// `--format bayer12` on a body that writes 14-bit raw and cannot be told otherwise: the shots are taken, and each
/// frame's depth is reported as a warning, not hidden.
@Suite struct FixedDepthShootCommandTests {
    @Test func aDepthTheCameraDoesNotWriteIsAWarningPerFrame() async throws {
        let folder = try TemporaryDirectory("shoot-canon-bayer12")
        let rawcap = try #require(ChildProcess.builtProduct(named: "rawcap"), "the rawcap binary was not built")
        let result = try await Subprocess.runDetached(
            rawcap,
            [
                "shoot", "--camera", "sim", "--model", "canon", "--sim-sensor", "160x120", "--format", "bayer12",
                "-o", folder.url.path,
            ])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.errorOutput.contains("asked for 12-bit raw, the camera sent 14-bit"), "\(result.errorOutput)")
        #expect(
            result.errorOutput.components(separatedBy: "asked for 12-bit raw").count == 2,
            "the warning is printed once: \(result.errorOutput)")
        #expect(try folder.contents().filter { $0.hasSuffix(".dng") }.count == 1)
    }
}

/// `rawcap info` on a Sony body in PC Remote mode: its properties come from GetAllDevicePropData after the SDIO
/// handshake (the body lists neither GetDevicePropDesc nor values before it), so they show values, not "not readable".
@Suite struct SonyInfoCommandTests {
    @Test func sonyPropertiesShowTheirValues() async throws {
        let rawcap = try #require(ChildProcess.builtProduct(named: "rawcap"), "the rawcap binary was not built")
        let result = try await Subprocess.runDetached(
            rawcap, ["info", "--camera", "sim", "--model", "sony", "--sim-sensor", "96x64", "--json"])
        #expect(result.status == 0, "\(result.errorOutput)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], "\(result.output)")
        let properties = try #require(object["properties"] as? [[String: Any]])
        #expect(properties.count >= 5, "\(properties)")
        #expect(properties.allSatisfy { $0["error"] == nil }, "\(properties)")
        let quality = try #require(properties.first { ($0["code"] as? String) == "0x5004" }, "\(properties)")
        #expect(quality["current"] != nil && quality["writable"] as? Bool == true, "\(quality)")
    }
}
