import DNG
import Foundation
import OutputFiles
import TestSupport
import Testing

@testable import Capture

/// `DownloadFile` (issue 7): an object streamed into its file as it downloads, under `DownloadBuffer`'s rules.
@Suite struct DownloadFileTests {
    private static func hidden(in folder: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".") }
    }

    @Test func chunksReachTheFileWhichAppearsOnlyOnCommit() async throws {
        let folder = try TemporaryDirectory("download-file")
        let path = folder.file("A.TIF").path
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        let file = try DownloadFile(creatingAt: path, limit: bytes.count)
        try await file.dataPhaseWillStart(byteCount: UInt64(bytes.count))
        for start in stride(from: 0, to: bytes.count, by: 65_536) {
            try await file.write(bytes[start..<min(bytes.count, start + 65_536)])
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try Self.hidden(in: folder).count == 1)
        let (size, sha256) = try file.commit()
        #expect(size == bytes.count)
        #expect(sha256 == MessageDigest.hex(MessageDigest.hash(.sha256, bytes)))
        #expect(FileManager.default.contents(atPath: path) == Data(bytes))
        #expect(try Self.hidden(in: folder).isEmpty)
    }

    @Test func moreThanTheLimitIsRefusedAndDiscardLeavesNothing() async throws {
        let folder = try TemporaryDirectory("download-file")
        let path = folder.file("B.JPG").path
        let file = try DownloadFile(creatingAt: path, limit: 1000)
        await #expect(throws: CaptureError(.badObject)) { try await file.dataPhaseWillStart(byteCount: 1001) }
        try await file.write([UInt8](repeating: 1, count: 600)[...])
        await #expect(throws: CaptureError(.badObject)) { try await file.write([UInt8](repeating: 2, count: 401)[...]) }
        #expect(file.byteCount == 600)
        file.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test func anExistingFileIsNeverReplaced() throws {
        let folder = try TemporaryDirectory("download-file")
        let path = folder.file("C.TIF").path
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
        #expect(throws: OutputFileError(.fileExists)) { _ = try DownloadFile(creatingAt: path, limit: 10) }
        #expect(FileManager.default.contents(atPath: path) == Data([1, 2, 3]))
    }

    /// Issue 7 (hostile camera, `trickle-data`), as for `DownloadBuffer`.
    @Test func aTricklingDownloadIsStopped() async throws {
        let folder = try TemporaryDirectory("download-file")
        let file = try DownloadFile(
            creatingAt: folder.file("D.TIF").path, limit: 1 << 20,
            floor: DownloadBuffer.RateFloor(bytesPerSecond: 64 * 1024, grace: .milliseconds(200)))
        try await file.write([UInt8](repeating: 1, count: 512)[...])
        try await Task.sleep(for: .milliseconds(400))
        await #expect(throws: CaptureError(.downloadStalled)) {
            try await file.write([UInt8](repeating: 1, count: 512)[...])
        }
        file.discard()
    }
}
