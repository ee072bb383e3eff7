import Foundation
import TestSupport
import Testing

@testable import RawcapCLI

/// `--exec CMD`: the word splitting (no shell), and the hook run by the built `shoot`, `pull` and `tether` once per
/// file, in order, with its variables; a slow hook does not hold the capture up, and rawcap waits for it at the end.
@Suite(.serialized) struct ExecHookTests {
    @Test func commandsSplitAsASimpleShellCommandWithoutExpansion() throws {
        #expect(try ExecHook.split("cp -n x y") == ["cp", "-n", "x", "y"])
        #expect(try ExecHook.split("  a\t b  ") == ["a", "b"])
        #expect(try ExecHook.split("sh -c 'echo \"$RAWCAP_FILE\" | wc -c'") == ["sh", "-c", "echo \"$RAWCAP_FILE\" | wc -c"])
        #expect(try ExecHook.split("say \"two words\" it\\'s") == ["say", "two words", "it's"])
        #expect(try ExecHook.split("x \"a\\\"b\\\\c\\$d\\n\"") == ["x", "a\"b\\c$d\\n"])
        #expect(try ExecHook.split("x '' \"\"") == ["x", "", ""])
        #expect(try ExecHook.split("$HOME/bin/x *.dng ~") == ["$HOME/bin/x", "*.dng", "~"])
        #expect(throws: (any Error).self) { try ExecHook.split("x 'open") }
        #expect(throws: (any Error).self) { try ExecHook.split("x \"open") }
        #expect(throws: (any Error).self) { try ExecHook.split("x \\") }
        #expect(throws: (any Error).self) { try ExecHook("   ", command: "shoot") }
    }

    static func rawcap() throws -> String {
        try #require(ChildProcess.builtProduct(named: "rawcap"), "the rawcap binary was not built")
    }

    /// A hook script that appends its variables to `log`, after sleeping `sleep` seconds.
    static func script(in folder: TemporaryDirectory, sleep: Double = 0) throws -> (String, URL) {
        let log = folder.url.appendingPathComponent("hook.log")
        let script = folder.url.appendingPathComponent("hook.sh")
        try """
            #!/bin/sh
            sleep \(sleep)
            echo "$RAWCAP_COMMAND $RAWCAP_SHOT $RAWCAP_KIND $RAWCAP_FORMAT $RAWCAP_SIZE $RAWCAP_SERIAL $RAWCAP_HANDLE $RAWCAP_FILE $RAWCAP_SHA256 $RAWCAP_RUN $1" >> '\(log.path)'
            """.write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        return (script.path, log)
    }

    static func lines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// `shoot` with a slow hook: it runs once per file in the order the files were written, with the file's path,
    /// SHA-256, kind and shot; the shoot does not wait for it between frames, and says it waits at the end.
    @Test func shootRunsTheHookOncePerFileInOrder() async throws {
        let folder = try TemporaryDirectory("exec-hook")
        let hooks = try TemporaryDirectory("exec-hook-script")
        let (script, log) = try Self.script(in: hooks, sleep: 0.4)
        let output = folder.url.appendingPathComponent("shots").path
        let clock = ContinuousClock()
        let started = clock.now
        let shoot = try await Subprocess.runDetached(
            try Self.rawcap(),
            [
                "shoot", "--camera", "sim", "--sim-sensor", "160x120", "--count", "3", "--keep-jpeg", "--json", "-o",
                output, "--exec", "\(script) 'an argument'",
            ])
        let elapsed = clock.now - started
        #expect(shoot.status == 0, "\(shoot.errorOutput)")
        #expect(shoot.errorOutput.contains("rawcap shoot: waiting for"), "\(shoot.errorOutput)")
        let saved = Self.lines(shoot.output)
        #expect(saved.count == 6)
        let ran = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: " ").map(String.init)
        }
        #expect(ran.count == 6)
        for (hook, file) in zip(ran, saved) {
            #expect(hook.count == 12, "\(hook)")
            guard hook.count == 12 else { continue }
            #expect(hook[0] == "shoot")
            #expect(hook[1] == "\(file["frame"] as? Int ?? 0)")
            #expect(hook[2] == ((file["format"] as? String) == "jpeg" ? "jpeg" : "dng"))
            #expect(hook[3] == file["format"] as? String)
            #expect(hook[4] == "\(file["size"] as? Int ?? 0)")
            #expect(hook[5] == file["serial"] as? String)
            #expect(hook[6] == "\(file["handle"] as? Int ?? 0)")
            #expect(hook[7] == file["path"] as? String)
            #expect(hook[8] == file["sha256"] as? String)
            #expect(hook[10] == "an" && hook[11] == "argument", "one argument with a blank: \(hook)")
        }
        // Six hooks of 0.4 s each run one after another; the shoot did not wait for each before the next frame.
        print("shoot with a 0.4 s hook per file: \(elapsed) for 3 RAW+JPEG frames")
        #expect(elapsed >= .seconds(2.4))

    }

    /// A hook that fails (a status, a missing program) is reported on standard error and journaled as
    /// `hook-failed`; the run goes on and ends 0.
    @Test func aFailingHookIsReportedAndJournaledAndTheRunGoesOn() async throws {
        let folder = try TemporaryDirectory("exec-hook-fails")
        for (command, code, message) in [
            ("sh -c 'exit 4'", "exit-4", "exited with status 4"),
            ("sh -c 'kill -9 $$'", "signal-9", "was ended by signal 9"),
            ("rawcap-no-such-hook", "not-started", "rawcap-no-such-hook: not found"),
        ] {
            let output = folder.url.appendingPathComponent(code).path
            let shoot = try await Subprocess.runDetached(
                try Self.rawcap(),
                ["shoot", "--camera", "sim", "--sim-sensor", "160x120", "--count", "2", "-o", output, "--exec", command])
            #expect(shoot.status == 0, "\(shoot.errorOutput)")
            #expect(shoot.errorOutput.components(separatedBy: "hook failed for").count - 1 == 2, "\(shoot.errorOutput)")
            #expect(shoot.errorOutput.contains(message), "\(shoot.errorOutput)")
            let journal = Self.lines(try String(contentsOfFile: output + "/rawcap-journal.jsonl", encoding: .utf8))
            let failed = journal.filter { $0["event"] as? String == "hook-failed" }
            #expect(failed.count == 2)
            #expect(failed.allSatisfy { $0["code"] as? String == code && ($0["path"] as? String)?.hasSuffix(".dng") == true })
        }
    }
}
