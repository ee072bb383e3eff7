import Foundation
import PTP
import PTPIP
import PTPTestSupport
import TestSupport
import Testing

/// Debian's gphoto2 as an independent PTP/IP client of the listener (PTP notes §3.3), against `PTPIPTestCamera`:
/// the listener serving a ``MiniCamera`` in a process of its own.
@Suite struct GPhoto2InteropTests {
    @Test func summaryReadsTheDeviceInfoAndStorage() async throws {
        let folder = try TemporaryDirectory("gphoto2")
        let camera = try await GPhoto2.startCamera()
        let result = try await GPhoto2.run(port: camera.port, ["--summary"], in: folder.url)
        let served = await camera.stop()
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")
        #expect(result.output.contains("MiniCam 1"))
        #expect(result.output.contains("rawcap tests"))
        #expect(result.output.contains("MINICAM"), "the storage's volume label")
        #expect(served.output.hasPrefix("served 1 clients"), "\(served.output) \(served.errorOutput)")
    }

    @Test func listFilesAndGetAllFilesSeeThePicture() async throws {
        let folder = try TemporaryDirectory("gphoto2")
        let camera = try await GPhoto2.startCamera()
        let list = try await GPhoto2.run(port: camera.port, ["--list-files"], in: folder.url)
        let get = try await GPhoto2.run(port: camera.port, ["--get-all-files", "--force-overwrite"], in: folder.url)
        let served = await camera.stop()
        #expect(list.status == 0, "\(list.output)\n\(list.errorOutput)")
        #expect(list.output.contains("IMG_0001.JPG"))
        #expect(get.status == 0, "\(get.output)\n\(get.errorOutput)")
        let downloaded = try Data(contentsOf: folder.file("IMG_0001.JPG"))
        #expect(Array(downloaded) == MiniCamera.pictureBytes(byteCount: 3000, seed: MiniCamera.firstHandle.rawValue))
        #expect(served.output.hasPrefix("served 2 clients"), "one client after another")
    }
}
