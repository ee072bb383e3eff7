import Foundation
import TestSupport
import Testing

/// gphoto2 against the `nikon` and `canon` personalities on the fake USB bus, an independent check of each: idVendor
/// 0x04B0 and VendorExtensionID 10 send libgphoto2 down its Nikon code path (`camera_nikon_capture`:
/// InitiateCaptureRecInSdram, DeviceReady, Nikon GetEvent, the object at its SDRAM handle, DeleteObject); 0x04A9 and
/// 11 down its EOS path (`camera_canon_eos_capture`: remote and event mode, UI lock, RemoteReleaseOn 1 then 2,
/// GetEvent records, the object held for the host, TransferComplete).
@Suite(.serialized, .timeLimit(.minutes(3))) struct GPhoto2VendorSimUSBTests {
    @Test func canonCaptureImageAndDownloadTakesTheEOSPathAndGetsA5DMarkIVCR2() async throws {
        let gphoto2 = try ExternalTool.require("gphoto2")
        try Umockdev.require()
        let rawcap = try RawcapBinary.path()
        let folder = try TemporaryDirectory("sim-usb-canon")
        try FileManager.default.createDirectory(at: folder.file("out"), withIntermediateDirectories: true)
        // "capt0000.cr2" is the name libgphoto2 gives a shot the EOS body held for the host.
        let result = try await Subprocess.runDetached(
            rawcap,
            ["sim", "usb", "--model", "canon", "--sensor", "640x480", "--", gphoto2, "--capture-image-and-download"],
            environment: ["HOME": folder.url.path], currentDirectory: folder.url)
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")
        let cr2 = try Data(contentsOf: folder.file("capt0000.cr2"))
        #expect(Array(cr2.prefix(4)) == [0x49, 0x49, 0x2A, 0x00] && Array(cr2[8..<10]) == [0x43, 0x52], "II*, CR")
        let convert = try await Subprocess.runDetached(
            rawcap, ["convert", folder.file("capt0000.cr2").path, "-o", folder.file("out").path])
        #expect(convert.status == 0, "\(convert.errorOutput)")
        let inspect = try await Subprocess.runDetached(
            rawcap, ["inspect", "--json", folder.file("out").appendingPathComponent("capt0000.dng").path])
        let report = try #require(try JSONSerialization.jsonObject(with: inspect.stdout) as? [String: Any])
        let camera = try #require(report["camera"] as? [String: Any])
        #expect(camera["make"] as? String == "Canon")
        #expect(camera["model"] as? String == "EOS 5D Mark IV")
    }

    @Test func captureImageAndDownloadTakesTheNikonPathAndGetsAD850NEF() async throws {
        let gphoto2 = try ExternalTool.require("gphoto2")
        try Umockdev.require()
        let rawcap = try RawcapBinary.path()
        let folder = try TemporaryDirectory("sim-usb-nikon")
        try FileManager.default.createDirectory(at: folder.file("out"), withIntermediateDirectories: true)
        // libgphoto2 names the file "capt0000.nef" only in its Nikon SDRAM capture; its generic capture would keep
        // the camera's name (DSC_0001.NEF).
        let script = """
            set -e
            cd "$1"
            "$2" --summary
            "$2" --get-config imagequality
            "$2" --capture-image-and-download
            """
        let result = try await Subprocess.runDetached(
            rawcap,
            ["sim", "usb", "--model", "nikon", "--sensor", "640x480", "--", "/bin/sh", "-c", script, "sh",
             folder.url.path, gphoto2],
            environment: ["HOME": folder.url.path], currentDirectory: folder.url)
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")
        #expect(result.output.contains("Manufacturer: Nikon Corporation"), "\(result.output)")
        #expect(result.output.contains("Current: NEF (Raw)"), "libgphoto2 reads 4 as NEF: \(result.output)")
        let nef = try Data(contentsOf: folder.file("capt0000.nef"))
        #expect(Array(nef.prefix(4)) == [0x4D, 0x4D, 0x00, 0x2A], "a big-endian TIFF")
        // rawcap reads what gphoto2 downloaded as a D850 NEF (through LibRaw) and writes its DNG.
        let convert = try await Subprocess.runDetached(
            rawcap, ["convert", folder.file("capt0000.nef").path, "-o", folder.file("out").path])
        #expect(convert.status == 0, "\(convert.errorOutput)")
        let inspect = try await Subprocess.runDetached(
            rawcap, ["inspect", "--json", folder.file("out").appendingPathComponent("capt0000.dng").path])
        #expect(inspect.status == 0, "\(inspect.errorOutput)")
        let report = try #require(try JSONSerialization.jsonObject(with: inspect.stdout) as? [String: Any])
        let camera = try #require(report["camera"] as? [String: Any])
        #expect(camera["make"] as? String == "Nikon")
        #expect(camera["model"] as? String == "D850")
    }
}
