import Foundation
import TestSupport
import Testing

/// Every shell example in README.md works as shown, against the emulated camera.
///
/// Each fenced ```` ```sh ```` block is one bash script (with `set -o pipefail`), run in order in one new folder,
/// as a reader following the README would, with the built `rawcap` first on PATH. Every complete command line must
/// exit 0, or the status its comment gives (`# exits 74: …`); a line ending in `&` runs in the background, and after
/// one that starts `rawcap sim serve` the script waits until its port listens. Background jobs are waited for at the
/// end of the block (its `kill %1` ends them). The HTML comment on the line before a block may say:
///
/// - `<!-- test: sim-usb -->`: the block runs inside `rawcap sim usb --sensor 640x480 -- bash`, so commands that
///   open "the only camera on USB" find the emulated camera (one camera and card for the whole block);
/// - `<!-- no-test: REASON -->`: the block is skipped; the reason (real hardware, root, the test suite itself) must
///   be given.
///
/// Some examples also say what they leave on disk; those claims are checked after the run (``claims``).
@Suite(.serialized) struct ReadmeExampleTests {
    struct Block {
        /// The README line of the opening fence (1-based).
        let line: Int
        let commands: [String]
        /// `nil` to run as is, `"sim-usb"`, or `"no-test"`.
        let mode: String?
        let reason: String
    }

    static func readme() throws -> String {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        return try String(contentsOf: path, encoding: .utf8)
    }

