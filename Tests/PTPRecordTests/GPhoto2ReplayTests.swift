import Dispatch
import Foundation
import PTP
import PTPIP
import PTPRecord
import PTPTestSupport
import TestSupport
import Testing

/// gphoto2, an independent PTP/IP client, recorded at the camera side and then served the recording back.
@Suite struct GPhoto2ReplayTests {
    /// Runs gphoto2 with `arguments` against a listener serving `makeResponder`, recording every connection on the
    /// server side when `recorder` is given.
    static func gphoto2(
        _ arguments: [String], in folder: TemporaryDirectory, recorder: PcapngRecorder? = nil,
        makeResponder: @escaping PTPIPServer.ResponderFactory
    ) async throws -> (Subprocess.Result, PTPIPServer, port: UInt16) {
        let executable = try ExternalTool.require("gphoto2")
        let server = PTPIPServer(
            configuration: .init(device: .init(friendlyName: "MiniCam 1")), makeResponder: makeResponder)
        var wrap: PTPIPListener.ConnectionWrapper?
        if let recorder {
            wrap = { (stream: TCPByteStream) async throws -> any ByteStream in
                let client = TCPEndpoint(address: stream.remoteAddress.addressBytes, port: stream.remoteAddress.port)
                let server = TCPEndpoint(address: stream.localAddress.addressBytes, port: stream.localAddress.port)
                return try await RecordingByteStream.start(
                    wrapping: stream, recorder: recorder, client: client, server: server, side: .server)
            }
        }
        let listener = try PTPIPListener(address: .loopback(port: 0), server: server, wrapConnection: wrap)
        let running = Task { await listener.run() }
        let port = listener.localAddress.port
        let all = ["--port", "ptpip:127.0.0.1:\(port):\(port)", "--camera", "PTP/IP Camera"] + arguments
        let home = folder.url.path
        let result = try await withCheckedThrowingContinuation { continuation in
            // A blocking call: on a dispatch thread, so the server keeps the Swift pool's threads meanwhile.
            DispatchQueue(label: "rawcap.test.gphoto2").async {
                continuation.resume(
                    with: Result {
                        try Subprocess.run(executable, all, environment: ["HOME": home], currentDirectory: folder.url)
                    })
            }
        }
        await server.waitForFinishedClients(1)
        await listener.stop()
        await running.value
        return (result, server, port)
    }

    @Test func aRecordedGphoto2SessionReplaysStrictlyToGphoto2() async throws {
        let folder = try TemporaryDirectory("gphoto2-replay")
        let path = folder.file("gphoto2.pcapng").path
        let recorder = try PcapngRecorder(path: path, configuration: .init(rawcapVersion: "test"))
        let (live, _, port) = try await Self.gphoto2(["--list-files", "--summary"], in: folder, recorder: recorder) {
            _ in
            MiniCamera()
        }
        await recorder.close()
        #expect(live.status == 0, "\(live.errorOutput)")
        #expect(live.output.contains("IMG_0001.JPG"))

        let conversation = try PTPConversation.load(path: path)
        #expect(conversation.responderName == "MiniCam 1")
        #expect(conversation.transactions.first?.request.code == .openSession)
        #expect(conversation.transactions.contains { $0.request.code == .getObjectInfo })
        // The listener ran on a free port, not 15740: tell tshark's dissector where PTP/IP is.
        let tshark = try Sessions.tshark(["-r", path, "-d", "tcp.port==\(port),ptpip", "-Y", "ptpip.pktType == 6"])
        #expect(tshark.status == 0)
        #expect(tshark.output.split(separator: "\n").count == conversation.transactions.count, "\(tshark.output)")

        let (replayed, server, _) = try await Self.gphoto2(["--list-files", "--summary"], in: folder) { _ in
            ReplayResponder(conversation: conversation, mode: .strict)
        }
        #expect(replayed.status == 0, "\(replayed.errorOutput)")
        #expect(replayed.output == live.output)
        #expect(await server.finishedClients.first?.requests.count == conversation.transactions.count)
    }
}
