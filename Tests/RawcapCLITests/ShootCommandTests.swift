import Foundation
import TestSupport
import Testing

@testable import RawcapCLI

/// `rawcap shoot`, `pull` and `ls` as a user runs them: the built binary, the emulated camera, exit codes, files and
/// the journal.
@Suite(.serialized) struct ShootCommandTests {
    static func rawcap() throws -> String {
        try #require(ChildProcess.builtProduct(named: "rawcap"), "the rawcap binary was not built")
    }

    static func journal(_ folder: TemporaryDirectory) throws -> [[String: Any]] {
        let text = try String(contentsOf: folder.file("rawcap-journal.jsonl"), encoding: .utf8)
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    static func visibleFiles(_ folder: TemporaryDirectory) throws -> [String] {
        try folder.contents().filter { $0 != "rawcap-journal.jsonl" }.sorted()
    }

    @Test func shootsRawPlusJPEGWithJSONReports() async throws {
        let folder = try TemporaryDirectory("shoot-cli")
        let result = try await Subprocess.runDetached(
            try Self.rawcap(),
            [
                "shoot", "--camera", "sim", "--sim-sensor", "160x120", "--count", "2", "--keep-jpeg", "--compression",
                "lossless", "--json", "-o", folder.url.path,
            ])
        #expect(result.status == 0, "\(result.errorOutput)")
        let reports = result.output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(reports.count == 4)
        for report in reports {
            for key in ["path", "size", "sha256", "camera", "exposure", "format", "timings"] {
                #expect(report[key] != nil, "\(key) missing in \(report)")
            }
        }
        #expect(try Self.visibleFiles(folder).count == 4)
        // Progress is silent off a terminal: standard error has one line per file plus the summary.
        #expect(!result.errorOutput.contains("\r"))
        #expect(result.errorOutput.contains("saved "))
    }

    @Test(arguments: [
        (["--sim-fault", "card-full"], Int32(73), "card is full (StoreFull): make room on it"),
        (["--sim-fault", "busy=100"], Int32(75), "DeviceBusy"),
        (["--format", "bayer10"], Int32(64), "bayer10"),
        (["--bracket", "-2,x"], Int32(64), "EV step"),
        (["--sim-fault", "disconnect-after=150000", "--count", "3"], Int32(74), "disconnected"),
        // The session's first data phase (GetDeviceInfo): the run fails before it starts, and says so.
        (["--sim-fault", "disconnect-after=1"], Int32(74), "disconnected"),
    ])
    func faultsEndWithAClearErrorAndStatus(arguments: [String], status: Int32, message: String) async throws {
        let folder = try TemporaryDirectory("shoot-fault")
        let result = try await Subprocess.runDetached(
            try Self.rawcap(),
            ["shoot", "--camera", "sim", "--sim-sensor", "256x192", "-o", folder.url.path] + arguments)
        #expect(result.status == status, "\(result.errorOutput)")
        #expect(result.errorOutput.contains(message), "\(result.errorOutput)")
        // Every error is one "rawcap shoot:" line (a usage error's is followed by the usage).
        let lines = result.errorOutput.split(separator: "\n").filter { $0.hasPrefix("rawcap shoot:") }
        #expect(lines.count == 1, "one error line: \(result.errorOutput)")
        #expect(try !folder.contents().contains { $0.hasPrefix(".") }, "no temporary left")
        if status != 64 {
            #expect((try Self.journal(folder).last?["event"] as? String) == "run-failed")
        }
    }

    /// A camera that cannot be reached at all (nothing listens on the PTP/IP port): the journal still says why the
    /// run never started.
    @Test func aCameraThatCannotBeReachedIsJournaled() async throws {
        let folder = try TemporaryDirectory("shoot-unreachable")
        // A port that was free a moment ago and is bound but not listening: connecting to it is refused.
        let (port, listener) = try ScriptContractTests.refusingPort()
        defer { close(listener) }
        let result = try await Subprocess.runDetached(
            try Self.rawcap(), ["shoot", "--camera", "ptpip:127.0.0.1:\(port)", "-o", folder.url.path])
        #expect(result.status != 0, "\(result.errorOutput)")
        let last = try #require(try Self.journal(folder).last, "the journal names the failure")
        #expect(last["event"] as? String == "run-failed")
    }

    /// A full disk, for real: the second run is limited (RLIMIT_FSIZE through prlimit) below one DNG's size.
    @Test func aFullDiskFailsCleanlyAndKeepsEarlierFiles() async throws {
        let prlimit = try ExternalTool.require("prlimit")
        let folder = try TemporaryDirectory("shoot-full")
        let base = ["shoot", "--camera", "sim", "--sim-sensor", "256x192", "-o", folder.url.path]
        let first = try await Subprocess.runDetached(try Self.rawcap(), base)
        #expect(first.status == 0, "\(first.errorOutput)")
        let before = try Self.visibleFiles(folder)
        #expect(before.count == 1)
        let limited = try await Subprocess.runDetached(
            prlimit, ["--fsize=60000", try Self.rawcap()] + base + ["--count", "2"])
        #expect(limited.status == 74, "\(limited.errorOutput)")
        #expect(limited.errorOutput.contains("disk is full"), "\(limited.errorOutput)")
        #expect(try Self.visibleFiles(folder) == before)
        #expect(try !folder.contents().contains { $0.hasPrefix(".") })
        let last = try #require(try Self.journal(folder).last)
        #expect(last["event"] as? String == "run-failed")
        #expect((last["detail"] as? String)?.contains("File too large") == true, "\(last)")
    }

    /// Ctrl-C: the file being written is finished, the session closed, the journal says so, exit 130.
    @Test func interruptFinishesTheCurrentFileAndExits130() async throws {
        let folder = try TemporaryDirectory("shoot-sigint")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.rawcap())
        process.arguments = [
            "shoot", "--camera", "sim", "--sim-sensor", "256x192", "--count", "1000", "--interval", "200ms", "--json",
            "-o", folder.url.path,
        ]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Wait (off the Swift pool) for the first saved file, then interrupt.
        let firstLine: String = await withCheckedContinuation { continuation in
            DispatchQueue(label: "sigint-test").async {
                var buffer = Data()
                while !buffer.contains(0x0A) {
                    let chunk = output.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    buffer += chunk
                }
                continuation.resume(returning: String(decoding: buffer, as: UTF8.self))
            }
        }
        #expect(firstLine.contains("\"path\""), "\(firstLine)")
        kill(process.processIdentifier, SIGINT)
        let status: Int32 = await withCheckedContinuation { continuation in
            DispatchQueue(label: "sigint-wait").async {
                _ = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }
        }
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(status == 130, "\(errorText)")
        #expect(errorText.contains("interrupted"))
        let files = try Self.visibleFiles(folder)
        #expect(!files.isEmpty && files.count < 1000)
        #expect(try !folder.contents().contains { $0.hasPrefix(".") })
        let journal = try Self.journal(folder)
        let written = journal.filter { $0["event"] as? String == "file-written" }.count
        #expect(written == files.count)
        #expect(journal.last?["event"] as? String == "run-finished")
        #expect(journal.last?["detail"] as? String == "interrupted")
    }

