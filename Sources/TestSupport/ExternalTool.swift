import Foundation
import Testing

/// Independent tools that interop tests run (exiftool, tiffinfo, dcraw, the venv's python with rawpy…).
///
/// When a tool is missing, a test cancels itself with a note on a developer's machine, but **fails** when
/// `CI=true`: CI installs every tool (`make deps`), so a missing one there means the install is broken, and an
/// interop test must never pass silently.
public enum ExternalTool {
    /// Whether this run is CI (`CI=true` in the environment).
    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// The full path of `name` on `PATH`, or `nil`.
    public static func find(_ name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Returns the path of `name`, or ends the test: cancelled locally, failed under CI.
    public static func require(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        if let path = find(name) { return path }
        try missing("\(name) is not installed (make deps installs it)", sourceLocation: sourceLocation)
    }

    /// The Python interpreter of the project's venv (`RAWCAP_PYTHON`, set by `make test`, or `.build/venv`),
    /// checked to import `modules`; ends the test like ``require(_:sourceLocation:)`` when it cannot.
    public static func requirePython(
        modules: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        var candidates: [String] = []
        if let configured = ProcessInfo.processInfo.environment["RAWCAP_PYTHON"] { candidates.append(configured) }
        candidates.append(packageRoot.appendingPathComponent(".build/venv/bin/python").path)
        for python in candidates where FileManager.default.isExecutableFile(atPath: python) {
            if importsCache.imports(python: python, modules: modules) { return python }
        }
        try missing(
            "python with \(modules.joined(separator: ", ")) not found (make deps creates .build/venv)",
            sourceLocation: sourceLocation)
    }

    /// Which interpreters import which modules, checked once per pair: each check starts Python and imports numpy
    /// or rawpy (up to a second), and tests call this synchronously from the two-thread concurrency pool.
    private static let importsCache = ImportsCache()

    private final class ImportsCache: @unchecked Sendable {
        private let lock = NSLock()
        private var known: [String: Bool] = [:]

        func imports(python: String, modules: [String]) -> Bool {
            let key = python + "\u{0}" + modules.joined(separator: ",")
            if let answer = lock.withLock({ known[key] }) { return answer }
            let check = try? Subprocess.run(python, ["-c", modules.map { "import \($0)" }.joined(separator: "; ")])
            let answer = check?.status == 0
            lock.withLock { known[key] = answer }
            return answer
        }
    }

    /// The package's root folder (the one holding Package.swift), found from this source file's location.
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    private static func missing(_ message: String, sourceLocation: SourceLocation) throws -> Never {
        if isCI {
            throw MissingToolError(message: message + " — CI=true, so this is a failure, not a skip")
        }
        try Test.cancel(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
}

/// An interop tool that a test needs is not installed.
public struct MissingToolError: Error, CustomStringConvertible {
    /// What is missing and how to install it.
    public let message: String
    public var description: String { message }
}
