import Foundation
import TestSupport
import Testing

/// `rawcap sim usb -- gphoto2 …`: the emulated camera as a fake USB device (umockdev) that gphoto2's libusb finds
/// and drives, in processes of their own.
@Suite(.serialized, .timeLimit(.minutes(3))) struct GPhoto2SimUSBTests {
    /// Runs `rawcap sim usb OPTIONS -- COMMAND…` in `folder`, with HOME there (gphoto2 keeps settings in ~/.gphoto).
    static func simUSB(_ options: [String], _ command: [String], in folder: URL) async throws -> Subprocess.Result {
        try Umockdev.require()
        return try await Subprocess.runDetached(
            try RawcapBinary.path(), ["sim", "usb"] + options + ["--"] + command, environment: ["HOME": folder.path],
            currentDirectory: folder)
    }

    @Test func autoDetectListsTheCamera() async throws {
        let gphoto2 = try ExternalTool.require("gphoto2")
        let folder = try TemporaryDirectory("sim-usb")
        let result = try await Self.simUSB([], [gphoto2, "--auto-detect"], in: folder.url)
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")
        #expect(result.output.contains("usb:001,002"), "\(result.output)")
        let summary = try await Self.simUSB([], [gphoto2, "--summary"], in: folder.url)
        #expect(summary.status == 0, "\(summary.output)\n\(summary.errorOutput)")
        #expect(summary.output.contains("Model: Emulated Camera"), "\(summary.output)")
    }

    /// RAW+JPEG over USB: the capture downloads both files, and a second gphoto2 (a new USB session on the same
    /// card) gets the same bytes with `--get-all-files`.
    @Test func captureImageAndDownloadRawPlusJPEG() async throws {
        let gphoto2 = try ExternalTool.require("gphoto2")
        let folder = try TemporaryDirectory("sim-usb")
        let captured = folder.file("captured")
        let all = folder.file("all")
        try FileManager.default.createDirectory(at: captured, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: all, withIntermediateDirectories: true)
        let script = """
            set -e
            cd "$1"
            "$3" --set-config-index imagequality=2 --capture-image-and-download --keep --filename 'shot-%f.%C'
            cd "$2"
            "$3" --get-all-files
            """
        let result = try await Self.simUSB(
            ["--sensor", "640x480", "--event-order", "gphoto2"],
            ["/bin/sh", "-c", script, "sh", captured.path, all.path, gphoto2], in: folder.url)
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")
        for name in ["RCAP0001.TIF", "RCAP0001.JPG"] {
            let stem = name.prefix { $0 != "." }
            let suffix = name.split(separator: ".").last.map(String.init) ?? ""
            let shot = try Data(contentsOf: captured.appendingPathComponent("shot-\(stem).\(suffix)"))
            let fetched = try Data(contentsOf: all.appendingPathComponent(name))
            #expect(shot == fetched, "\(name)")
            #expect(shot.count > 10_000, "\(name)")
        }
        let raw = try Data(contentsOf: all.appendingPathComponent("RCAP0001.TIF"))
        #expect(Array(raw.prefix(4)) == [0x49, 0x49, 0x2A, 0x00])
        let jpeg = try Data(contentsOf: all.appendingPathComponent("RCAP0001.JPG"))
        #expect(Array(jpeg.prefix(2)) == [0xFF, 0xD8] && Array(jpeg.suffix(2)) == [0xFF, 0xD9])
    }
}
