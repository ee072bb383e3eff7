import Foundation
import TestSupport
import Testing

/// `shoot --reconnect` with the in-process emulated camera (`--camera sim`): it power-cycles (`disappear-after=`)
/// and comes back with the same serial number; frames due meanwhile are `shot-missed`; Ctrl-C ends the wait with
/// 130; without `--reconnect` the run fails as it always did (74).
@Suite(.serialized, .timeLimit(.minutes(3))) struct ReconnectCommandTests {
    static func journal(_ folder: TemporaryDirectory) throws -> [[String: Any]] {
        let text = try String(contentsOfFile: folder.file("rawcap-journal.jsonl").path, encoding: .utf8)
        return ScriptContractTests.jsonLines(text)
    }

    @Test func framesDueWhileTheCameraIsAwayAreMissedAndTheRunGoesOn() async throws {
        let folder = try TemporaryDirectory("reconnect-missed")
        let result = try await Subprocess.runDetached(
            try ScriptContractTests.rawcap(),
            [
                "shoot", "--camera", "sim", "--sim-sensor", "96x64", "--sim-fault", "disappear-after=2:1500ms",
                "--count", "6", "--interval", "400ms", "--reconnect", "--json", "-o", folder.url.path,
            ])
        #expect(result.status == 0, "\(result.errorOutput)")
        let lines = ScriptContractTests.jsonLines(result.output)
        let events = lines.compactMap { $0["event"] as? String }
        #expect(events.filter { $0 == "camera-lost" }.count == 1, "\(result.output)")
        #expect(events.filter { $0 == "camera-back" }.count == 1, "\(result.output)")
        let missedFrames = Set(lines.filter { $0["event"] as? String == "shot-missed" }.compactMap { $0["frame"] as? Int })
        let savedFrames = Set(lines.filter { $0["path"] != nil }.compactMap { $0["frame"] as? Int })
        #expect(!missedFrames.isEmpty, "\(result.output)")
        #expect(savedFrames.isDisjoint(with: missedFrames))
        #expect(savedFrames.union(missedFrames) == Set(1...6), "saved \(savedFrames), missed \(missedFrames)")
        #expect(result.errorOutput.contains("camera lost:"), "\(result.errorOutput)")
        #expect(result.errorOutput.contains("camera back after"), "\(result.errorOutput)")
        #expect(result.errorOutput.contains("frame(s) missed"), "\(result.errorOutput)")
        let journal = try Self.journal(folder)
        let journaled = journal.filter { $0["event"] as? String == "shot-missed" }.compactMap { $0["shot"] as? Int }
        #expect(Set(journaled.map { $0 + 1 }) == missedFrames)
        #expect(journal.last?["event"] as? String == "run-finished")
    }

    /// `tether --reconnect`: the camera power-cycles in the middle of a body shot's download; the run waits for it,
    /// fetches that shot again and goes on, every shot saved once.
    @Test func aTetherSurvivesAPowerCycle() async throws {
        let folder = try TemporaryDirectory("reconnect-tether")
        let result = try await Subprocess.runDetached(
            try ScriptContractTests.rawcap(),
            [
                "tether", "--camera", "sim", "--sim-sensor", "160x120", "--sim-press-every", "600ms",
                "--sim-fault", "disappear-after=2:1s", "--sim-quality", "raw+jpeg", "--count", "4", "--reconnect",
                "--json", "-o", folder.url.path,
            ])
        #expect(result.status == 0, "\(result.errorOutput)")
        let lines = ScriptContractTests.jsonLines(result.output)
        #expect(lines.filter { $0["event"] as? String == "camera-lost" }.count == 1, "\(result.output)")
        #expect(lines.filter { $0["event"] as? String == "camera-back" }.count == 1, "\(result.output)")
        let saved = lines.filter { $0["path"] != nil }.compactMap { $0["frame"] as? Int }
        #expect(saved == [1, 2, 3, 4], "each shot once, in order: \(saved)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".dng") }
        #expect(files.count == 4, "\(files)")
    }

    @Test func withoutReconnectTheRunEndsWith74() async throws {
        let folder = try TemporaryDirectory("reconnect-off")
        let result = try await Subprocess.runDetached(
            try ScriptContractTests.rawcap(),
            [
                "shoot", "--camera", "sim", "--sim-sensor", "96x64", "--sim-fault", "disappear-after=1:500ms",
                "--count", "3", "-o", folder.url.path,
            ])
        #expect(result.status == 74, "\(result.errorOutput)")
        #expect(try !Self.journal(folder).contains { $0["event"] as? String == "camera-lost" })
    }

    @Test func ctrlCDuringTheWaitExits130() async throws {
        let folder = try TemporaryDirectory("reconnect-sigint")
        let result = try await ScriptContractTests.runSignalled(
            "SIGINT", afterLine: true,
            [
                try ScriptContractTests.rawcap(), "shoot", "--camera", "sim", "--sim-sensor", "96x64", "--sim-fault",
                "disappear-after=1:60s", "--count", "3", "--reconnect", "--json", "-o", folder.url.path,
            ])
        #expect(result.status == 130, "\(result.errorOutput)")
        let first = ScriptContractTests.jsonLines(result.output).first
        #expect(first?["event"] as? String == "camera-lost", "\(result.output)")
        #expect(result.errorOutput.contains("waiting for it to come back"), "\(result.errorOutput)")
        let journal = try Self.journal(folder)
        #expect(journal.last?["event"] as? String == "run-failed")
        #expect(journal.last?["code"] as? String == "interrupted")
    }

    @Test func theReconnectTimeoutEndsTheWaitWith74() async throws {
        let folder = try TemporaryDirectory("reconnect-timeout")
        let started = ContinuousClock.now
        let result = try await Subprocess.runDetached(
            try ScriptContractTests.rawcap(),
            [
                "shoot", "--camera", "sim", "--sim-sensor", "96x64", "--sim-fault", "disappear-after=1:60s",
                "--count", "3", "--reconnect", "--reconnect-timeout", "2s", "-o", folder.url.path,
            ])
        #expect(result.status == 74, "\(result.errorOutput)")
        #expect(result.errorOutput.contains("did not come back within"), "\(result.errorOutput)")
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    /// `pull --reconnect`: the link breaks in the middle of the first download (the hostile personality puts a
    /// RAW+JPEG shot on its card at once); the pull goes on with what it has not written, each file once.
    @Test func aPullGoesOnAfterTheLinkBreaks() async throws {
        let folder = try TemporaryDirectory("reconnect-pull")
        let arguments = [
            "pull", "--all", "--camera", "sim", "--sim-model", "hostile", "--sim-sensor", "160x120", "--sim-fault",
            "disconnect-after=20000", "--json", "-o", folder.url.path,
        ]
        let rawcap = try ScriptContractTests.rawcap()
        let without = try await Subprocess.runDetached(rawcap, arguments)
        #expect(without.status == 74, "\(without.errorOutput)")
        let result = try await Subprocess.runDetached(rawcap, arguments + ["--reconnect"])
        #expect(result.status == 0, "\(result.errorOutput)")
        let lines = ScriptContractTests.jsonLines(result.output)
        #expect(lines.filter { $0["event"] as? String == "camera-lost" }.count == 1, "\(result.output)")
        #expect(lines.filter { $0["event"] as? String == "camera-back" }.count == 1, "\(result.output)")
        let saved = lines.compactMap { $0["cameraFile"] as? String }
        #expect(saved.count == 2 && Set(saved).count == 2, "\(result.output)")
        #expect(result.errorOutput.contains("rawcap pull: 2 files"), "\(result.errorOutput)")
    }

    @Test(arguments: [
        (["--reconnect-timeout", "5s"], "--reconnect-timeout needs --reconnect"),
        (["--reconnect", "--reconnect-timeout", "soon"], "--reconnect-timeout soon"),
        (["--keep-alive", "often"], "--keep-alive often"),
    ])
    func badReconnectOptionsAreRefused(arguments: [String], message: String) async throws {
        let folder = try TemporaryDirectory("reconnect-options")
        let result = try await Subprocess.runDetached(
            try ScriptContractTests.rawcap(), ["shoot", "--camera", "sim", "-o", folder.url.path] + arguments)
        #expect(result.status == 64, "\(result.errorOutput)")
        #expect(result.errorOutput.contains(message), "\(result.errorOutput)")
    }
}
