import Foundation
import PTP
import PTPRecord
import TestSupport
import Testing

/// gphoto2, an independent PTP/IP client, recorded at the camera side and then served the recording back, with the
/// camera in a process of its own (`PTPIPTestCamera`).
@Suite struct GPhoto2ReplayTests {
    @Test func aRecordedGphoto2SessionReplaysStrictlyToGphoto2() async throws {
        let folder = try TemporaryDirectory("gphoto2-replay")
        let path = folder.file("gphoto2.pcapng").path
        let recording = try await GPhoto2.startCamera(["--record", path])
        let live = try await GPhoto2.run(port: recording.port, ["--list-files", "--summary"], in: folder.url)
        _ = await recording.stop()
        #expect(live.status == 0, "\(live.output) \(live.errorOutput)")
        #expect(live.output.contains("IMG_0001.JPG"))

        let conversation = try PTPConversation.load(path: path)
        #expect(conversation.responderName == "MiniCam 1")
        #expect(conversation.transactions.first?.request.code == .openSession)
        #expect(conversation.transactions.contains { $0.request.code == .getObjectInfo })
        // The camera ran on a free port, not 15740: tell tshark's dissector where PTP/IP is.
        let tshark = try await Sessions.tshark([
            "-r", path, "-d", "tcp.port==\(recording.port),ptpip", "-Y", "ptpip.pktType == 6",
        ])
        #expect(tshark.status == 0)
        #expect(tshark.output.split(separator: "\n").count == conversation.transactions.count, "\(tshark.output)")

        let replay = try await GPhoto2.startCamera(["--replay", path, "--strict"])
        let replayed = try await GPhoto2.run(port: replay.port, ["--list-files", "--summary"], in: folder.url)
        let served = await replay.stop()
        #expect(replayed.status == 0, "\(replayed.output) \(replayed.errorOutput)")
        #expect(replayed.output == live.output)
        #expect(served.output.hasPrefix("served 1 clients, \(conversation.transactions.count) requests"))
        #expect(!served.errorOutput.contains("diverged"), "\(served.errorOutput)")
    }
}
