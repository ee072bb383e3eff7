import Foundation
import RawDecoders
import RawImage
import TestSupport
import Testing

/// The built `rawcap` against the Sony and Fujifilm personalities as a user reaches them: in process
/// (`--camera sim --model …`, USB framing), and over the network from `rawcap sim serve --model …` (standard
/// PTP/IP for Sony, Fujifilm's own variant for Fuji).
@Suite(.serialized) struct VendorReachTests {
    /// The DNGs in `folder`, decoded.
    static func dngs(in folder: TemporaryDirectory) throws -> [RawFrame] {
        try folder.contents().filter { $0.hasSuffix(".dng") }.sorted().map { name in
            try #require(try RawDecoder.decode(contentsOf: folder.file(name).path).frame)
        }
    }

    @Test func sonyShootsTwoDNGsInProcess() async throws {
        let folder = try TemporaryDirectory("sony-cli")
        let result = try await Subprocess.runDetached(
            try RawcapBinary.path(),
            [
                "shoot", "--camera", "sim", "--model", "sony", "--sim-sensor", "160x120", "--count", "2", "-o",
                folder.url.path,
            ])
        #expect(result.status == 0, "\(result.errorOutput)")
        let frames = try Self.dngs(in: folder)
        #expect(frames.count == 2)
        for frame in frames {
            #expect(frame.metadata.make == "Sony" && frame.metadata.model == "ILCE-7M3")
            // ARW keeps the active area: 160×120 less a 2-pixel masked margin on the left and top.
            #expect(frame.width == 158 && frame.height == 118)
        }
    }

    @Test func aSonyOutsidePCRemoteEndsWithOneLineAndStatus69() async throws {
        let folder = try TemporaryDirectory("sony-no-remote")
        let result = try await Subprocess.runDetached(
            try RawcapBinary.path(),
            [
                "shoot", "--camera", "sim", "--model", "sony-no-pc-remote", "--sim-sensor", "96x64", "-o",
                folder.url.path,
            ])
        #expect(result.status == 69, "\(result.errorOutput)")
        let lines = result.errorOutput.split(separator: "\n")
        #expect(lines.count == 1, "\(result.errorOutput)")
        #expect(result.errorOutput.contains("PC Remote"), "\(result.errorOutput)")
    }

    @Test func sonyOverPTPIPFromSimServe() async throws {
        let server = try await SimServeProcess.start(["--model", "sony", "--sensor", "160x120"])
        let folder = try TemporaryDirectory("sony-ptpip")
        let result = try await Subprocess.runDetached(
            try RawcapBinary.path(),
            [
                "shoot", "--camera", "ptpip:127.0.0.1:\(server.port)", "--count", "1", "--keep-jpeg", "-o",
                folder.url.path,
            ])
        let stopped = await server.stop()
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(stopped.status == 0, "\(stopped.errorOutput)")
        let frames = try Self.dngs(in: folder)
        #expect(frames.count == 1)
        #expect(frames.first?.metadata.model == "ILCE-7M3")
        #expect(try folder.contents().contains { $0.hasSuffix(".jpg") })
    }

    @Test func fujifilmOverItsPTPIPVariantFromSimServe() async throws {
        let server = try await SimServeProcess.start(["--model", "fuji", "--sensor", "160x120"])
        #expect(server.listeningLine["camera"] as? String == "X-T2")
        let folder = try TemporaryDirectory("fuji-ptpip")
        let result = try await Subprocess.runDetached(
            try RawcapBinary.path(),
            [
                "shoot", "--camera", "fujiptpip:127.0.0.1:\(server.port)", "--count", "2", "--keep-jpeg", "-o",
                folder.url.path,
            ])
        let stopped = await server.stop()
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(stopped.status == 0, "\(stopped.errorOutput)")
        let frames = try Self.dngs(in: folder)
        #expect(frames.count == 2)
        for frame in frames {
            #expect(frame.metadata.make == "Fujifilm" && frame.metadata.model == "X-T2")
            #expect(frame.cfa.width == 6)
        }
        #expect(try folder.contents().filter { $0.hasSuffix(".jpg") }.count == 2)
    }

    /// `nikon-no-object-event`, a D850 that never names its shot (no ObjectAddedInSdram): rawcap reads each shot at
    /// 0xFFFF0001, in process and over PTP/IP from `rawcap sim serve`; RAW+JPEG pairs come out whole.
    @Test func aNikonThatNeverNamesItsShotShootsInProcessAndOverPTPIP() async throws {
        let rawcap = try RawcapBinary.path()
        let inProcess = try TemporaryDirectory("nikon-no-event-cli")
        let local = try await Subprocess.runDetached(
            rawcap,
            [
                "shoot", "--camera", "sim", "--model", "nikon-no-object-event", "--sim-sensor", "160x120", "--count",
                "2", "--keep-jpeg", "-o", inProcess.url.path,
            ])
        #expect(local.status == 0, "\(local.errorOutput)")

        let server = try await SimServeProcess.start(["--model", "nikon-no-object-event", "--sensor", "160x120"])
        #expect(server.listeningLine["camera"] as? String == "D850")
        let network = try TemporaryDirectory("nikon-no-event-ptpip")
        let remote = try await Subprocess.runDetached(
            rawcap,
            [
                "shoot", "--camera", "ptpip:127.0.0.1:\(server.port)", "--count", "2", "--keep-jpeg", "-o",
                network.url.path,
            ])
        let stopped = await server.stop()
        #expect(remote.status == 0, "\(remote.errorOutput)")
        #expect(stopped.status == 0, "\(stopped.errorOutput)")

        for folder in [inProcess, network] {
            let frames = try Self.dngs(in: folder)
            #expect(frames.count == 2)
            for frame in frames { #expect(frame.metadata.make == "Nikon" && frame.metadata.model == "D850") }
            #expect(try folder.contents().filter { $0.hasSuffix(".jpg") }.count == 2)
            let journal = try String(contentsOf: folder.file("rawcap-journal.jsonl"), encoding: .utf8)
            #expect(journal.contains("driver nikon, profile nikon"), "\(journal)")
            let handles = journal.split(separator: "\n").filter { $0.contains("\"object-announced\"") }
                .map { $0.contains("\"handle\":4294901761") }
            #expect(handles == [true, true, true, true], "every object read at 0xFFFF0001: \(journal)")
        }
    }

    /// Both personalities on the fake USB bus (libusb through umockdev), chosen by their USB vendor ID: rawcap's
    /// own client shoots them as it would a camera on a cable.
    @Test(arguments: [("sony", "ILCE-7M3", "sony"), ("fuji", "X-T2", "fujifilm")])
    func personalitiesOnTheFakeUSBBus(model: String, cameraModel: String, driver: String) async throws {
        try Umockdev.require()
        let folder = try TemporaryDirectory("vendor-sim-usb")
        let rawcap = try RawcapBinary.path()
        let result = try await Subprocess.runDetached(
            rawcap,
            [
                "sim", "usb", "--model", model, "--sensor", "160x120", "--", rawcap, "shoot", "--camera", "usb",
                "--count", "1", "--keep-jpeg", "-o", folder.url.path,
            ])
        #expect(result.status == 0, "\(result.errorOutput)")
        let frames = try Self.dngs(in: folder)
        #expect(frames.count == 1)
        #expect(frames.first?.metadata.model == cameraModel)
        let journal = try String(contentsOf: folder.file("rawcap-journal.jsonl"), encoding: .utf8)
        #expect(journal.contains("driver \(driver), profile \(driver)"), "\(journal)")
    }
}
