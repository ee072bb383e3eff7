import ArgumentParser
import DNG
import Foundation
import OutputFiles
import PTP
import PTPRecord
import TestSupport
import Testing

@testable import RawcapCLI

/// `make real-cameras` in `make test`: every real camera's recording under `Fixtures/traces/` replays through the
/// production drivers no worse than `docs/real-cameras.md` says, and every imported recording names its source.
@Suite(.serialized) struct RealCameraConformanceTests {
    static var root: URL { ExternalTool.packageRoot }

    @Test func noStageDoesWorseThanTheCommittedTable() async throws {
        let files = RawcapCommand.Replay.Check.recordings([Self.root.appendingPathComponent("Fixtures/traces").path])
        #expect(files.count >= 20)
        var rows: [RealCameraConformance.Row] = []
        for file in files {
            rows.append(await RealCameraConformance.check(path: file, recording: RawcapCommand.Replay.Check.name(file)))
        }
        let committed = try String(
            contentsOf: Self.root.appendingPathComponent("docs/real-cameras.md"), encoding: .utf8)
        // Only a regression fails: a change that gets further leaves the page to `make real-cameras` to rewrite.
        #expect(RealCameraConformance.regressions(committed: committed, rows: rows) == [])
    }

    @Test func aRegressionIsFound() {
        var row = RealCameraConformance.Row(
            recording: "real/x", camera: "X", maker: "Nikon",
            outcomes: Dictionary(uniqueKeysWithValues: RealCameraConformance.Stage.allCases.map { ($0, .absent) }))
        row.outcomes[.info] = .pass("X")
        let committed = RealCameraConformance.table([row])
        #expect(RealCameraConformance.regressions(committed: committed, rows: [row]) == [])
        row.outcomes[.info] = .fail("does not decode")
        #expect(RealCameraConformance.regressions(committed: committed, rows: [row]).count == 1)
        row.outcomes[.info] = .cut("GetDeviceInfo: 10 of 20 bytes")
        #expect(RealCameraConformance.regressions(committed: committed, rows: [row]).count == 1)
        #expect(RealCameraConformance.regressions(committed: committed, rows: []).count == 1)
    }

    /// Every recording in `Fixtures/traces/real/` loads and has its row in README.md with its SHA-256.
    @Test func everyImportedRecordingHasItsSourceRow() throws {
        let folder = Self.root.appendingPathComponent("Fixtures/traces/real")
        let readme = try String(contentsOf: folder.appendingPathComponent("README.md"), encoding: .utf8)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".pcapng") }
        #expect(files.count >= 20)
        for file in files {
            _ = try PTPConversation.load(path: folder.appendingPathComponent(file).path)
            let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(file)))
            let digest = MessageDigest.hex(MessageDigest.hash(.sha256, bytes))
            let row = readme.split(separator: "\n").first { $0.contains("`\(file)`") }
            #expect(row != nil, "README.md names \(file)")
            #expect(row?.contains(digest) == true, "README.md gives the SHA-256 of \(file): \(digest)")
            #expect(row?.contains("https://github.com/") == true || row?.contains("Fixtures/ptp-real") == true)
        }
    }

    /// `rawcap replay import`'s exit statuses: 66 for a missing log, 65 for a log with no PTP transaction, 73 for
    /// an output that exists.
    @Test func importExitStatuses() throws {
        let folder = try TemporaryDirectory("replay-import")
        let empty = folder.file("empty.log").path
        try Data("0.1 main(2): gphoto2 2.5.30\n".utf8).write(to: URL(fileURLWithPath: empty))
        let output = folder.file("out.pcapng").path
        func status(_ arguments: [String]) -> Int32 {
            do {
                var command = try RawcapCommand.parseAsRoot(arguments)
                try command.run()
                return 0
            } catch let code as ExitCode {
                return code.rawValue
            } catch {
                return -1
            }
        }
        #expect(status(["replay", "import", "-q", folder.file("missing.log").path, "-o", output]) == 66)
        #expect(status(["replay", "import", "-q", empty, "-o", output]) == 65)
        var log = ""
        log += "0.1 gp_port_write (3): Wrote 16 = 0x10 bytes to port: (hexdump of 16 bytes)\n"
        log += "0000  10 00 00 00 01 00 02 10-00 00 00 00 01 00 00 00  ................\n\n"
        log += "0.2 gp_port_read (3): Read 12 = 0xc out of 512 bytes from port: (hexdump of 12 bytes)\n"
        log += "0000  0c 00 00 00 03 00 01 20-00 00 00 00              ....... ....\n"
        let good = folder.file("good.log").path
        try Data(log.utf8).write(to: URL(fileURLWithPath: good))
        #expect(status(["replay", "import", "-q", good, "-o", output]) == 0)
        #expect(try PTPConversation.load(path: output).transactions.map(\.request.code) == [.openSession])
        #expect(status(["replay", "import", "-q", good, "-o", output]) == 73)
    }
}
