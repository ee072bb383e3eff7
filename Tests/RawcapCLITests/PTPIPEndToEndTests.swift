import Foundation
import PTPRecord
import TestSupport
import Testing

/// The built `rawcap` against a PTP/IP camera in another process (`PTPIPTestCamera`), recorded, then replayed
/// strictly from the recording: PTP/IP, `--record` and `--camera replay:` end to end.
@Suite struct PTPIPEndToEndTests {
    static func rawcap(_ arguments: [String]) async throws -> Subprocess.Result {
        let path = try #require(ChildProcess.builtProduct(named: "rawcap"), "the rawcap binary was not built")
        return try await Subprocess.runDetached(path, arguments)
    }

    /// The report without its first line, which names the link (and so differs between a camera and its replay).
    static func withoutLinkLine(_ text: String) -> [Substring] {
        Array(text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst())
    }

    @Test func infoOverPTPIPIsRecordedAndReplaysStrictly() async throws {
        let folder = try TemporaryDirectory("cli-ptpip")
        let recording = folder.file("minicam.pcapng").path
        let camera = try await GPhoto2.startCamera()
        let live = try await Self.rawcap([
            "info", "--camera", "ptpip:127.0.0.1:\(camera.port)", "--record", recording, "--timeout", "30",
        ])
        let served = await camera.stop()
        #expect(live.status == 0, "\(live.errorOutput)")
        #expect(live.output.hasPrefix("Camera        ptpip:127.0.0.1:\(camera.port), \"MiniCam 1\""), "\(live.output)")
        #expect(live.output.contains("ExposureIndex"))
        #expect(served.output.hasPrefix("served 1 clients"))

        let conversation = try PTPConversation.load(path: recording)
        #expect(conversation.transport == .ptpip && conversation.responderName == "MiniCam 1")

        let replayed = try await Self.rawcap(["info", "--camera", "replay:\(recording)", "--replay-mode", "strict"])
        #expect(replayed.status == 0, "\(replayed.errorOutput)")
        #expect(replayed.output.hasPrefix("Camera        replay:\(recording), strict replay of MiniCam 1"))
        #expect(Self.withoutLinkLine(replayed.output) == Self.withoutLinkLine(live.output))

        // --json sends the same requests, so the strict replay serves it too.
        let json = try await Self.rawcap([
            "info", "--camera", "replay:\(recording)", "--replay-mode", "strict", "--json",
        ])
        #expect(json.status == 0, "\(json.errorOutput)")
        // One object on one line, as every command's --json (docs/json.md).
        #expect(json.output.contains("\"model\":\"MiniCam 1\"") && json.output.split(separator: "\n").count == 1)
    }

    @Test func nothingAtTheAddressExitsWith69() async throws {
        let result = try await Self.rawcap(["info", "--camera", "ptpip:127.0.0.1:9", "--timeout", "5"])
        #expect(result.status == 69)
        #expect(result.errorOutput.contains("No PTP/IP camera answers there"))
    }

    @Test func aStrictReplayThatDivergesExitsWith74() async throws {
        // The Sony trace holds OpenSession and GetDeviceInfo, as `rawcap info` asks them; then it ends.
        let sony = ExternalTool.packageRoot.appendingPathComponent(
            "Fixtures/traces/sony-rx100m7-ptpip/connect-getdeviceinfo.pcapng"
        ).path
        let result = try await Self.rawcap(["info", "--camera", "replay:\(sony)", "--replay-mode", "strict"])
        #expect(result.status == 74)
        #expect(result.errorOutput.contains("expected the end of the recording, received GetStorageIDs() tid 2"))
    }
}