    static func blocks(of text: String) -> [Block] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [Block] = []
        var marker: String?
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if line.hasPrefix("<!-- ") {
                marker = line
            } else if line == "```sh" {
                var body: [String] = []
                var end = index + 1
                while end < lines.count, lines[end] != "```" {
                    body.append(lines[end])
                    end += 1
                }
                var mode: String?
                var reason = ""
                if let marker, marker.hasPrefix("<!-- no-test:") {
                    mode = "no-test"
                    reason = String(marker.dropFirst("<!-- no-test:".count).dropLast("-->".count))
                        .trimmingCharacters(in: .whitespaces)
                } else if let marker, marker.hasPrefix("<!-- test:") {
                    mode = String(marker.dropFirst("<!-- test:".count).dropLast("-->".count))
                        .trimmingCharacters(in: .whitespaces)
                }
                blocks.append(Block(line: index + 1, commands: body, mode: mode, reason: reason))
                marker = nil
                index = end
            } else if !line.trimmingCharacters(in: .whitespaces).isEmpty {
                marker = nil
            }
            index += 1
        }
        return blocks
    }

    /// The port a background `rawcap sim serve` line listens on.
    static func servePort(_ command: String) -> Int? {
        guard command.contains("rawcap sim serve") else { return nil }
        let words = command.split(separator: " ").map(String.init)
        if let at = words.firstIndex(of: "--listen"), at + 1 < words.count,
            let port = words[at + 1].split(separator: ":").last.flatMap({ Int($0) })
        {
            return port
        }
        return words.contains("fuji") ? 55740 : 15740
    }

    /// The block as a bash script that checks each command's exit status and names the README line that failed.
    static func script(_ block: Block) -> String {
        var out = [
            "set -o pipefail",
            "__failed=0",
            #"__check() { if [ "$1" != "$2" ]; then "#
                + #"echo "README.md:$3: exit status $1, expected $2" >&2; __failed=1; fi; }"#,
            // Waits (at most 60 s) until something listens on the TCP port $1, from /proc: no connection is made.
            #"__listening() { local port; port=$(printf '%04X' "$1"); for _ in $(seq 600); do "#
                + #"awk 'NR > 1 && $4 == "0A" { print $2 }' /proc/net/tcp /proc/net/tcp6 2>/dev/null "#
                + #"| grep -q ":$port$" && return 0; sleep 0.1; done; echo "nothing listens on port $1" >&2; }"#,
        ]
        var continued = false
        for (offset, line) in block.commands.enumerated() {
            out.append(line)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let wasContinued = continued
            continued = trimmed.hasSuffix("\\")
            if continued || trimmed.isEmpty || (!wasContinued && trimmed.hasPrefix("#")) { continue }
            let code = (trimmed.range(of: " #").map { String(trimmed[..<$0.lowerBound]) } ?? trimmed)
                .trimmingCharacters(in: .whitespaces)
            if code.hasSuffix("&") {
                if let port = servePort(code) { out.append("__listening \(port)") }
                continue
            }
            var expected = 0
            if let comment = trimmed.range(of: " #").map({ trimmed[$0.upperBound...] }),
                let exits = comment.range(of: "exits ")
            {
                expected = Int(comment[exits.upperBound...].prefix { $0.isNumber }) ?? 0
            }
            out.append("__check $? \(expected) \(block.line + offset + 1)")
        }
        out.append("wait")
        out.append("exit $__failed")
        return out.joined(separator: "\n") + "\n"
    }

    /// What examples say they leave on disk (in their comments or the text beside them), checked after the run: a
    /// folder of the run, a check of the names in it, and the claim.
    static let claims: [(folder: String, check: @Sendable ([String]) -> Bool, claim: String)] = [
        (
            "resumed",
            { names in
                let dngs = names.filter { $0.hasSuffix(".dng") }
                return dngs.count == 2 && dngs.contains("RCAP0002.dng")
            },
            "the interrupted shoot saves one DNG and pull --resume exactly the missing one (RCAP0002.dng)"
        ),
        ("named", { $0.contains("portrait-1.dng") }, "--name 'portrait-{n}' makes portrait-1.dng"),
        ("brackets", { $0.filter { $0.hasSuffix(".dng") }.count == 3 }, "one bracket of three makes three DNGs"),
        ("two", { $0.filter { $0.hasSuffix(".dng") }.count == 2 }, "two cameras make a DNG each"),
        ("dng", { $0.contains("RCAP0001-1.dng") }, "convert into a taken name adds -1"),
        ("originals", { $0.contains("RCAP0001.dng") }, "convert without -o writes beside the input"),
    ]

    @Test func theReadmeSaysWhyEachSkippedExampleIsSkipped() throws {
        let blocks = Self.blocks(of: try Self.readme())
        #expect(blocks.count > 10)
        for block in blocks {
            if block.mode == "no-test" {
                #expect(!block.reason.isEmpty, "README.md:\(block.line): a no-test block needs a reason")
            } else {
                #expect(block.mode == nil || block.mode == "sim-usb", "README.md:\(block.line): unknown mode")
            }
        }
        // The quick start stays two commands.
        let quickStart = try #require(blocks.first { $0.commands.contains { $0.hasPrefix("make demo") } })
        let commands = quickStart.commands.filter { !$0.hasPrefix(" ") }.map { String($0.prefix(9)) }
        #expect(commands == ["make demo", "make test"])
    }

    @Test func everyExampleWorksAsShown() async throws {
        let rawcap = try #require(ChildProcess.builtProduct(named: "rawcap"), "the rawcap binary was not built")
        let bash = try ExternalTool.require("bash")
        for tool in ["jq", "gphoto2", "tshark", "capinfos", "umockdev-run", "timeout"] {
            _ = try ExternalTool.require(tool)
        }
        let bin = URL(fileURLWithPath: rawcap).deletingLastPathComponent().path
        let root = try TemporaryDirectory("readme-examples")
        let work = root.file("work")
        let scripts = root.file("scripts")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        let environment = [
            "PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            // The PTP/IP GUID goes to the test's folder, not the user's ~/.config.
            "XDG_CONFIG_HOME": root.file("config").path,
            "HOME": root.url.path,
        ]
        for block in Self.blocks(of: try Self.readme()) where block.mode != "no-test" {
            let script = scripts.appendingPathComponent("block-\(block.line).sh")
            try Self.script(block).write(to: script, atomically: true, encoding: .utf8)
            let out = scripts.appendingPathComponent("block-\(block.line).out").path
            let err = scripts.appendingPathComponent("block-\(block.line).err").path
            // Output to files, and a time limit for the whole process group: a server an example left running
            // cannot hold the test.
            var command = "\"$0\" \"$1\""
            if block.mode == "sim-usb" { command = "rawcap sim usb --sensor 640x480 -- \"$0\" \"$1\"" }
            let line = "timeout -k 10 900 \(command) >\"$2\" 2>\"$3\" </dev/null"
            let result = try await Subprocess.runDetached(
                bash, ["-c", line, bash, script.path, out, err], environment: environment, currentDirectory: work)
            let errors = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
            #expect(
                result.status == 0,
                "README.md:\(block.line): the example block failed (status \(result.status)):\n\(errors.suffix(4000))")
        }
        for claim in Self.claims {
            let folder = work.appendingPathComponent(claim.folder).path
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            #expect(claim.check(names.sorted()), "README: \(claim.claim); \(claim.folder) holds \(names.sorted())")
        }
    }
}
