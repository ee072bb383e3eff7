import Foundation
import PlatformSupport
import Testing

/// PlatformSupport against full Foundation, which the test process links: the executable prints the same text
/// without it (error reasons are rawcap's own, the C library's words).
struct FoundationParityTests {
    /// Numbers that round half-way, at the edges of each format, and the ones printf treats specially.
    static let doubles: [Double] = {
        var values: [Double] = [
            0, -0.0, 0.05, 0.15, 0.25, 0.35, 0.45, 1.45, 2.5, -2.5, 0.0005, 0.0015, 0.9995, 1e15, 1e16, 123456789.25,
            -0.04, 1e-7, 5e-324, .greatestFiniteMagnitude, .infinity, -.infinity, .nan, 33.6, 31.2, 99.95,
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            values.append(Double.random(in: -1000...1000, using: &generator))
            values.append(Double(Int.random(in: 0...100_000, using: &generator)) / 1000)
            values.append(Double(Int.random(in: 0...100_000_000, using: &generator)) / 1e6)
        }
        return values
    }()

    @Test(
        "String(cFormat:) writes what String(format:) writes",
        arguments: ["%.1f", "%.2f", "%.3f", "%g", "%.1f kB", "%.1f MB", "%.1f MB/s"])
    func doubleFormats(_ format: String) {
        for value in Self.doubles {
            #expect(String(cFormat: format, value) == String(format: format, value), "\(format) \(value)")
        }
    }

    @Test func integerFormats() {
        for value in [0, 1, 9, 10, 59, 60, 61, 599, 3599, 3600, 100_000, -1, Int(Int32.max)] {
            let (minutes, seconds) = (value / 60, value % 60)
            #expect(
                String(cFormat: " · %d:%02d left", minutes, seconds)
                    == String(format: " · %d:%02d left", minutes, seconds))
        }
        for byte in UInt8.min...UInt8.max {
            #expect(String(cFormat: "%02x", byte) == String(format: "%02x", byte))
        }
    }

    @Test func trimming() {
        let pieces = [
            " ", "\t", "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{A0}", "\u{1680}", "\u{2000}", "\u{200A}",
            "\u{200B}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}", "\u{FEFF}", "\u{301}", "a", "é",
            "x y", "\0",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20000 {
            let text = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                pieces.randomElement(using: &generator) ?? ""
            }.joined()
            #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
            #expect(
                text.trimmingWhitespaceAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines),
                "\(text.debugDescription)")
        }
        for value in UInt32(0)...0x3100 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "a" + String(Character(scalar)) + "b" + String(Character(scalar))
            #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
            #expect(text.trimmingWhitespaceAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// The reason a failed `createDirectory` gives is the C library's text for its errno.
    @Test func errorText() throws {
        for (path, number) in [
            ("/proc/rawcap-no-such/x", ENOENT), ("/etc/passwd/x", ENOTDIR),
            ("/tmp/" + String(repeating: "n", count: 300), ENAMETOOLONG),
        ] {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
                Issue.record("\(path) was created")
            } catch {
                #expect(SystemErrorText.reason(error) == String(cString: strerror(number)), "\(path): \(error)")
            }
        }
        #expect(SystemErrorText.reason(POSIXError(.EACCES)) == "Permission denied")
        #expect(SystemErrorText.reason(CocoaError(.fileWriteNoPermission)) == "Permission denied")
        #expect(SystemErrorText.reason(CocoaError(.fileWriteOutOfSpace)) == "No space left on device")
        #expect(
            SystemErrorText.reason(CocoaError(.fileWriteUnknown, userInfo: ["NSUnderlyingError": POSIXError(.EROFS)]))
                == "Read-only file system")
        #expect(SystemErrorText.reason(CocoaError(.fileWriteUnknown)) == "file system error 512")
    }

    /// A program that cannot be started names the C library's reason.
    @Test func spawnFailuresNameTheReason() {
        #expect(throws: ChildSpawn.Failure.self) {
            try ChildSpawn.spawn("/nonexistent/rawcap-x", arguments: [], environment: [:])
        }
        do {
            _ = try ChildSpawn.spawn("/tmp", arguments: [], environment: [:])
            Issue.record("a folder was started")
        } catch {
            #expect("\(error)" == "Permission denied")
        }
    }

    @Test(
        "deletingLastPathComponent as NSString's",
        arguments: [
            "", "/", "ab", "ab/", "/ab", "/ab/", "/a/b", "a/b", "a//b", "a//b/", "//a", "./x.nef", "../x",
            "dir/sub/f.nef",
            "/x/y/z/", "é/ü", " / ", "~/x", "captures/IMG_0001.NEF", "/tmp/in.dng",
        ])
    func deletingLastPathComponent(_ path: String) {
        #expect(PathText.deletingLastPathComponent(path) == (path as NSString).deletingLastPathComponent)
    }

    /// Names NSString trapped on (one UTF-16 unit: `rawcap convert x` crashed in Foundation) or mishandled.
    @Test func deletingLastPathComponentWhereFoundationTrapped() {
        #expect(PathText.deletingLastPathComponent("x") == "")
        #expect(PathText.deletingLastPathComponent("/x") == "/")
        #expect(PathText.deletingLastPathComponent("d/x") == "d")
        #expect(PathText.deletingLastPathComponent("d//x") == "d")
        #expect(PathText.deletingLastPathComponent("d///x//") == "d")
    }

    @Test func childExitStatus() throws {
        let pid = try ChildSpawn.spawn("/bin/sh", arguments: ["-c", "exit 3"], environment: [:])
        #expect(ChildSpawn.waitForExit(pid) == 3)
        // SIGKILL: the child inherits this thread's signal mask, and the test's pool thread blocks SIGTERM.
        let killed = try ChildSpawn.spawn("/bin/sh", arguments: ["-c", "kill -KILL $$"], environment: [:])
        #expect(ChildSpawn.waitForExit(killed) == 128 + SIGKILL)
    }
}
