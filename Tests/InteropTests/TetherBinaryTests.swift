import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The built `rawcap tether` against every emulated family whose shutter button is pressed on a schedule
/// (`--press-every`), over PTP/IP (`rawcap sim serve`, Fujifilm's own PTP/IP variant for `fuji`) and on the fake USB
/// bus (`rawcap sim usb`): 100 shots, each saved exactly once as a RAW+JPEG pair under one name, in the order the
/// camera numbered them, and the `--exec` hook run once per file, in the order the files were written.
@Suite(.serialized, .timeLimit(.minutes(20))) struct TetherBinaryTests {
    static let families = ["generic", "nikon", "canon", "sony", "fuji"]
    static let shots = 100
    /// Small shots keep 100 of them quick in a debug build; the press interval is shorter than a shot takes, so the
    /// body shoots as fast as it can develop.
    static let camera = ["--sensor", "160x120", "--quality", "raw+jpeg", "--press-every", "20ms"]

    /// The hook: one line per file with the variables it was given.
    static func hookScript(in folder: TemporaryDirectory) throws -> (script: String, log: URL) {
        let log = folder.url.appendingPathComponent("hooks.log")
        let script = folder.url.appendingPathComponent("hook.sh")
        try """
            #!/bin/sh
            printf '%s %s %s %s %s %s\\n' "$RAWCAP_SHOT" "$RAWCAP_KIND" "$RAWCAP_FILE" "$RAWCAP_SHA256" \\
                "$RAWCAP_COMMAND" "$RAWCAP_CAMERA_FILE" >> '\(log.path)'
            """.write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        return (script.path, log)
    }

    /// Checks a finished `rawcap tether --count N --keep-jpeg --json --exec HOOK` run.
    static func check(
        _ result: Subprocess.Result, output: TemporaryDirectory, hookLog: URL, family: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(result.status == 0, "\(family): \(result.errorOutput)", sourceLocation: sourceLocation)
        let lines = result.output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(lines.count == 2 * shots, "\(family): \(lines.count) JSON lines", sourceLocation: sourceLocation)
        let files = try output.contents().filter { $0.hasSuffix(".dng") || $0.hasSuffix(".jpg") }
        let stems = Set(files.map { ($0 as NSString).deletingPathExtension })
        #expect(stems.count == shots, "\(family): \(stems.count) stems", sourceLocation: sourceLocation)
        for stem in stems {
            #expect(files.contains(stem + ".dng") && files.contains(stem + ".jpg"), "\(family): \(stem) paired")
        }
        // Each camera file once; each shot's two camera files share a stem, and the shots follow the camera's
        // numbering with none missing.
        let cameraFiles = lines.compactMap { $0["cameraFile"] as? String }
        #expect(Set(cameraFiles).count == 2 * shots, "\(family): \(cameraFiles)", sourceLocation: sourceLocation)
        var numbers: [Int] = []
        for frame in 1...shots {
            let pair = lines.filter { $0["frame"] as? Int == frame }
            let cameraStems = Set(pair.compactMap { ($0["cameraFile"] as? String).map { ($0 as NSString).deletingPathExtension } })
            #expect(pair.count == 2 && cameraStems.count == 1, "\(family): frame \(frame): \(pair)")
            if let stem = cameraStems.first, let number = Int(stem.filter(\.isNumber).suffix(4)) { numbers.append(number) }
        }
        let expected = numbers.first.map { Array($0..<($0 + shots)) } ?? []
        #expect(numbers == expected, "\(family): the camera's numbers in order, none missing", sourceLocation: sourceLocation)
        // The hook ran once per file, in the order the files were written (the JSON lines' order).
        let hooks = try String(contentsOf: hookLog, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: " ").map(String.init)
        }
        #expect(hooks.count == 2 * shots, "\(family): \(hooks.count) hook runs", sourceLocation: sourceLocation)
        for (hook, line) in zip(hooks, lines) {
            #expect(hook.count == 6, "\(hook)")
            guard hook.count == 6 else { continue }
            #expect(hook[0] == "\(line["frame"] as? Int ?? 0)")
            #expect(hook[1] == ((line["format"] as? String) == "jpeg" ? "jpeg" : "dng"))
            #expect(hook[2] == line["path"] as? String)
            #expect(hook[3] == line["sha256"] as? String)
            #expect(hook[4] == "tether")
            #expect(hook[5] == line["cameraFile"] as? String)
        }
        let journal = try String(contentsOf: output.file("rawcap-journal.jsonl"), encoding: .utf8)
        #expect(journal.components(separatedBy: "\"event\":\"shot-taken\"").count - 1 == shots, "\(family)")
        #expect(!journal.contains("hook-failed"), "\(family)")
    }

    @Test(arguments: families)
    func hundredBodyShotsOverPTPIP(family: String) async throws {
        let server = try await SimServeProcess.start(["--model", family] + Self.camera)
        let output = try TemporaryDirectory("tether-ptpip-\(family)")
        let hookFolder = try TemporaryDirectory("tether-hook")
        let (hook, log) = try Self.hookScript(in: hookFolder)
        let reach = family == "fuji" ? "fujiptpip" : "ptpip"
        let clock = ContinuousClock()
        let started = clock.now
        let result = try await Subprocess.runDetached(
            try RawcapBinary.path(),
            [
                "tether", "--camera", "\(reach):127.0.0.1:\(server.port)", "--count", "\(Self.shots)", "--keep-jpeg",
                "--json", "-o", output.url.path, "--exec", hook,
            ])
        print("tether \(family) over PTP/IP: \(Self.shots) RAW+JPEG shots in \(clock.now - started)")
        let stopped = await server.stop()
        #expect(stopped.status == 0, "\(stopped.errorOutput)")
        try Self.check(result, output: output, hookLog: log, family: family)
        withExtendedLifetime(hookFolder) {}
    }

    @Test(arguments: families)
    func hundredBodyShotsOnTheFakeUSBBus(family: String) async throws {
        try Umockdev.require()
        let output = try TemporaryDirectory("tether-usb-\(family)")
        let hookFolder = try TemporaryDirectory("tether-hook")
        let (hook, log) = try Self.hookScript(in: hookFolder)
        let rawcap = try RawcapBinary.path()
        let clock = ContinuousClock()
        let started = clock.now
        let result = try await Subprocess.runDetached(
            rawcap,
            ["sim", "usb", "--model", family] + Self.camera + [
                "--", rawcap, "tether", "--camera", "usb", "--count", "\(Self.shots)", "--keep-jpeg", "--json", "-o",
                output.url.path, "--exec", hook,
            ])
        print("tether \(family) on the fake USB bus: \(Self.shots) RAW+JPEG shots in \(clock.now - started)")
        try Self.check(result, output: output, hookLog: log, family: family)
        withExtendedLifetime(hookFolder) {}
    }

    /// SIGUSR1 shoots one frame from the host inside the tethered session; SIGTERM (143) or SIGINT (130, Ctrl-C)
    /// then ends the run with a closed journal. A hook that fails is reported and journaled, and the run goes on.
    @Test(arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130))])
    func sigusr1ShootsFromTheHostAndASignalEndsTheRun(stopSignal: Int32, status expected: Int32) async throws {
        let server = try await SimServeProcess.start(["--sensor", "160x120"])
        let output = try TemporaryDirectory("tether-signals")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try RawcapBinary.path())
        process.arguments = [
            "tether", "--camera", "ptpip:127.0.0.1:\(server.port)", "--json", "-o", output.url.path, "--exec",
            "sh -c 'exit 3'",
        ]
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let journal = output.url.appendingPathComponent("rawcap-journal.jsonl")
        func journalHas(_ text: String, times: Int = 1) async -> Bool {
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                let content = (try? String(contentsOf: journal, encoding: .utf8)) ?? ""
                if content.components(separatedBy: text).count - 1 >= times { return true }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return false
        }
        #expect(await journalHas("\"event\":\"run-started\""))
        kill(process.processIdentifier, SIGUSR1)
        #expect(await journalHas("\"event\":\"file-written\""))
        #expect(await journalHas("\"event\":\"hook-failed\""))
        kill(process.processIdentifier, stopSignal)
        let status: Int32 = await withCheckedContinuation { continuation in
            DispatchQueue(label: "rawcap.test.tether.wait").async {
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }
        }
        let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(status == expected, "\(errors)")
        #expect(errors.contains("hook failed for"), "\(errors)")
        #expect(errors.contains("exited with status 3"), "\(errors)")
        let content = try String(contentsOf: journal, encoding: .utf8)
        #expect(content.contains("\"event\":\"shot-requested\""))
        #expect(content.contains("\"code\":\"exit-3\""))
        #expect(content.contains("\"detail\":\"interrupted\""))
        let stopped = await server.stop()
        #expect(stopped.status == 0, "\(stopped.errorOutput)")
    }

    /// SIGUSR2 to `rawcap sim serve` presses the emulated shutter once: the tether saves that one shot.
    @Test func sigusr2PressesTheServedCamerasShutter() async throws {
        let server = try await SimServeProcess.start(["--sensor", "160x120", "--model", "sony"])
        let output = try TemporaryDirectory("tether-sigusr2")
        let rawcap = try RawcapBinary.path()
        let run = Task {
            try await Subprocess.runDetached(
                rawcap, ["tether", "--camera", "ptpip:127.0.0.1:\(server.port)", "--count", "1", "-o", output.url.path])
        }
        let journal = output.url.appendingPathComponent("rawcap-journal.jsonl")
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, !((try? String(contentsOf: journal, encoding: .utf8)) ?? "").contains("run-started") {
            try await Task.sleep(for: .milliseconds(20))
        }
        kill(server.processIdentifier, SIGUSR2)
        let result = try await run.value
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(try output.contents().filter { $0.hasSuffix(".dng") }.count == 1)
        let stopped = await server.stop()
        #expect(stopped.status == 0, "\(stopped.errorOutput)")
    }

    /// `pull --exec` against a served card: the hook runs once per file pulled, as the camera wrote it.
    @Test func pullRunsTheHookOncePerFile() async throws {
        let server = try await SimServeProcess.start(["--sensor", "160x120"])
        let camera = "ptpip:127.0.0.1:\(server.port)"
        let rawcap = try RawcapBinary.path()
        let shots = try TemporaryDirectory("tether-pull-shots")
        let shoot = try await Subprocess.runDetached(
            rawcap, ["shoot", "--camera", camera, "--count", "2", "--keep-jpeg", "-o", shots.url.path])
        #expect(shoot.status == 0, "\(shoot.errorOutput)")
        let hookFolder = try TemporaryDirectory("tether-pull-hook")
        let (hook, log) = try Self.hookScript(in: hookFolder)
        let pulled = try TemporaryDirectory("tether-pulled")
        let pull = try await Subprocess.runDetached(
            rawcap, ["pull", "--all", "--original", "--json", "--camera", camera, "-o", pulled.url.path, "--exec", hook])
        #expect(pull.status == 0, "\(pull.errorOutput)")
        let lines = pull.output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let ran = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: " ").map(String.init)
        }
        #expect(lines.count == 4 && ran.count == 4, "\(ran)")
        for (hook, line) in zip(ran, lines) {
            let kind = (line["format"] as? String) == "jpeg" ? "jpeg" : "original"
            #expect(hook.count == 6 && hook[1] == kind && hook[4] == "pull", "\(hook)")
            #expect(hook.count == 6 && hook[2] == line["path"] as? String && hook[3] == line["sha256"] as? String)
        }
        let stopped = await server.stop()
        #expect(stopped.status == 0, "\(stopped.errorOutput)")
    }
}
