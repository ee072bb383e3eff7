import Foundation
import TestSupport
import Testing

/// `rawcap shoot`, `ls` and `pull` as separate processes against one `rawcap sim serve`, whose card outlives each
/// command: what one command leaves on the card, the next one lists, fetches, resumes or deletes.
@Suite(.serialized, .timeLimit(.minutes(3))) struct PullAcrossProcessesTests {
    /// The journal's lines as JSON objects.
    static func journal(_ folder: TemporaryDirectory) throws -> [[String: Any]] {
        let text = try String(contentsOf: folder.file("rawcap-journal.jsonl"), encoding: .utf8)
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// The journal's entries of one event.
    static func entries(_ event: String, in folder: TemporaryDirectory) throws -> [[String: Any]] {
        try journal(folder).filter { $0["event"] as? String == event }
    }

    /// The files in the folder other than the journal (hidden temporaries included, so that a leftover shows).
    static func files(_ folder: TemporaryDirectory) throws -> [String] {
        try folder.contents().filter { $0 != "rawcap-journal.jsonl" }.sorted()
    }

    /// `rawcap ls --json` against the server: one object per file on the card.
    static func ls(_ camera: String, _ folder: TemporaryDirectory) async throws -> [[String: Any]] {
        let ls = try await Subprocess.runDetached(
            try RawcapBinary.path(), ["ls", "--camera", camera, "--json", "-o", folder.url.path])
        #expect(ls.status == 0, "\(ls.errorOutput)")
        return ls.output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// A shoot cut by a disconnect on the server, then `pull --resume`: exactly the frame the journal has
    /// announced and not written is fetched, every frame is on disk once; then `ls`, `pull --new` (nothing left),
    /// and `pull --all --original --delete-after`, which deletes each object only once its file is on disk.
    @Test func aShootCutByADisconnectIsResumedFromTheSameCard() async throws {
        // A 256×192 raw is about 100 kB: the link breaks in the second frame's download.
        let server = try await SimServeProcess.start(["--sensor", "256x192", "--fault", "disconnect-after=150000"])
        let camera = "ptpip:127.0.0.1:\(server.port)"
        let rawcap = try RawcapBinary.path()
        let folder = try TemporaryDirectory("pull-across")

        let shoot = try await Subprocess.runDetached(
            rawcap, ["shoot", "--camera", camera, "--count", "3", "-o", folder.url.path])
        #expect(shoot.status == 74, "\(shoot.errorOutput)")
        #expect(shoot.errorOutput.contains("disconnected"), "\(shoot.errorOutput)")
        let afterShoot = try Self.files(folder)
        #expect(afterShoot.count == 1, "one frame saved before the break, no temporary left: \(afterShoot)")
        let announced = Set(try Self.entries("object-announced", in: folder).compactMap { $0["cameraFile"] as? String })
        let writtenByShoot = Set(
            try Self.entries("file-written", in: folder).compactMap { $0["cameraFile"] as? String })
        let missing = announced.subtracting(writtenByShoot)
        #expect(writtenByShoot.count == 1 && missing.count == 1, "announced \(announced), written \(writtenByShoot)")

        // ls in another process sees the card the shoot left: both frames, the first one pulled.
        let listed = try await Self.ls(camera, folder)
        #expect(listed.count == 2, "\(listed)")
        #expect(Set(listed.filter { $0["pulled"] as? Bool == true }.compactMap { $0["cameraFile"] as? String }) == writtenByShoot)

        let resume = try await Subprocess.runDetached(rawcap, ["pull", "--resume", "--camera", camera, "-o", folder.url.path])
        #expect(resume.status == 0, "\(resume.errorOutput)")
        #expect(resume.errorOutput.contains("1 file in"), "\(resume.errorOutput)")
        let written = try Self.entries("file-written", in: folder).compactMap { $0["cameraFile"] as? String }
        #expect(Set(written) == announced, "every announced frame written")
        #expect(written.count == Set(written).count, "each frame written once: \(written)")
        let afterResume = try Self.files(folder)
        #expect(afterResume.count == 2 && afterResume.allSatisfy { $0.hasSuffix(".dng") }, "\(afterResume)")

        // Nothing is new now, and ls says so.
        #expect(try await Self.ls(camera, folder).allSatisfy { $0["pulled"] as? Bool == true })
        let new = try await Subprocess.runDetached(rawcap, ["pull", "--new", "--camera", camera, "-o", folder.url.path])
        #expect(new.status == 0, "\(new.errorOutput)")
        #expect(new.errorOutput.contains("0 files in"), "\(new.errorOutput)")
        #expect(try Self.files(folder) == afterResume)

        // Everything as the camera wrote it, deleted from the card once on disk.
        let originals = try TemporaryDirectory("pull-across-originals")
        let all = try await Subprocess.runDetached(
            rawcap, ["pull", "--all", "--original", "--delete-after", "--camera", camera, "-o", originals.url.path])
        #expect(all.status == 0, "\(all.errorOutput)")
        let pulled = try Self.files(originals)
        #expect(pulled.count == 2, "\(pulled)")
        var onDisk: Set<String> = []
        for entry in try Self.journal(originals) {
            let name = entry["cameraFile"] as? String ?? ""
            switch entry["event"] as? String {
            case "file-written":
                let path = try #require(entry["path"] as? String)
                #expect(FileManager.default.fileExists(atPath: path))
                onDisk.insert(name)
            case "object-deleted":
                #expect(onDisk.contains(name), "\(name) deleted before its file was written")
            default: break
            }
        }
        #expect(try Self.entries("object-deleted", in: originals).count == 2)
        #expect(try await Self.ls(camera, originals).isEmpty, "the card is empty")

        let stopped = await server.stop()
        #expect(stopped.status == 0, "\(stopped.errorOutput)")
    }

    /// Ctrl-C in the middle of a bracket's download on a slow link: the frame is finished, the bias the bracket
    /// set is put back on the camera (read in another process afterwards), the run ends interrupted with 130, and
    /// `pull --resume` has nothing to fetch.
    @Test func ctrlCDuringABracketDownloadRestoresTheBias() async throws {
        let server = try await SimServeProcess.start(["--sensor", "256x192", "--fault", "slow=100kB/s"])
        let camera = "ptpip:127.0.0.1:\(server.port)"
        let rawcap = try RawcapBinary.path()
        let python = try ExternalTool.require("python3")
        let folder = try TemporaryDirectory("sigint-bracket-across")
        let before = try await Subprocess.runDetached(rawcap, ["config", "get", "ev", "--camera", camera])
        #expect(before.status == 0 && before.output.hasPrefix("ev="), "\(before.output) \(before.errorOutput)")
        let script = """
            import os, signal, subprocess, sys, time
            folder = sys.argv[1]
            child = subprocess.Popen(sys.argv[2:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
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
            child.send_signal(signal.SIGINT)
            out, err = child.communicate(timeout=120)
            sys.stdout.write(str(child.returncode) + "\\n")
            sys.stderr.write(err.decode())
            """
        let shoot = try await Subprocess.runDetached(
            python,
            [
                "-c", script, folder.url.path, rawcap, "shoot", "--camera", camera, "--bracket", "-2,0,+2",
                "--count", "2", "-o", folder.url.path,
            ])
        #expect(shoot.output == "130\n", "\(shoot.output) \(shoot.errorOutput)")
        let files = try Self.files(folder)
        #expect(files.count == 1, "the frame being downloaded is finished, nothing hidden: \(files)")
        let journal = try Self.journal(folder)
        #expect(journal.last?["event"] as? String == "run-finished")
        #expect(journal.last?["detail"] as? String == "interrupted")
        let after = try await Subprocess.runDetached(rawcap, ["config", "get", "ev", "--camera", camera])
        #expect(after.status == 0, "\(after.errorOutput)")
        #expect(after.output == before.output, "the bias is back: \(before.output) → \(after.output)")
        let resume = try await Subprocess.runDetached(rawcap, ["pull", "--resume", "--camera", camera, "-o", folder.url.path])
        #expect(resume.status == 0, "\(resume.errorOutput)")
        #expect(resume.errorOutput.contains("0 files in"), "\(resume.errorOutput)")
        let stopped = await server.stop()
        #expect(stopped.status == 0, "\(stopped.errorOutput)")
    }

    /// A plain shoot, then `pull --new` in another process: the frames the shoot saved are not fetched again;
    /// `pull --all` into a fresh folder fetches them all.
    @Test func pullNewSkipsWhatTheShootSaved() async throws {
        let server = try await SimServeProcess.start(["--sensor", "160x120"])
        let camera = "ptpip:127.0.0.1:\(server.port)"
        let rawcap = try RawcapBinary.path()
        let folder = try TemporaryDirectory("pull-new-across")
        let shoot = try await Subprocess.runDetached(
            rawcap, ["shoot", "--camera", camera, "--count", "2", "-o", folder.url.path])
        #expect(shoot.status == 0, "\(shoot.errorOutput)")
        #expect(try Self.files(folder).count == 2)
        let new = try await Subprocess.runDetached(rawcap, ["pull", "--new", "--camera", camera, "-o", folder.url.path])
        #expect(new.status == 0, "\(new.errorOutput)")
        #expect(new.errorOutput.contains("0 files in"), "\(new.errorOutput)")
        let other = try TemporaryDirectory("pull-all-across")
        let all = try await Subprocess.runDetached(rawcap, ["pull", "--all", "--camera", camera, "-o", other.url.path])
        #expect(all.status == 0, "\(all.errorOutput)")
        let fetched = try Self.files(other)
        #expect(fetched.count == 2, "\(fetched)")
        let stopped = await server.stop()
        #expect(stopped.status == 0, "\(stopped.errorOutput)")
    }

    /// Over PTP/IP a download asks for 8 MiB per GetPartialObject (issue 7: each transaction is a round trip through
    /// both ends' schedulers): a 12 MB original comes in two transactions, the file byte for byte the camera's.
    @Test func ptpipDownloadsAskForEightMebibytesATransaction() async throws {
        let server = try await SimServeProcess.start(["--sensor", "3000x2000"])
        let camera = "ptpip:127.0.0.1:\(server.port)"
        let rawcap = try RawcapBinary.path()
        let card = try TemporaryDirectory("pull-chunks-card")
        let shoot = try await Subprocess.runDetached(
            rawcap, ["shoot", "--camera", camera, "--count", "1", "--format", "bayer14", "-o", card.url.path])
        #expect(shoot.status == 0, "\(shoot.errorOutput)")
        let folder = try TemporaryDirectory("pull-chunks")
        let pull = try await Subprocess.runDetached(
            rawcap, ["pull", "--all", "--original", "-v", "--camera", camera, "-o", folder.url.path])
        #expect(pull.status == 0, "\(pull.errorOutput)")
        let requests = pull.errorOutput.split(separator: "\n").filter { $0.contains("→ GetPartialObject") }
        let files = try Self.files(folder)
        #expect(files.count == 1, "\(files)")
        let size = try Data(contentsOf: folder.file(files.first ?? "")).count
        #expect(size > 8 << 20 && size <= 16 << 20, "\(size) bytes")
        #expect(requests.count == 2, "\(requests)")
        #expect(requests.allSatisfy { $0.contains("\"0x800000\"") }, "\(requests)")
        let stopped = await server.stop()
        #expect(stopped.status == 0, "\(stopped.errorOutput)")
    }
}
