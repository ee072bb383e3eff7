import Foundation
import TestSupport
import Testing

/// A vendor raw file another program (gphoto2) downloaded, read back by rawcap: `rawcap convert` writes its DNG and
/// `rawcap inspect --json` names the camera it came from.
enum DownloadedRawFile {
    /// The camera `rawcap inspect --json` reports for the DNG `rawcap convert` made of `name` in `folder`.
    static func camera(_ name: String, in folder: TemporaryDirectory) async throws -> (make: String?, model: String?) {
        let rawcap = try RawcapBinary.path()
        let output = folder.file("converted")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let convert = try await Subprocess.runDetached(rawcap, ["convert", folder.file(name).path, "-o", output.path])
        #expect(convert.status == 0, "rawcap convert \(name): \(convert.errorOutput)")
        let stem = (name as NSString).deletingPathExtension
        let inspect = try await Subprocess.runDetached(
            rawcap, ["inspect", "--json", output.appendingPathComponent("\(stem).dng").path])
        #expect(inspect.status == 0, "rawcap inspect \(stem).dng: \(inspect.errorOutput)")
        let report = try #require(try JSONSerialization.jsonObject(with: inspect.stdout) as? [String: Any])
        let camera = try #require(report["camera"] as? [String: Any])
        return (camera["make"] as? String, camera["model"] as? String)
    }

    /// Whether the file `name` in `folder` is a whole JPEG: SOI at the start, EOI at the end.
    static func isJPEG(_ name: String, in folder: TemporaryDirectory) throws -> Bool {
        let bytes = try Data(contentsOf: folder.file(name))
        return bytes.prefix(3) == Data([0xFF, 0xD8, 0xFF]) && bytes.suffix(2) == Data([0xFF, 0xD9])
    }
}
