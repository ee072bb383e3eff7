import Foundation
import TestSupport
import Testing

@testable import RawcapCLI

/// The contract scripts rely on (issue 18, "Scripts"), checked on the built binary: with `--json` every failure
/// also prints the error object on standard output, two runs into one folder lose nothing, `--timeout` bounds a
/// dataset, SIGTERM ends a command as Ctrl-C does, a full disk while journaling is a full disk, stale temporaries
/// are cleaned up.
@Suite(.serialized) struct ScriptContractTests {
    static func rawcap() throws -> String {
        try #require(ChildProcess.builtProduct(named: "rawcap"), "the rawcap binary was not built")
    }

    static func jsonLines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    static func journal(_ folder: URL) throws -> [[String: Any]] {
        jsonLines(try String(contentsOf: folder.appendingPathComponent("rawcap-journal.jsonl"), encoding: .utf8))
    }

    /// The error object of the last line of `output`, checked against `command` and `status`.
    static func expectErrorObject(
        _ output: String, command: String, status: Int32, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let last = output.split(separator: "\n").last.map(String.init) ?? ""
        let object = (try? JSONSerialization.jsonObject(with: Data(last.utf8))) as? [String: Any]
        let error = object?["error"] as? [String: Any]
        #expect(
            error != nil, "no error object last on standard output: \(output.debugDescription)",
            sourceLocation: sourceLocation)
        #expect(error?["command"] as? String == command, "\(last)", sourceLocation: sourceLocation)
        #expect(error?["exitStatus"] as? Int == Int(status), "\(last)", sourceLocation: sourceLocation)
        #expect((error?["message"] as? String)?.isEmpty == false, "\(last)", sourceLocation: sourceLocation)
        #expect(
            error?["code"] as? String == CommandFailure.Code(status: status).rawValue, "\(last)",
            sourceLocation: sourceLocation)
    }

    /// A TCP port on 127.0.0.1 that refuses connections (bound, not listening), and the socket that holds it.
    static func refusingPort() throws -> (port: UInt16, socket: Int32) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        try #require(bound)
        return (UInt16(bigEndian: address.sin_port), listener)
    }

    // MARK: The JSON error contract

    @Test func everyCameraCommandPrintsTheErrorObjectWithJSON() async throws {
        let folder = try TemporaryDirectory("json-errors")
        let (port, held) = try Self.refusingPort()
        defer { close(held) }
        let nowhere = "ptpip:127.0.0.1:\(port)"
        let aFile = folder.file("a-file")
        try Data("x".utf8).write(to: aFile)
        let out = folder.file("out").path
        let sim = ["--camera", "sim", "--sim-sensor", "160x120"]
        let cases: [(arguments: [String], command: String, status: Int32)] = [
            (["shoot", "--camera", nowhere, "--json", "-o", out], "shoot", 69),
            (["shoot"] + sim + ["--json", "-o", aFile.path], "shoot", 73),
            (["shoot"] + sim + ["--sim-fault", "card-full", "--json", "-o", out], "shoot", 73),
            (["ls", "--camera", nowhere, "--json", "-o", out], "ls", 69),
            (["pull", "--all", "--camera", nowhere, "--json", "-o", out], "pull", 69),
        ]
        for (arguments, command, status) in cases {
            let result = try await Subprocess.runDetached(try Self.rawcap(), arguments)
            #expect(result.status == status, "\(arguments): \(result.errorOutput)")
            Self.expectErrorObject(result.output, command: command, status: status)
            // Standard error keeps its one line.
            #expect(result.errorOutput.contains("rawcap \(command): "), "\(result.errorOutput)")
        }
    }

    @Test func simServeOnATakenPortPrintsTheErrorObject() async throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        let (port, held) = try Self.refusingPort()
        close(held)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let listening = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 && listen(listener, 1) == 0
            }
        }
        try #require(listening)
        let result = try await Subprocess.runDetached(
            try Self.rawcap(), ["sim", "serve", "--listen", "127.0.0.1:\(port)", "--json"])
        #expect(result.status == 69, "\(result.errorOutput)")
        Self.expectErrorObject(result.output, command: "sim serve", status: 69)
    }

    /// PTP/IP serves one client at a time: a second program gets Init Fail "Busy", which is exit 75 (try again
    /// later) with advice, as a USB camera another program holds is.
    @Test func aPTPIPCameraBusyWithAnotherClientExits75() async throws {
        let python = try ExternalTool.require("python3")
        let folder = try TemporaryDirectory("ptpip-busy")
        let script = """
            import json, signal, subprocess, sys, time
            rawcap, out = sys.argv[1], sys.argv[2]
            server = subprocess.Popen([rawcap, "sim", "serve", "--listen", "127.0.0.1:0", "--sensor", "160x120", "--json"],
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            port = json.loads(server.stdout.readline().decode())["port"]
            camera = f"ptpip:127.0.0.1:{port}"
            holder = subprocess.Popen([rawcap, "shoot", "--camera", camera, "--count", "2", "--interval", "20", "-o", out],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            # The first frame is saved once the holder's session is open.
            deadline = time.time() + 60
            while time.time() < deadline and b"saved" not in holder.stderr.readline():
                pass
            second = subprocess.run([rawcap, "info", "--camera", camera, "--json"], stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, timeout=60)
            holder.send_signal(signal.SIGINT); holder.wait(timeout=60)
            server.send_signal(signal.SIGINT); server.wait(timeout=60)
            sys.stdout.write(json.dumps({"status": second.returncode, "stdout": second.stdout.decode(),
                                         "stderr": second.stderr.decode()}))
            """
        let result = try await Subprocess.runDetached(python, ["-c", script, try Self.rawcap(), folder.url.path])
        #expect(result.status == 0, "\(result.errorOutput)")
        let second = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(second["status"] as? Int == 75, "\(second)")
        Self.expectErrorObject(second["stdout"] as? String ?? "", command: "info", status: 75)
        #expect((second["stderr"] as? String)?.contains("busy with another program") == true, "\(second)")
    }

    // MARK: Two runs, one folder

    /// Two shoots into one folder at once: every frame of both is saved (a name the other run took moves to the next
    /// free one), and each run's journal is complete.
    @Test func twoRunsIntoOneFolderLoseNothing() async throws {
        let folder = try TemporaryDirectory("two-runs")
        let arguments = [
            "shoot", "--camera", "sim", "--sim-sensor", "160x120", "--count", "4", "--json", "-o", folder.url.path,
        ]
        async let first = Subprocess.runDetached(try Self.rawcap(), arguments)
        async let second = Subprocess.runDetached(try Self.rawcap(), arguments)
        let results = try await [first, second]
        for result in results { #expect(result.status == 0, "\(result.errorOutput)") }
        let files = try folder.contents().filter { $0 != "rawcap-journal.jsonl" }
        #expect(files.filter { $0.hasSuffix(".dng") }.count == 8, "\(files)")
        #expect(!files.contains { $0.hasPrefix(".") }, "\(files)")
        let reported = results.flatMap { Self.jsonLines($0.output) }.compactMap { $0["path"] as? String }
        #expect(Set(reported).count == 8 && reported.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        let journal = try Self.journal(folder.url)
        let finished = journal.filter { $0["event"] as? String == "run-finished" }
        #expect(finished.count == 2 && finished.allSatisfy { $0["detail"] as? String == "complete" }, "\(finished)")
        #expect(finished.allSatisfy { $0["files"] as? Int == 4 }, "\(finished)")
        let written = journal.filter { $0["event"] as? String == "file-written" }.compactMap { $0["path"] as? String }
        #expect(Set(written) == Set(reported))
    }

    // MARK: Deadlines

    /// A camera whose GetDeviceInfo claims 16 MB and sends a byte every 2 s: `--timeout 3` ends `info` (and the
    /// camera commands) soon, with the timeout's status.
    @Test(arguments: [["info"], ["ls"]])
    func aTricklingDatasetMeetsTheTimeout(command: [String]) async throws {
        let folder = try TemporaryDirectory("trickle-dataset")
        let started = ContinuousClock.now
        let result = try await Subprocess.runDetached(
            try Self.rawcap(),
            command + [
                "--camera", "sim", "--sim-model", "hostile", "--sim-fault", "hostile=trickle-dataset", "--timeout",
                "3", "--json",
            ] + (command == ["info"] ? [] : ["-o", folder.url.path]))
        let elapsed = (ContinuousClock.now - started) / .seconds(1)
        #expect(result.status == 74, "\(result.errorOutput)")
        #expect(result.errorOutput.contains("did not answer in time"), "\(result.errorOutput)")
        #expect(elapsed < 15, "took \(elapsed) s with --timeout 3")
        Self.expectErrorObject(result.output, command: command[0], status: 74)
    }

    // MARK: Signals

    /// Runs `arguments` under python, sends `signal` once rawcap has taken it over (and, with `afterLine`, once the
    /// first line is on standard output); returns the status, standard output and standard error.
    static func runSignalled(_ signal: String, afterLine: Bool, lines: Int = 1, _ arguments: [String]) async throws -> (
        status: Int32?, output: String, errorOutput: String
    ) {
        let python = try ExternalTool.require("python3")
        let scratch = try TemporaryDirectory("signalled")
        let script = """
            import signal, subprocess, sys, time
            number = getattr(signal, sys.argv[1]); lines = int(sys.argv[2]); out_path = sys.argv[3]
            child = subprocess.Popen(sys.argv[4:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            def taken():
                try:
                    with open(f"/proc/{child.pid}/status") as status:
                        masks = [int(l.split()[1], 16) for l in status if l.startswith(("SigCgt:", "SigIgn:"))]
                except FileNotFoundError:
                    return False
                return any(mask & (1 << (number - 1)) for mask in masks)
            first = b"".join(child.stdout.readline() for _ in range(lines))
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and child.poll() is None and not taken():
                time.sleep(0.01)
            time.sleep(0.2)
            child.send_signal(number)
            rest, err = child.communicate(timeout=120)
            open(out_path, "wb").write(first + rest)
            sys.stdout.write(str(child.returncode) + "\\n")
            sys.stderr.write(err.decode())
            """
        let outPath = scratch.file("stdout").path
        let result = try await Subprocess.runDetached(
            python, ["-c", script, signal, afterLine ? String(lines) : "0", outPath] + arguments)
        let output = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        return (Int32(result.output.trimmingCharacters(in: .whitespacesAndNewlines)), output, result.errorOutput)
    }

    /// SIGTERM ends `shoot` as the first Ctrl-C does: the current file finished, the journal closed, exit 143, and
    /// with `--json` the error object last.
    @Test func sigtermEndsAShootAsCtrlCDoes() async throws {
        let folder = try TemporaryDirectory("shoot-sigterm")
        let result = try await Self.runSignalled(
            "SIGTERM", afterLine: true,
            [
                try Self.rawcap(), "shoot", "--camera", "sim", "--sim-sensor", "160x120", "--count", "1000",
                "--interval", "300ms", "--json", "-o", folder.url.path,
            ])
        #expect(result.status == 143, "\(result.errorOutput)")
        Self.expectErrorObject(result.output, command: "shoot", status: 143)
        #expect(result.errorOutput.contains("terminated"), "\(result.errorOutput)")
        #expect(try !folder.contents().contains { $0.hasPrefix(".") })
        let journal = try Self.journal(folder.url)
        #expect(journal.last?["event"] as? String == "run-finished")
        #expect(journal.last?["detail"] as? String == "interrupted")
    }

    /// SIGTERM while `info` waits for the camera: the session is closed, exit 143 (as Ctrl-C's 130).
    @Test func sigtermEndsInfoAsCtrlCDoes() async throws {
        let result = try await Self.runSignalled(
            "SIGTERM", afterLine: false,
            [try Self.rawcap(), "info", "--camera", "sim", "--sim-fault", "delay=OpenSession:4000", "--json"])
        #expect(result.status == 143, "\(result.errorOutput)")
        Self.expectErrorObject(result.output, command: "info", status: 143)
    }

    /// Ctrl-C on `shoot --json`: the `interrupted` error object is the last line, as convert prints it.
    @Test func anInterruptedShootEndsItsJSONWithTheErrorObject() async throws {
        let folder = try TemporaryDirectory("shoot-sigint-json")
        let result = try await Self.runSignalled(
            "SIGINT", afterLine: true,
            [
                try Self.rawcap(), "shoot", "--camera", "sim", "--sim-sensor", "160x120", "--count", "1000",
                "--interval", "300ms", "--json", "-o", folder.url.path,
            ])
        #expect(result.status == 130, "\(result.errorOutput)")
        Self.expectErrorObject(result.output, command: "shoot", status: 130)
        #expect(Self.jsonLines(result.output).contains { $0["path"] != nil }, "\(result.output)")
    }

    // MARK: Files

    /// A full disk while the journal's first line is written: exit 74 like any full disk, and no empty journal.
    @Test func aFullDiskWhileJournalingExits74AndLeavesNoJournal() async throws {
        let prlimit = try ExternalTool.require("prlimit")
        let folder = try TemporaryDirectory("journal-full")
        let result = try await Subprocess.runDetached(
            prlimit,
            [
                "--fsize=40", try Self.rawcap(), "shoot", "--camera", "sim", "--sim-sensor", "160x120", "--json", "-o",
                folder.url.path,
            ])
        #expect(result.status == 74, "\(result.errorOutput)")
        #expect(result.errorOutput.contains("disk is full"), "\(result.errorOutput)")
        Self.expectErrorObject(result.output, command: "shoot", status: 74)
        let left = try folder.contents()
        #expect(left.isEmpty, "\(left)")
    }

    /// Hidden temporaries a killed run left are removed by the next run in that folder; other hidden files stay.
    @Test func theNextRunRemovesAKilledRunsTemporaries() async throws {
        let folder = try TemporaryDirectory("stale-temporaries")
        let stale = [".20261129-101010-0001.dng.rawcap-3k9x2a7q1.tmp", ".RCAP0001.JPG.rawcap-zz01.tmp"]
        for name in stale { try Data(repeating: 7, count: 1000).write(to: folder.file(name)) }
        try Data("keep".utf8).write(to: folder.file(".hidden-notes"))
        let result = try await Subprocess.runDetached(
            try Self.rawcap(), ["shoot", "--camera", "sim", "--sim-sensor", "160x120", "-o", folder.url.path])
        #expect(result.status == 0, "\(result.errorOutput)")
        let names = try folder.contents()
        #expect(names.filter { $0.hasPrefix(".") } == [".hidden-notes"], "\(names)")
        #expect(names.contains { $0.hasSuffix(".dng") })
    }

    // MARK: sim usb

    /// `sim usb -- CMD` looks CMD up as execvp does: a folder named like the program earlier on PATH is passed over.
    @Test func theProgramIsFoundOnPathAsExecvpFindsIt() throws {
        let folder = try TemporaryDirectory("path-lookup")
        try FileManager.default.createDirectory(at: folder.file("sh"), withIntermediateDirectories: false)
        let plain = folder.file("not-executable")
        try Data("#!/bin/sh\n".utf8).write(to: plain)
        let found = ForegroundChild.find("sh", path: "\(folder.url.path):/usr/bin:/bin")
        #expect(found == "/usr/bin/sh" || found == "/bin/sh", "\(found ?? "nil")")
        #expect(ForegroundChild.find("not-executable", path: folder.url.path) == nil)
        #expect(ForegroundChild.find("/bin/sh", path: "") == "/bin/sh")
        #expect(ForegroundChild.find("no-such-program-rawcap", path: "/usr/bin:/bin") == nil)
    }
}
