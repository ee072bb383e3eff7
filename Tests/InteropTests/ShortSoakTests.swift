import Foundation
import TestSupport
import Testing

/// `make soak` in small (Tests/Soak/soak.py): 200 RAW+JPEG frames from `rawcap sim serve` over PTP/IP in one
/// `rawcap shoot --reconnect --interval`, a fault every 20 shots (the `every=` schedule, sleeps and power cycles
/// included); every frame on disk exactly once or `shot-missed`, no object written twice, memory flat.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ShortSoakTests {
    @Test func twoHundredFramesWithAFaultEveryTwentySurviveInOneRun() async throws {
        let python = try ExternalTool.require("python3")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Soak/soak.py").path
        let result = try await Subprocess.runDetached(
            python,
            [
                script, try RawcapBinary.path(), "--frames", "200", "--every", "20", "--sensor", "96x64",
                "--interval", "200ms", "--inspect", "10",
            ])
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")
        #expect(result.output.contains("- verdict: ok"), "\(result.output)")
        #expect(result.output.contains("camera-back"), "\(result.output)")
    }
}
