import Dispatch
import Foundation
import PTP
import PTPIP
import PTPTestSupport
import TestSupport
import Testing

/// Debian's gphoto2 as an independent PTP/IP client of the listener (PTP notes §3.3).
@Suite struct GPhoto2InteropTests {
    /// Runs gphoto2 against a fresh listener serving a ``MiniCamera``; returns its result and the server.
    static func gphoto2(
        _ arguments: [String], camera: MiniCamera = MiniCamera(), in folder: TemporaryDirectory
    ) async throws -> (Subprocess.Result, PTPIPServer) {
        let executable = try ExternalTool.require("gphoto2")
        let server = PTPIPServer(responder: camera, configuration: .init(device: .init(friendlyName: "MiniCam 1")))
        let listener = try PTPIPListener(address: .loopback(port: 0), server: server)
        let running = Task { await listener.run() }
        let port = listener.localAddress.port
        // gphoto2 sends the event connection to 15740 unless the port string names it (notes §3.3 item 1).
        let all = ["--port", "ptpip:127.0.0.1:\(port):\(port)", "--camera", "PTP/IP Camera"] + arguments
        let home = folder.url.path
        let result = try await runOffThePool {
            // HOME in a temporary folder: gphoto2 stores its own GUID in ~/.gphoto/settings.
            try Subprocess.run(executable, all, environment: ["HOME": home], currentDirectory: folder.url)
        }
        await server.waitForFinishedClients(1)
        await listener.stop()
        await running.value
        return (result, server)
    }

    /// Runs a blocking call on a dispatch thread, so the server keeps the Swift pool's threads meanwhile.
    static func runOffThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue(label: "rawcap.test.gphoto2").async {
                continuation.resume(with: Result { try body() })
            }
        }
    }

    @Test func summaryReadsTheDeviceInfoAndStorage() async throws {
        let folder = try TemporaryDirectory("gphoto2")
        let (result, server) = try await Self.gphoto2(["--summary"], in: folder)
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")
        #expect(result.output.contains("MiniCam 1"))
        #expect(result.output.contains("rawcap tests"))
        #expect(result.output.contains("MINICAM"), "the storage's volume label")
        let requests = try #require(await server.finishedClients.first?.requests)
        #expect(requests.first?.code == .openSession)
        #expect(requests.contains { $0.code == .getStorageInfo })
    }

    @Test func listFilesAndGetAllFilesSeeThePicture() async throws {
        let folder = try TemporaryDirectory("gphoto2")
        let (list, _) = try await Self.gphoto2(["--list-files"], in: folder)
        #expect(list.status == 0, "\(list.output)\n\(list.errorOutput)")
        #expect(list.output.contains("IMG_0001.JPG"))
        let (get, _) = try await Self.gphoto2(["--get-all-files", "--force-overwrite"], in: folder)
        #expect(get.status == 0, "\(get.output)\n\(get.errorOutput)")
        let downloaded = try Data(contentsOf: folder.file("IMG_0001.JPG"))
        #expect(
            Array(downloaded)
                == MiniCamera.pictureBytes(byteCount: 3000, seed: MiniCamera.firstHandle.rawValue))
    }
}
