import Foundation
import TestSupport
import Testing

@testable import RawcapCLI

/// What `ls` and `pull` print for people, run as the built binary against one emulated camera on the fake USB bus
/// (`rawcap sim usb`, one card for the whole script).
@Suite(.serialized) struct LsAndPullTextTests {
    @Test func lsHasAHeaderReadableDatesAndASummaryAndPullSaysPulling() async throws {
        let rawcap = try #require(ChildProcess.builtProduct(named: "rawcap"), "the rawcap binary was not built")
        let bash = try ExternalTool.require("bash")
        let folder = try TemporaryDirectory("ls-text")
        let script = """
            set -u
            r="$1"; d="$2"
            "$r" shoot --count 2 --keep-jpeg -o "$d/shot" >/dev/null 2>&1 || exit 9
            "$r" ls -o "$d/shot" >"$d/ls.out" 2>"$d/ls.err"; echo "ls=$?"
            "$r" pull --resume -o "$d/nojournal" >/dev/null 2>"$d/resume.err"; echo "resume=$?"
            "$r" pull --all --original -o "$d/pulled" >/dev/null 2>"$d/pull.err"; echo "pull=$?"
            "$r" pull --all -o "$d/lossless" >/dev/null 2>&1 || echo "lossless failed"
            "$r" pull --all --compression none -o "$d/none" >/dev/null 2>&1 || echo "none failed"
            """
        let result = try await Subprocess.runDetached(
            rawcap, ["sim", "usb", "--sensor", "160x120", "--", bash, "-c", script, "bash", rawcap, folder.url.path])
        #expect(result.output == "ls=0\nresume=64\npull=0\n", "\(result.output)\(result.errorOutput)")
        func read(_ name: String) -> String { (try? String(contentsOfFile: folder.file(name).path, encoding: .utf8)) ?? "" }

        let lines = read("ls.out").split(separator: "\n").map(String.init)
        #expect(lines.first?.split(separator: " ", omittingEmptySubsequences: true) == ["HANDLE", "NAME", "FORMAT", "SIZE", "TAKEN"])
        #expect(lines.count == 5, "two RAW+JPEG shots: four files\n\(read("ls.out"))")
        for line in lines.dropFirst() {
            #expect(line.contains(#/  \d+\.\d MB  \d{4}-\d\d-\d\d \d\d:\d\d:\d\d  pulled$/#), "\(line)")
        }
        #expect(read("ls.err") == "rawcap ls: 4 files on the camera, 4 already pulled into \(folder.file("shot").path)\n")

        // --resume without a journal is a usage error that says why, and creates nothing.
        #expect(read("resume.err").contains("no journal in"), "\(read("resume.err"))")
        #expect(!FileManager.default.fileExists(atPath: folder.file("nojournal").path))

        // pull counts files and does not say "shooting".
        let pulled = read("pull.err")
        #expect(pulled.hasPrefix("pulling 4 files as original from"), "\(pulled)")
        #expect(!pulled.contains("shooting") && !pulled.contains("frame"), "\(pulled)")

        // pull stores DNG data as shoot and convert do (lossless by default); --compression none does not.
        func dngBytes(_ name: String) throws -> Int {
            let dir = folder.file(name).path
            return try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".dng") }.reduce(0) {
                $0 + ((try FileManager.default.attributesOfItem(atPath: dir + "/" + $1)[.size] as? Int) ?? 0)
            }
        }
        let (lossless, none) = (try dngBytes("lossless"), try dngBytes("none"))
        #expect(lossless > 0 && none > 0 && lossless < none, "lossless \(lossless) B, none \(none) B")
    }

    /// pull keeps the camera's names as they are with --original, skips what the folder already has (--again copies
    /// it), takes shoot's --name templates and renders with --format tiff.
    @Test func pullSkipsWhatTheFolderHasKeepsNamesAndTakesTemplates() async throws {
        let rawcap = try #require(ChildProcess.builtProduct(named: "rawcap"), "the rawcap binary was not built")
        let bash = try ExternalTool.require("bash")
        let folder = try TemporaryDirectory("pull-habits")
        let script = """
            r="$1"; d="$2"
            "$r" shoot --count 2 --keep-jpeg -o "$d/shot" >/dev/null 2>&1 || exit 9
            "$r" pull --all --original -o "$d/orig" >/dev/null 2>&1; echo "orig=$?"
            "$r" pull --all -o "$d/orig" >/dev/null 2>"$d/skip.err"; echo "skip=$?"
            "$r" pull --all --again --original -o "$d/orig" >/dev/null 2>&1; echo "again=$?"
            "$r" pull --all --format tiff --name 'day/{file}-{n}' -o "$d/named" >/dev/null 2>&1; echo "named=$?"
            "$r" pull --all --name '{nope}' -o "$d/bad" >/dev/null 2>&1; echo "bad=$?"
            """
        let result = try await Subprocess.runDetached(
            rawcap, ["sim", "usb", "--sensor", "160x120", "--", bash, "-c", script, "bash", rawcap, folder.url.path])
        #expect(result.output == "orig=0\nskip=0\nagain=0\nnamed=0\nbad=64\n", "\(result.output)\(result.errorOutput)")
        let originals = try FileManager.default.contentsOfDirectory(atPath: folder.file("orig").path).sorted()
        #expect(
            originals == [
                "RCAP0001-1.JPG", "RCAP0001-1.TIF", "RCAP0001.JPG", "RCAP0001.TIF", "RCAP0002-1.JPG", "RCAP0002-1.TIF",
                "RCAP0002.JPG", "RCAP0002.TIF", "rawcap-journal.jsonl",
            ], "the camera's names as they are; --again's copies get -1: \(originals)")
        let skipped = (try? String(contentsOfFile: folder.file("skip.err").path, encoding: .utf8)) ?? ""
        #expect(skipped.contains("4 files already pulled into") && skipped.contains("--again"), "\(skipped)")
        let named = try FileManager.default.contentsOfDirectory(atPath: folder.file("named/day").path).sorted()
        #expect(named == ["RCAP0001-1.jpg", "RCAP0001-1.tif", "RCAP0002-2.jpg", "RCAP0002-2.tif"], "\(named)")
    }

    @Test func readableDatesFromPTPDateTimes() {
        #expect(RawcapCommand.Ls.readableDate("20261129T091213") == "2026-11-29 09:12:13")
        #expect(RawcapCommand.Ls.readableDate("20261129T091213.5+0100") == "2026-11-29 09:12:13")
        #expect(RawcapCommand.Ls.readableDate("") == "—")
        #expect(RawcapCommand.Ls.readableDate("yesterday\u{1B}[2J") == "yesterday?[2J")
    }
}
