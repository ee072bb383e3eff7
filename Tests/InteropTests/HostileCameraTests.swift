import Foundation
import TestSupport
import Testing

/// The built `rawcap shoot` and `rawcap pull --all` against the hostile camera (`--model hostile`, each
/// `hostile=` attack of CameraEmulator's `HostileBehaviour`), over USB framing (`--camera sim`, in process) and over
/// PTP/IP (`rawcap sim serve` in a process of its own): the right exit status with one clean error line, nothing
/// written outside the output folder, no temporaries, peak memory bounded and the run over soon after `--timeout`.
@Suite(.serialized, .timeLimit(.minutes(15))) struct HostileCameraTests {
    /// One attack and what rawcap must answer.
    struct Attack: Sendable, CustomStringConvertible {
        let name: String
        /// The exit status of `shoot` and `pull --all`.
        let status: Int32
        /// A fragment the error line must contain.
        let message: String?
        var description: String { name }
    }

    static let attacks: [Attack] = [
        Attack(name: "traversal", status: 0, message: nil),
        Attack(name: "strings", status: 0, message: nil),
        Attack(name: "huge-length", status: 76, message: "more than rawcap downloads"),
        Attack(name: "endless-data", status: 76, message: "bytes"),
        Attack(name: "silent-data", status: 74, message: nil),
        Attack(name: "stalled-data", status: 74, message: nil),
        Attack(name: "trickle-data", status: 74, message: nil),
        Attack(name: "trickle-dataset", status: 74, message: "did not answer in time"),
        Attack(name: "cyclic-tiff", status: 76, message: "points back to an IFD already read"),
        Attack(name: "deep-tiff", status: 76, message: "SubIFDs nested deeper than"),
        Attack(name: "subifd-loop", status: 76, message: "points back to an IFD already read"),
        Attack(name: "bad-offsets", status: 76, message: "beyond the end of the file"),
    ]

    /// Which command over which link.
    enum Run: String, CaseIterable, Sendable, CustomStringConvertible {
        case shootUSB = "shoot over USB framing"
        case shootPTPIP = "shoot over PTP/IP"
        case pullUSB = "pull --all over USB framing"
        case pullPTPIP = "pull --all over PTP/IP"
        var description: String { rawValue }
        var isPTPIP: Bool { self == .shootPTPIP || self == .pullPTPIP }
        var arguments: [String] {
            self == .shootUSB || self == .shootPTPIP ? ["shoot", "--count", "1", "--keep-jpeg"] : ["pull", "--all"]
        }
        var command: String { arguments[0] }
    }

    static let timeout = 2.0
    static let sensor = "320x240"
    /// Longest a run may take: the download's retries (3 attempts of `timeout` each) and the settings restore after
    /// it, with room for a loaded machine.
    static let deadline = 40.0
    /// Peak resident memory allowed, in kilobytes, for a camera that claims 4 GiB objects.
    static let maxRSSKilobytes = 300 * 1024

    @Test(arguments: attacks, Run.allCases)
    func rawcapSurvives(attack: Attack, run: Run) async throws {
        let rawcap = try RawcapBinary.path()
        let time = try ExternalTool.require("time")
        let sandbox = try TemporaryDirectory("hostile-\(attack.name)")
        let scratch = try TemporaryDirectory("hostile-rss")
        let out = sandbox.file("out")
        let rssFile = scratch.file("rss").path
        var server: SimServeProcess?
        var camera: [String]
        if run.isPTPIP {
            let started = try await SimServeProcess.start(
                ["--model", "hostile", "--sensor", Self.sensor, "--fault", "hostile=\(attack.name)"])
            server = started
            camera = ["--camera", "ptpip:127.0.0.1:\(started.port)"]
        } else {
            camera = [
                "--camera", "sim", "--sim-model", "hostile", "--sim-sensor", Self.sensor, "--sim-fault",
                "hostile=\(attack.name)",
            ]
        }
        let started = ContinuousClock.now
        let result = try await Subprocess.runDetached(
            time,
            ["-f", "%M", "-o", rssFile, rawcap] + run.arguments + camera
                + ["--timeout", String(Self.timeout), "-o", out.path])
        let elapsed = (ContinuousClock.now - started) / .seconds(1)
        _ = await server?.stop()

        // The status, and one clean line on standard error.
        #expect(result.status == attack.status, "\(run) \(attack): \(result.errorOutput)")
        // Progress and warnings come first; the verdict is the last line, and the only one with the command's
        // prefix.
        let lines = result.errorOutput.split(separator: "\n")
        let verdicts = lines.filter { $0.hasPrefix("rawcap \(run.command): ") }
        #expect(verdicts.count == 1 && lines.last == verdicts.first, "\(result.errorOutput.debugDescription)")
        if attack.status != 0, let message = attack.message {
            #expect(verdicts.first?.contains(message) == true, "\(result.errorOutput)")
        }
        for (stream, text) in [("stdout", result.output), ("stderr", result.errorOutput)] {
            let controls = text.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F }
            #expect(controls.isEmpty, "\(stream) carries camera control characters: \(text.debugDescription)")
        }

        // Files: everything inside the output folder, sanitised names, no temporaries, a readable journal.
        let everything = try Self.files(under: sandbox.url)
        let outside = everything.filter { !$0.hasPrefix("out/") && $0 != "out" }
        #expect(outside.isEmpty, "written outside the output folder: \(outside)")
        for escaped in ["/tmp/rawcap-escape-1.TIF", "/tmp/rawcap-absolute-2.TIF", "/tmp/rawcap-escape-1.dng"] {
            #expect(!FileManager.default.fileExists(atPath: escaped), "\(escaped) written")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
        for name in names {
            #expect(!name.hasPrefix("."), "temporary \(name) left")
            #expect(
                name.unicodeScalars.allSatisfy {
                    $0.isASCII
                        && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
                            || "._+-".unicodeScalars.contains($0))
                },
                "unsanitised name \(name.debugDescription)")
            #expect(name.utf8.count <= 255)
        }
        if attack.status == 0 {
            #expect(names.contains { $0.hasSuffix(".dng") }, "\(names)")
        }
        if let journal = try? String(contentsOf: out.appendingPathComponent("rawcap-journal.jsonl"), encoding: .utf8) {
            for line in journal.split(separator: "\n") {
                #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "journal line \(line)")
            }
        }

        // Memory and time.
        let rss = try String(contentsOfFile: rssFile, encoding: .utf8).split(separator: "\n").last.flatMap { Int($0) }
        let kilobytes = try #require(rss, "time -f %M wrote no figure")
        #expect(kilobytes < Self.maxRSSKilobytes, "peak RSS \(kilobytes) kB")
        #expect(elapsed < Self.deadline, "took \(elapsed) s with --timeout \(Self.timeout)")
    }

    /// Every path under `root`, relative to it.
    static func files(under root: URL) throws -> [String] {
        let base = root.resolvingSymlinksInPath().path
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
        return walker.compactMap { $0 as? String }
    }
}
