import Foundation
import TestSupport
import Testing

/// rawcap's own client against the emulated camera over every reach — in process (`--camera sim`), fake USB
/// (`rawcap sim usb -- rawcap … --camera usb`) and PTP/IP (`rawcap sim serve`) — each session recorded with
/// `--record` and then replayed strictly: the replay must accept exactly the requests rawcap sent and give the same
/// report.
@Suite(.serialized, .timeLimit(.minutes(3))) struct RawcapClientReachTests {
    enum Reach: String, CaseIterable, CustomStringConvertible {
        case inProcess, fakeUSB, ptpip
        var description: String { rawValue }
    }

    /// Runs `rawcap info --json --record FILE` over `reach`.
    static func infoRecorded(_ reach: Reach, to recording: URL) async throws -> Subprocess.Result {
        let rawcap = try RawcapBinary.path()
        let info = ["info", "--json", "--record", recording.path]
        switch reach {
        case .inProcess:
            return try await Subprocess.runDetached(rawcap, info + ["--camera", "sim", "--sim-sensor", "640x480"])
        case .fakeUSB:
            try Umockdev.require()
            return try await Subprocess.runDetached(
                rawcap, ["sim", "usb", "--sensor", "640x480", "--", rawcap] + info + ["--camera", "usb"])
        case .ptpip:
            let server = try await SimServeProcess.start(["--sensor", "640x480"])
            let result = try await Subprocess.runDetached(
                rawcap, info + ["--camera", "ptpip:127.0.0.1:\(server.port)"])
            let stopped = await server.stop()
            #expect(stopped.status == 0, "\(stopped.errorOutput)")
            return result
        }
    }

    @Test(arguments: Reach.allCases)
    func infoRecordsAndReplaysStrictly(reach: Reach) async throws {
        let folder = try TemporaryDirectory("reach")
        let recording = folder.file("session.pcapng")
        let live = try await Self.infoRecorded(reach, to: recording)
        #expect(live.status == 0, "\(live.errorOutput)")
        let report = try #require(try JSONSerialization.jsonObject(with: live.stdout) as? [String: Any])
        let device = try #require(report["device"] as? [String: Any])
        #expect(device["model"] as? String == "Emulated Camera")
        #expect(device["manufacturer"] as? String == "rawcap")
        let properties = try #require(report["properties"] as? [[String: Any]])
        #expect(properties.count >= 10)
        #expect(properties.allSatisfy { $0["error"] == nil }, "every property described")
        let storages = try #require(report["storages"] as? [[String: Any]])
        #expect(storages.count == 2)

        let replay = try await Subprocess.runDetached(
            try RawcapBinary.path(),
            ["info", "--json", "--camera", "replay:\(recording.path)", "--replay-mode", "strict"])
        #expect(replay.status == 0, "\(replay.errorOutput)")
        var replayed = try #require(try JSONSerialization.jsonObject(with: replay.stdout) as? [String: Any])
        var recorded = report
        // Only where the camera is differs; what it said is the recording's, answer for answer.
        replayed["camera"] = nil
        recorded["camera"] = nil
        #expect(NSDictionary(dictionary: replayed).isEqual(to: recorded), "\(replay.output)")
    }

    /// `rawcap sim serve --from replay:FILE`: a recording of the emulator served as a PTP/IP camera answers rawcap
    /// (twice: each client starts from the top) and gphoto2 like the camera did.
    @Test func aRecordingServedOverPTPIPAnswersLikeTheCamera() async throws {
        let folder = try TemporaryDirectory("reach")
        let recording = folder.file("session.pcapng")
        let live = try await Self.infoRecorded(.inProcess, to: recording)
        #expect(live.status == 0, "\(live.errorOutput)")
        var recorded = try #require(try JSONSerialization.jsonObject(with: live.stdout) as? [String: Any])
        recorded["camera"] = nil

        let server = try await SimServeProcess.start(["--from", "replay:\(recording.path)"])
        #expect(server.listeningLine["source"] as? String == "replay:\(recording.path)")
        #expect(server.listeningLine["camera"] as? String == "Emulated Camera")
        for client in 1...2 {
            let replay = try await Subprocess.runDetached(
                try RawcapBinary.path(), ["info", "--json", "--camera", "ptpip:127.0.0.1:\(server.port)"])
            #expect(replay.status == 0, "client \(client): \(replay.errorOutput)")
            var replayed = try #require(try JSONSerialization.jsonObject(with: replay.stdout) as? [String: Any])
            replayed["camera"] = nil
            #expect(NSDictionary(dictionary: replayed).isEqual(to: recorded), "client \(client): \(replay.output)")
        }
        let summary = try await GPhoto2.run(port: server.port, ["--summary"], in: folder.url)
        let stopped = await server.stop()
        #expect(summary.status == 0, "\(summary.output)\n\(summary.errorOutput)")
        #expect(summary.output.contains("Model: Emulated Camera"), "\(summary.output)")
        #expect(summary.output.contains("RAWCAP"), "\(summary.output)")
        #expect(stopped.status == 0, "\(stopped.errorOutput)")
    }

    /// `rawcap sim serve --record FILE` records the server's side of every connection; rawcap replays it strictly.
    @Test func theServersRecordingReplaysStrictly() async throws {
        let folder = try TemporaryDirectory("reach")
        let recording = folder.file("served.pcapng")
        let server = try await SimServeProcess.start(["--sensor", "640x480", "--record", recording.path])
        let live = try await Subprocess.runDetached(
            try RawcapBinary.path(), ["info", "--json", "--camera", "ptpip:127.0.0.1:\(server.port)"])
        let stopped = await server.stop()
        #expect(live.status == 0, "\(live.errorOutput)")
        #expect(stopped.status == 0, "\(stopped.errorOutput)")
        var recorded = try #require(try JSONSerialization.jsonObject(with: live.stdout) as? [String: Any])
        let replay = try await Subprocess.runDetached(
            try RawcapBinary.path(),
            ["info", "--json", "--camera", "replay:\(recording.path)", "--replay-mode", "strict"])
        #expect(replay.status == 0, "\(replay.errorOutput)")
        var replayed = try #require(try JSONSerialization.jsonObject(with: replay.stdout) as? [String: Any])
        recorded["camera"] = nil
        replayed["camera"] = nil
        #expect(NSDictionary(dictionary: replayed).isEqual(to: recorded), "\(replay.output)")

        let again = try await Subprocess.runDetached(
            try RawcapBinary.path(), ["sim", "serve", "--listen", "127.0.0.1:0", "--record", recording.path])
        #expect(again.status == 73, "an existing recording is never overwritten: \(again.errorOutput)")
        #expect(again.errorOutput.hasPrefix("rawcap sim serve: cannot record"), "\(again.errorOutput)")
    }
}