    /// Ctrl-C (once, or twice) while a frame downloads over a slow link: rawcap has taken SIGINT over (bit 1 of
    /// SigIgn or SigCgt in /proc/PID/status) and the journal has announced the frame. Once: the frame is finished,
    /// the run ends interrupted with 130. Twice: rawcap exits at once with 130. Either way no hidden temporary is
    /// left in the folder. With one frame as with three: a Ctrl-C during the last frame also ends the run with 130.
    @Test(arguments: [1, 2], [1, 3])
    func interruptDuringADownload(signals: Int, frames: Int) async throws {
        let rawcap = try Self.rawcap()
        let python = try ExternalTool.require("python3")
        let folder = try TemporaryDirectory("shoot-sigint-download")
        let script = """
            import os, signal, subprocess, sys, time
            folder, count = sys.argv[1], int(sys.argv[2])
            child = subprocess.Popen(sys.argv[3:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            def taken():
                with open(f"/proc/{child.pid}/status") as status:
                    masks = [int(l.split()[1], 16) for l in status if l.startswith(("SigIgn:", "SigCgt:"))]
                return any(mask & 2 for mask in masks)
            def announced():
                try:
                    with open(os.path.join(folder, "rawcap-journal.jsonl")) as journal:
                        return '"object-announced"' in journal.read()
                except FileNotFoundError:
                    return False
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and child.poll() is None and not (taken() and announced()):
                time.sleep(0.01)
            for _ in range(count):
                child.send_signal(signal.SIGINT)
                time.sleep(0.05)
            out, err = child.communicate(timeout=120)
            sys.stdout.write(str(child.returncode) + "\\n")
            sys.stderr.write(err.decode())
            """
        // About 100 kB of raw at 100 kB/s: the download is under way for about a second.
        let result = try await Subprocess.runDetached(
            python,
            [
                "-c", script, folder.url.path, String(signals), rawcap, "shoot", "--camera", "sim", "--sim-sensor",
                "256x192", "--sim-fault", "slow=100kB/s", "--count", String(frames), "-o", folder.url.path,
            ])
        #expect(result.output == "130\n", "\(result.output) \(result.errorOutput)")
        #expect(try !folder.contents().contains { $0.hasPrefix(".") }, "a hidden temporary was left")
        let files = try Self.visibleFiles(folder)
        let journal = try Self.journal(folder)
        let written = journal.filter { $0["event"] as? String == "file-written" }.count
        #expect(written == files.count)
        if signals == 1 {
            #expect(files.count == 1, "the frame being downloaded is finished: \(files)")
            #expect(result.errorOutput.contains("interrupted"), "\(result.errorOutput)")
            #expect(journal.last?["event"] as? String == "run-finished")
            #expect(journal.last?["detail"] as? String == "interrupted")
        } else {
            #expect(files.count <= 1, "\(files)")
            #expect(result.errorOutput.contains("interrupted again"), "\(result.errorOutput)")
        }
    }

