import DNG
import Foundation
import OutputFiles
import RawImage
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Files are never lost and never overwritten (DESIGN.md): each failure is a typed error naming the path, and
/// nothing is left behind.
@Suite struct OutputFileTests {
    @Test func theFileAppearsOnlyWhenCommitted() throws {
        let folder = try TemporaryDirectory("output-commit")
        let path = folder.file("shot.jpg").path
        let file = try OutputFile(creatingAt: path)
        try file.write([1, 2, 3])
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try folder.contents() == [URL(fileURLWithPath: file.temporaryPath).lastPathComponent])
        try file.commit()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data([1, 2, 3]))
        #expect(try folder.contents() == ["shot.jpg"])
    }

    @Test func anExistingFileIsNeverOverwritten() throws {
        let folder = try TemporaryDirectory("output-exists")
        let path = folder.file("shot.dng").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: OutputFileError(.fileExists)) { try OutputFile.write([9, 9], to: path) }
        #expect(error?.path == path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("old".utf8))
        #expect(try folder.contents() == ["shot.dng"])
    }

    @Test func aFileThatAppearsWhileWritingIsNotReplaced() throws {
        let folder = try TemporaryDirectory("output-race")
        let path = folder.file("shot.dng").path
        let file = try OutputFile(creatingAt: path)
        try file.write([1, 2, 3])
        try Data("theirs".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: OutputFileError(.fileExists)) { try file.commit() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("theirs".utf8))
        #expect(try folder.contents() == ["shot.dng"])
    }

    @Test func aMissingFolderIsNamed() throws {
        let folder = try TemporaryDirectory("output-missing")
        let missing = folder.file("no/such/folder").path
        let error = #expect(throws: OutputFileError(.folderNotFound)) { try OutputFile(creatingAt: missing + "/a.dng") }
        #expect(error?.path == missing)
        #expect(error?.description.contains("No such file or directory") == true)
    }

    @Test func aReadOnlyFolderIsNotWritable() throws {
        // sysfs refuses new files even to root, so this runs the same on a developer machine and in CI.
        let error = #expect(throws: OutputFileError(.notWritable)) { try OutputFile(creatingAt: "/sys/rawcap-test.dng") }
        #expect(error?.path == "/sys/rawcap-test.dng")
        if geteuid() != 0 {
            // Permission bits stop everyone but root.
            let folder = try TemporaryDirectory("output-readonly")
            chmod(folder.url.path, 0o555)
            defer { chmod(folder.url.path, 0o755) }
            #expect(throws: OutputFileError(.notWritable)) { try OutputFile(creatingAt: folder.file("a.dng").path) }
        }
    }

    @Test func anAbandonedFileLeavesNothingBehind() throws {
        let folder = try TemporaryDirectory("output-discard")
        do {
            let file = try OutputFile(creatingAt: folder.file("a.dng").path)
            try file.write([UInt8](repeating: 7, count: 1000))
        }
        #expect(try folder.contents().isEmpty)
        let file = try OutputFile(creatingAt: folder.file("b.dng").path)
        file.discard()
        #expect(try folder.contents().isEmpty)
    }

    /// What a second Ctrl-C does before exit(130): the temporaries of files still being written go; committed
    /// files stay, and the abandoned OutputFile's own cleanup later is harmless.
    @Test func removingTemporariesLeavesNoHiddenFile() throws {
        let folder = try TemporaryDirectory("output-remove-temporaries")
        try OutputFile.write([1], to: folder.file("done.dng").path)
        let file = try OutputFile(creatingAt: folder.file("half.dng").path)
        try file.write([UInt8](repeating: 7, count: 1000))
        #expect(try folder.contents().count == 2)
        OutputFile.removeTemporaries(in: folder.url.path)
        #expect(try folder.contents() == ["done.dng"])
        file.discard()
        #expect(try folder.contents() == ["done.dng"])
    }

    @Test func sha256OfAFileMatchesTheBytes() throws {
        let folder = try TemporaryDirectory("output-sha")
        let path = folder.file("a.bin").path
        let bytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try OutputFile.write(bytes, to: path)
        #expect(try MessageDigest.hashFile(.sha256, at: path) == MessageDigest.hash(.sha256, bytes))
        #expect(throws: OutputFileError(.ioFailure)) { try MessageDigest.hashFile(.sha256, at: path + ".missing") }
    }

    /// A full disk, for real: a child process (this test binary, running only ``fileSizeLimitChild()``) writes
    /// under RLIMIT_FSIZE with SIGXFSZ ignored, so write(2) fails with EFBIG exactly as on a full file system.
    @Test func aFullDiskIsReportedAndLeavesNothingBehind() async throws {
        let folder = try TemporaryDirectory("output-full")
        let binary = try #require(try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        let result = try await Subprocess.runDetached(
            binary, ["--testing-library", "swift-testing", "--filter", "fileSizeLimitChild"],
            environment: [Self.childVariable: folder.url.path])
        let lines = result.output.split(separator: "\n").filter { $0.hasPrefix("CHILD ") }
        #expect(result.status == 0, "child failed: \(result.output.suffix(2000)) \(result.errorOutput.suffix(2000))")
        #expect(lines.count == 2, "\(result.output.suffix(2000))")
        for line in lines {
            #expect(line.contains("diskFull") && line.contains("File too large"), "\(line)")
        }
        #expect(try folder.contents().isEmpty)
    }

    static let childVariable = "RAWCAP_FSIZE_CHILD_FOLDER"

    /// Runs only inside the child process of ``aFullDiskIsReportedAndLeavesNothingBehind()``.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil, "child of the full-disk test"))
    func fileSizeLimitChild() throws {
        let folder = try #require(ProcessInfo.processInfo.environment[Self.childVariable])
        signal(SIGXFSZ, SIG_IGN)
        var limit = rlimit(rlim_cur: 64 * 1024, rlim_max: 64 * 1024)
        #expect(setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0)

        let plain = #expect(throws: OutputFileError(.diskFull)) {
            try OutputFile.write([UInt8](repeating: 1, count: 200_000), to: "\(folder)/plain.bin")
        }
        print("CHILD plain \(plain.map { "\($0.code) \($0)" } ?? "no error")")

        let frame = try TestImages.frame(width: 320, height: 240, bitsPerSample: 14, cfa: .rggb)
        // A DNG's writer says it as its own error; any other file (a pulled NEF, a JPEG) says OutputFileError.
        let dng = #expect(throws: DNGError(.diskFull)) {
            try DNGWriter.write(frame, previews: try TestImages.previews(of: frame), to: "\(folder)/frame.dng")
        }
        print("CHILD dng \(dng.map { "\($0.code) \($0)" } ?? "no error")")
    }
}
