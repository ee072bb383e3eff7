import Foundation
import TestSupport
import Testing

/// `rawcap shoot --reconnect` against a camera that goes away and comes back with the same serial number, over
/// PTP/IP (`rawcap sim serve` power-cycled by its `disappear-after=` fault, asleep after `--sleep-after`, or
/// killed and started again on the same port) and on the fake USB bus (`rawcap sim usb`: the device leaves the
/// bus and a new one with the same serial number appears at the next address).
@Suite(.serialized, .timeLimit(.minutes(3))) struct ReconnectBinaryTests {
    static func jsonLines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    static func journal(_ folder: TemporaryDirectory) throws -> [[String: Any]] {
        jsonLines(try String(contentsOfFile: folder.file("rawcap-journal.jsonl").path, encoding: .utf8))
    }

    /// Each frame from 1 to `count` once: saved (its DNG) or missed, never both; returns the missed frames.
    @discardableResult
    static func expectEveryFrameOnce(_ lines: [[String: Any]], count: Int, sourceLocation: SourceLocation = #_sourceLocation)
        -> Set<Int>
    {
        let saved = lines.filter { ($0["path"] as? String)?.hasSuffix(".dng") == true }.compactMap { $0["frame"] as? Int }
        let missed = lines.filter { $0["event"] as? String == "shot-missed" }.compactMap { $0["frame"] as? Int }
        #expect(Set(saved).count == saved.count, "a frame saved twice: \(saved)", sourceLocation: sourceLocation)
        #expect(Set(saved).isDisjoint(with: missed), sourceLocation: sourceLocation)
        #expect(
            Set(saved).union(missed) == Set(1...count), "saved \(saved.sorted()), missed \(missed.sorted())",
            sourceLocation: sourceLocation)
        return Set(missed)
    }

    @Test func aPowerCycleOverPTPIPIsWaitedFor() async throws {
        let server = try await SimServeProcess.start(["--sensor", "96x64", "--fault", "disappear-after=2:1500ms"])
        let folder = try TemporaryDirectory("reconnect-ptpip")
        let result = try await Subprocess.runDetached(
            try RawcapBinary.path(),
            [
                "shoot", "--camera", "ptpip:127.0.0.1:\(server.port)", "--count", "4", "--keep-jpeg", "--reconnect",
                "--json", "-o", folder.url.path,
            ])
        _ = await server.stop()
        #expect(result.status == 0, "\(result.errorOutput)")
        let lines = Self.jsonLines(result.output)
        #expect(lines.filter { $0["event"] as? String == "camera-lost" }.count == 1, "\(result.output)")
        #expect(lines.filter { $0["event"] as? String == "camera-back" }.count == 1, "\(result.output)")
        let missed = Self.expectEveryFrameOnce(lines, count: 4)
        #expect(missed.isEmpty, "the shot being downloaded is fetched once the camera is back")
        #expect(lines.filter { ($0["path"] as? String)?.hasSuffix(".jpg") == true }.count == 4)
    }

    @Test(arguments: [false, true])
    func aCameraAsleepOverPTPIPIsWokenOrKeptAwake(keepAlive: Bool) async throws {
        // Asleep after 2 s without a request: a host starting late under load still finds it awake (or, without
        // a keep-alive, wakes it with its knock: the first connection is retried by --reconnect only once the
        // run has started, so the first one must find it awake).
        let server = try await SimServeProcess.start(["--sensor", "96x64", "--sleep-after", "2s"])
        let folder = try TemporaryDirectory("reconnect-sleep")
        let result = try await Subprocess.runDetached(
            try RawcapBinary.path(),
            [
                "shoot", "--camera", "ptpip:127.0.0.1:\(server.port)", "--count", "3", "--interval", "4s",
                "--reconnect", "--keep-alive", keepAlive ? "400ms" : "0", "--json", "-o", folder.url.path,
            ])
        _ = await server.stop()
        #expect(result.status == 0, "\(result.errorOutput)")
        let lines = Self.jsonLines(result.output)
        let lost = lines.filter { $0["event"] as? String == "camera-lost" }.count
        Self.expectEveryFrameOnce(lines, count: 3)
        if keepAlive {
            #expect(lost == 0, "the keep-alive keeps the camera awake: \(result.output)")
        } else {
            #expect(lost >= 1, "\(result.output)")
            #expect(lines.filter { $0["event"] as? String == "camera-back" }.count == lost)
        }
    }

    /// The server is stopped while the run waits between frames and started again on the same port a second
    /// later: the same serial number answers, the run goes on.
    @Test func aServerStoppedAndStartedAgainIsFoundAgain() async throws {
        let python = try ExternalTool.require("python3")
        let folder = try TemporaryDirectory("reconnect-restart")
        let script = """
            import json, signal, subprocess, sys, time
            rawcap, out = sys.argv[1], sys.argv[2]
            def serve(port):
                server = subprocess.Popen([rawcap, "sim", "serve", "--listen", f"127.0.0.1:{port}", "--json",
                                           "--sensor", "96x64"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
                return server, json.loads(server.stdout.readline())["port"]
            server, port = serve(0)
            shoot = subprocess.Popen([rawcap, "shoot", "--camera", f"ptpip:127.0.0.1:{port}", "--count", "6",
                                      "--interval", "1s", "--reconnect", "--json", "-o", out],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            first = shoot.stdout.readline() + shoot.stdout.readline()
            server.send_signal(signal.SIGTERM); server.wait(timeout=30)
            time.sleep(1.5)
            server, _ = serve(port)
            rest, err = shoot.communicate(timeout=120)
            server.send_signal(signal.SIGTERM); server.wait(timeout=30)
            sys.stdout.write(json.dumps({"status": shoot.returncode, "out": (first + rest).decode(),
                                         "err": err.decode()}))
            """
        let run = try await Subprocess.runDetached(python, ["-c", script, try RawcapBinary.path(), folder.url.path])
        #expect(run.status == 0, "\(run.errorOutput)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let status = report["status"] as? Int
        let out = report["out"] as? String ?? ""
        #expect(status == 0, "\(report["err"] ?? "")")
        let lines = Self.jsonLines(out)
        #expect(lines.contains { $0["event"] as? String == "camera-lost" }, "\(out)")
        #expect(lines.contains { $0["event"] as? String == "camera-back" }, "\(out)")
        Self.expectEveryFrameOnce(lines, count: 6)
    }

    @Test func aPowerCycleOnTheFakeUSBBusIsWaitedFor() async throws {
        try Umockdev.require()
        let folder = try TemporaryDirectory("reconnect-usb")
        let rawcap = try RawcapBinary.path()
        let result = try await Subprocess.runDetached(
            rawcap,
            [
                "sim", "usb", "--sensor", "96x64", "--fault", "disappear-after=2:1s", "--", rawcap, "shoot", "--camera",
                "usb", "--count", "4", "--keep-jpeg", "--reconnect", "--json", "-o", folder.url.path,
            ])
        #expect(result.status == 0, "\(result.errorOutput)")
        let lines = Self.jsonLines(result.output)
        #expect(lines.filter { $0["event"] as? String == "camera-lost" }.count == 1, "\(result.output)")
        #expect(lines.filter { $0["event"] as? String == "camera-back" }.count == 1, "\(result.output)")
        let missed = Self.expectEveryFrameOnce(lines, count: 4)
        #expect(missed.isEmpty)
        let journal = try Self.journal(folder)
        #expect(journal.last?["event"] as? String == "run-finished")
    }
}
