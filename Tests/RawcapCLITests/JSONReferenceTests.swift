import Foundation
import TestSupport
import Testing

/// docs/json.md against what the built binary prints: every key of every command's `--json` (and of the journal)
/// is documented, and every documented key (but those marked †) is printed by one of these runs.
@Suite(.serialized) struct JSONReferenceTests {
    static func rawcap() throws -> String {
        try #require(ChildProcess.builtProduct(named: "rawcap"), "the rawcap binary was not built")
    }

    /// The documented keys of each table (`<!-- json: NAME -->`), and those marked † (not required to appear).
    static func reference() throws -> (keys: [String: Set<String>], optional: Set<String>) {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/json.md")
        let text = try String(contentsOf: path, encoding: .utf8)
        var keys: [String: Set<String>] = [:]
        var optional: Set<String> = []
        var section: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("<!-- json: ") {
                let name = String(line.dropFirst("<!-- json: ".count).prefix { $0 != " " })
                section = name
                keys[name] = []
            } else if let current = section, line.hasPrefix("| `") {
                let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                let key = String(cells[0].dropFirst().prefix { $0 != "`" })
                keys[current, default: []].insert(key)
                if cells.count > 2, cells[2].hasPrefix("†") { optional.insert(current + ":" + key) }
            } else if line.isEmpty, let current = section, keys[current]?.isEmpty == false {
                section = nil
            }
        }
        return (keys, optional)
    }

    /// Every key path of the JSON objects on `text`'s lines (`a.b` for nested objects; lists are looked through).
    static func keys(ofLines text: String) -> Set<String> {
        var found: Set<String> = []
        func walk(_ value: Any, _ prefix: String) {
            if let object = value as? [String: Any] {
                for (key, inner) in object {
                    let path = prefix.isEmpty ? key : prefix + "." + key
                    found.insert(path)
                    walk(inner, path)
                }
            } else if let list = value as? [Any] {
                for element in list { walk(element, prefix) }
            }
        }
        for line in text.split(separator: "\n") {
            if let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) { walk(object, "") }
        }
        return found
    }

    @Test func theReferenceMatchesWhatEveryCommandPrints() async throws {
        let rawcap = try Self.rawcap()
        let (reference, optional) = try Self.reference()
        #expect(
            Set(reference.keys) == [
                "error", "saved-file", "convert", "ls", "sim-serve", "info", "inspect", "list", "config", "journal",
                "reconnect", "live", "focus", "verify",
            ])
        let folder = try TemporaryDirectory("json-reference")
        let shots = folder.file("shots").path
        let pulled = folder.file("pulled").path
        let sim = ["--camera", "sim", "--sim-sensor", "160x120"]
        let hostile = ["--camera", "sim", "--sim-model", "hostile", "--sim-sensor", "160x120"]
        var printed: [String: Set<String>] = [:]
        func run(_ arguments: [String], _ sections: [String], status: Int32 = 0) async throws -> String {
            let result = try await Subprocess.runDetached(rawcap, arguments)
            #expect(result.status == status, "\(arguments): \(result.errorOutput)")
            let keys = Self.keys(ofLines: result.output)
            let allowed = sections.reduce(into: Set<String>()) { $0.formUnion(reference[$1] ?? []) }
            #expect(
                keys.subtracting(allowed).isEmpty, "\(arguments) prints undocumented keys: \(keys.subtracting(allowed))"
            )
            for section in sections {
                printed[section, default: []].formUnion(keys.intersection(reference[section] ?? []))
            }
            return result.output
        }

        let shot = try await run(
            ["shoot"] + sim + ["--count", "1", "--bracket", "-1,0", "--keep-jpeg", "--json", "-o", shots],
            ["saved-file", "error"])
        // --exposure journals the requested time, its mode, the shutter speed set or the bulb's measured open time.
        _ = try await run(["shoot"] + sim + ["--exposure", "1/250", "--json", "-o", shots], ["saved-file", "error"])
        _ = try await run(
            ["shoot"] + sim + ["--exposure", "1s", "--bulb", "--json", "-o", shots], ["saved-file", "error"])
        _ = try await run(["pull", "--all"] + hostile + ["--json", "-o", pulled], ["saved-file", "error"])
        _ = try await run(["shoot"] + sim + ["--sim-fault", "card-full", "-o", shots], [], status: 73)
        // --reconnect: the camera power-cycles after the second frame; frames due meanwhile are missed.
        _ = try await run(
            ["shoot"] + sim + [
                "--sim-fault", "disappear-after=2:1500ms", "--count", "5", "--interval", "400ms", "--reconnect",
                "--json", "-o", shots,
            ], ["saved-file", "reconnect", "error"])
        _ = try await run(["ls"] + hostile + ["--json", "-o", pulled], ["ls", "error"])
        let nikon = ["--camera", "sim", "--sim-model", "nikon", "--sim-sensor", "160x120"]
        _ = try await run(["live"] + nikon + ["--frames", "2", "--json"], ["live", "error"])
        _ = try await run(["focus", "near"] + nikon + ["--json"], ["focus", "error"])
        _ = try await run(["focus", "auto"] + nikon + ["--json"], ["focus", "error"])
        let bracket = try await run(
            ["shoot"] + nikon + ["--focus-bracket", "2", "--af", "once", "--json", "-o", shots], ["saved-file", "error"])
        // pull --verify: every file as journaled, then one changed (mismatch, exit 65).
        _ = try await run(["pull", "--verify", "--json", "-o", shots], ["verify", "error"])
        let checked = folder.file("checked").path
        let one = try await run(["shoot"] + sim + ["--json", "-o", checked], ["saved-file", "error"])
        let changed = try #require(ScriptContractTests.jsonLines(one).compactMap { $0["path"] as? String }.first)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: changed))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0]))
        try handle.close()
        _ = try await run(["pull", "--verify", "--json", "-o", checked], ["verify", "error"], status: 65)
        let dng = try #require(
            ScriptContractTests.jsonLines(shot).compactMap { $0["path"] as? String }.first { $0.hasSuffix(".dng") })
        // Twice: the second finds the first's output and says so (`existing`); a missing input fails on its own line.
        for _ in 0..<2 {
            _ = try await run(["convert", dng, "-o", folder.url.path, "--json"], ["convert", "error"])
        }
        _ = try await run(
            ["convert", folder.file("missing.dng").path, "--json"], ["convert", "error"], status: 66)
        _ = try await run(["inspect", dng, "--json"], ["inspect", "error"])
        // A focus bracket's file: its focus step.
        let focused = try #require(
            ScriptContractTests.jsonLines(bracket).compactMap { $0["path"] as? String }.last { $0.hasSuffix(".dng") })
        _ = try await run(["inspect", focused, "--json"], ["inspect", "error"])
        _ = try await run(["info"] + sim + ["--json"], ["info", "error"])
        _ = try await run(["list", "--json"], ["list", "error"])
        _ = try await run(["config", "list"] + sim + ["--json"], ["config", "error"])
        let (port, held) = try ScriptContractTests.refusingPort()
        defer { close(held) }
        // Two cameras, one failing: its error object names it.
        _ = try await run(
            ["shoot", "--camera", "sim", "--camera", "ptpip:127.0.0.1:\(port)", "--json", "-o", shots],
            ["saved-file", "error"], status: 69)

        // sim serve's listening line, and info over PTP/IP against it.
        let python = try ExternalTool.require("python3")
        let script = """
            import json, signal, subprocess, sys
            rawcap = sys.argv[1]
            server = subprocess.Popen([rawcap, "sim", "serve", "--listen", "127.0.0.1:0", "--json"],
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            line = server.stdout.readline().decode()
            port = json.loads(line)["port"]
            info = subprocess.run([rawcap, "info", "--camera", f"ptpip:127.0.0.1:{port}", "--json"],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=120)
            server.send_signal(signal.SIGINT)
            server.wait(timeout=60)
            sys.stdout.write(line.strip() + "\\n" + info.stdout.decode().strip() + "\\n")
            """
        let served = try await Subprocess.runDetached(python, ["-c", script, rawcap])
        #expect(served.status == 0, "\(served.errorOutput)")
        let lines = served.output.split(separator: "\n").map(String.init)
        try #require(lines.count == 2, "\(served.output)")
        for (line, section) in zip(lines, ["sim-serve", "info"]) {
            let keys = Self.keys(ofLines: line)
            let allowed = (reference[section] ?? []).union(reference["error"] ?? [])
            #expect(
                keys.subtracting(allowed).isEmpty, "\(section) prints undocumented keys: \(keys.subtracting(allowed))")
            printed[section, default: []].formUnion(keys)
        }

        // The journals of the shoots (one failed: card full) and of the pull.
        for journalFolder in [shots, pulled] {
            let text = try String(contentsOfFile: journalFolder + "/rawcap-journal.jsonl", encoding: .utf8)
            let keys = Self.keys(ofLines: text)
            #expect(
                keys.subtracting(reference["journal"] ?? []).isEmpty,
                "the journal has undocumented keys: \(keys.subtracting(reference["journal"] ?? []))")
            printed["journal", default: []].formUnion(keys)
        }

        for (section, documented) in reference {
            let required = documented.filter { !optional.contains(section + ":" + $0) }
            let missing = required.subtracting(printed[section] ?? [])
            #expect(missing.isEmpty, "docs/json.md, \(section): documented but never printed: \(missing.sorted())")
        }
    }
}