    @Test func lsListsAndPullFetchesWhatShootLeft() async throws {
        // One process, one emulated camera: shoot with --format jpeg leaves nothing else; ls shows the card of a
        // fresh emulator (empty). The in-process emulator does not outlive a command, so pull/ls are exercised on
        // the card state the library tests build (PullTests); here: the commands parse, run and exit 0.
        let folder = try TemporaryDirectory("ls-cli")
        let ls = try await Subprocess.runDetached(
            try Self.rawcap(), ["ls", "--camera", "sim", "--sim-sensor", "160x120", "-o", folder.url.path])
        #expect(ls.status == 0, "\(ls.errorOutput)")
        let pull = try await Subprocess.runDetached(
            try Self.rawcap(), ["pull", "--all", "--camera", "sim", "--sim-sensor", "160x120", "-o", folder.url.path])
        #expect(pull.status == 0, "\(pull.errorOutput)")
        #expect(pull.errorOutput.contains("0 files"))
        let bad = try await Subprocess.runDetached(
            try Self.rawcap(), ["pull", "--camera", "sim", "-o", folder.url.path])
        #expect(bad.status == 64)
    }

    @Test func severalCamerasShootTogetherAndOneFailingDoesNotStopTheOthers() async throws {
        let folder = try TemporaryDirectory("shoot-multi")
        let missing = folder.file("missing.pcapng").path
        let result = try await Subprocess.runDetached(
            try Self.rawcap(),
            [
                "shoot", "--camera", "sim", "--camera", "sim", "--camera", "replay:\(missing)", "--sim-sensor",
                "160x120", "--count", "2", "-o", folder.url.path,
            ])
        // The recording does not load (65); both emulated cameras still shoot their two frames.
        #expect(result.status == 65, "\(result.errorOutput)")
        #expect(result.errorOutput.contains("replay:"), "\(result.errorOutput)")
        // Every line says which camera it is about; no message is printed twice.
        let lines = result.errorOutput.split(separator: "\n").map(String.init)
        for line in lines where !line.hasPrefix("rawcap shoot: ") {
            #expect(line.hasPrefix("sim#1: ") || line.hasPrefix("sim#2: "), "\(line)")
        }
        #expect(lines.filter { $0.hasPrefix("sim#1: saved ") }.count == 2, "\(result.errorOutput)")
        #expect(
            lines.filter { $0.hasPrefix("rawcap shoot: ") }.map { String($0.dropFirst(14).prefix(7)) }
                == ["sim#1: ", "sim#2: ", "replay:"], "in the order given: \(result.errorOutput)")
        #expect(Set(lines).count == lines.count, "a line printed twice: \(result.errorOutput)")
        let files = try Self.visibleFiles(folder)
        #expect(files.count == 4, "\(files)")
        // Each emulated camera has its own serial number, so {serial} keeps their files apart without suffixes.
        #expect(files.filter { $0.hasPrefix("Emulated-Camera-RC0000001-") }.count == 2, "\(files)")
        #expect(files.filter { $0.hasPrefix("Emulated-Camera-RC0000002-") }.count == 2, "\(files)")
        #expect(!files.contains { $0.contains("-1.") }, "no -1 suffix: \(files)")
        // Two runs, and the third camera's attempt: one run-failed line that names it.
        let journal = try Self.journal(folder)
        let runs = Set(journal.compactMap { $0["run"] as? String })
        #expect(runs.count == 3)
        let failed = journal.filter { $0["event"] as? String == "run-failed" }
        #expect(failed.count == 1)
        #expect((failed.first?["camera"] as? String)?.hasPrefix("replay:") == true, "\(failed)")
    }

    @Test func aSimSerialNamesTheFilesAndTheNextSimCamerasGetTheirOwn() async throws {
        let folder = try TemporaryDirectory("shoot-sim-serial")
        let result = try await Subprocess.runDetached(
            try Self.rawcap(),
            [
                "shoot", "--camera", "sim", "--camera", "sim", "--sim-serial", "BODY7", "--sim-sensor", "96x64",
                "--name", "{serial}-{n}", "-o", folder.url.path,
            ])
        #expect(result.status == 0, "\(result.errorOutput)")
        let files = try Self.visibleFiles(folder)
        #expect(files == ["BODY7-1.dng", "BODY7-2-1.dng"], "\(files)")
        let serials = Set(try Self.journal(folder).compactMap { $0["serial"] as? String })
        #expect(serials == ["BODY7", "BODY7-2"])
    }

    /// Commands other than shoot work with one camera: several --camera values are refused with one line.
    @Test(arguments: [
        ["ls", "--camera", "sim", "--camera", "sim", "-o", "OUT"],
        ["pull", "--all", "--camera", "sim", "--camera", "sim", "-o", "OUT"],
        ["info", "--camera", "sim", "--camera", "all"], ["config", "list", "--camera", "sim", "--camera", "sim"],
        ["ls", "--camera", "all", "-o", "OUT"],
    ])
    func otherCommandsRefuseSeveralCameras(arguments: [String]) async throws {
        let folder = try TemporaryDirectory("several-refused")
        let output = folder.file("out").path
        let result = try await Subprocess.runDetached(
            try Self.rawcap(), arguments.map { $0 == "OUT" ? output : $0 })
        #expect(result.status == 64, "\(arguments): \(result.errorOutput)")
        let lines = result.errorOutput.split(separator: "\n")
        #expect(lines.count == 1, "\(result.errorOutput)")
        #expect(result.errorOutput.contains("only rawcap shoot takes more than one --camera"), "\(result.errorOutput)")
        #expect(try folder.contents().isEmpty, "nothing written")
    }

    @Test func theCameraOptionStillSelectsOneCameraForOtherCommands() throws {
        let options = try ConnectionOptions.parse(["--camera", "sim"])
        #expect(options.camera == .simulator)
        let several = try ConnectionOptions.parse(["--camera", "sim", "--camera", "all"])
        #expect(several.cameraChoices == [.one(.simulator), .all])
        #expect(try ConnectionOptions.parse([]).camera == .usb(.onlyCamera))
    }
}
