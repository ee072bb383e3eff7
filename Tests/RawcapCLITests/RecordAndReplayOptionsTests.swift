import ArgumentParser
import Foundation
import PTP
import PTPIP
import PTPRecord
import TestSupport
import Testing

@testable import RawcapCLI

/// `--camera ptpip:` and `replay:`, `--record` and `--replay-mode`: parsing, the connector in-process, and the exit
/// statuses of their failures.
@Suite struct RecordAndReplayOptionsTests {
    static var sony: String {
        ExternalTool.packageRoot.appendingPathComponent(
            "Fixtures/traces/sony-rx100m7-ptpip/connect-getdeviceinfo.pcapng"
        ).path
    }

    @Test func theOptionsParse() throws {
        let parsed = try RawcapCommand.parseAsRoot([
            "info", "--camera", "replay:trace.pcapng", "--replay-mode", "strict", "--record", "again.pcapng",
        ])
        let info = try #require(parsed as? RawcapCommand.Info)
        #expect(info.connection.camera == .replay(path: "trace.pcapng"))
        #expect(info.connection.replayMode == .strict)
        #expect(info.connection.record == "again.pcapng")
        let defaults = try #require(try RawcapCommand.parseAsRoot(["info"]) as? RawcapCommand.Info)
        #expect(defaults.connection.record == nil && defaults.connection.replayMode == nil)
    }

    @Test(arguments: [
        ["info", "--replay-mode", "strict"],
        ["info", "--camera", "ptpip:10.0.0.2", "--replay-mode", "lenient"],
        ["info", "--camera", "replay:x.pcapng", "--replay-mode", "sloppy"],
        ["info", "--camera", "replay:x.pcapng", "--record", "x.pcapng"],
        ["info", "--record", ""],
    ])
    func badCombinationsAreUsageErrors(arguments: [String]) {
        do {
            _ = try RawcapCommand.parseAsRoot(arguments)
            Issue.record("\(arguments) parsed")
        } catch {
            #expect(RawcapCommand.exitCode(for: error) == ExitCode(64), "\(arguments)")
        }
    }

    @Test func failuresHaveTheirExitStatus() {
        let mismatch = ReplayMismatch(
            index: 2, expected: nil, received: PTPRequest(code: .getObject, transactionID: 3),
            receivedDataOutByteCount: nil, difference: "the recording has no more transactions")
        let cases: [(any Error, Int32, String)] = [
            (PcapError(.truncated, at: 40, "block cut"), 65, "cannot be read"),
            (RecordError(.streamGap, "hole"), 65, "no usable PTP session"),
            (RecordError(.ioError, "cannot create x: File exists"), 73, "File exists"),
            (
                TransportError(
                    .ioError,
                    underlyingError: PTPIPConnectFailure(
                        address: PTPIPAddress(host: "10.0.0.2"), reason: ByteStreamError(.reset, "refused"))),
                69, "No PTP/IP camera"
            ),
            (TransportError(.ioError, underlyingError: mismatch, "\(mismatch)"), 74, "left the recording"),
        ]
        for (error, status, words) in cases {
            let failure = CameraFailure(error)
            #expect(failure.exitCode == ExitCode(status), "\(error)")
            #expect(failure.message.contains(words), "\(failure.message)")
        }
    }

    @Test func theConnectorReplaysAndRecordsAReplay() async throws {
        let folder = try TemporaryDirectory("cli-replay")
        let record = folder.file("again.pcapng").path
        var options = try #require(
            try RawcapCommand.parseAsRoot(["info", "--camera", "replay:\(Self.sony)", "--record", record])
                as? RawcapCommand.Info
        ).connection
        let camera = try await CameraConnector.connect(options)
        let report = try await CameraInfoReport.gather(session: camera.session, link: camera.link)
        await camera.close()
        #expect(report.device.model == "DSC-RX100M7")
        #expect(report.camera?.transport == "replay" && report.camera?.replayMode == "lenient")
        #expect(report.text().contains("lenient replay of DSC-RX100M7"))

        // The new recording is rawcap's own session: it replays strictly to the same report.
        let again = try PTPConversation.load(path: record)
        #expect(again.transport == .usb && again.cameraModel == "DSC-RX100M7")
        options.camera = .replay(path: record)
        options.record = nil
        options.replayMode = .strict
        let strict = try await CameraConnector.connect(options)
        let replayed = try await CameraInfoReport.gather(session: strict.session, link: strict.link)
        await strict.close()
        #expect(replayed.device.model == report.device.model)
        #expect(replayed.operations.map(\.code) == report.operations.map(\.code))
        #expect(replayed.notes == report.notes)
    }
}
