import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The `rawcap` binary the tests built, found beside the test bundle (`swift build --build-tests` builds every
/// product) or in `.build/debug`.
enum RawcapBinary {
    static func path() throws -> String {
        try #require(ChildProcess.builtProduct(named: "rawcap"), "the rawcap binary was not built (swift build)")
    }
}

/// umockdev, which `rawcap sim usb` loads: like any interop tool, missing it cancels the test on a developer's
/// machine and fails it under `CI=true` (`make deps` installs it).
enum Umockdev {
    static func require(sourceLocation: SourceLocation = #_sourceLocation) throws {
        _ = try ExternalTool.require("umockdev-run", sourceLocation: sourceLocation)
    }
}

/// `rawcap sim serve --listen 127.0.0.1:0 --json …` running in a process of its own (gphoto2 gives up after 2.5 s,
/// so the camera must not share the test process's two pool threads with CPU-bound tests), stopped with SIGTERM.
final class SimServeProcess: @unchecked Sendable {
    /// The loopback port it listens on, from its `--json` line.
    let port: UInt16
    /// The listening line's JSON object (empty with `json: false`).
    let listeningLine: [String: Any]
    /// The listening line as printed.
    let listeningText: String
    private let process: Process
    /// The server's process ID (to signal it: SIGUSR2 presses the emulated shutter).
    var processIdentifier: Int32 { process.processIdentifier }
    private let output: Pipe
    private let errorOutput: ErrorDrain

    private init(
        process: Process, output: Pipe, errorOutput: ErrorDrain, port: UInt16, line: [String: Any], text: String
    ) {
        (self.process, self.output, self.errorOutput, self.port, self.listeningLine, self.listeningText) =
            (process, output, errorOutput, port, line, text)
    }

    /// Longest life of a server: it is killed after this, whatever the test does.
    static let watchdogSeconds = 150

    /// Starts the server with `arguments` after `sim serve --listen 127.0.0.1:0 --json` (without `--json` when
    /// `json` is false: the port is read from the text line); returns once it listens.
    static func start(_ arguments: [String] = [], json: Bool = true) async throws -> SimServeProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try RawcapBinary.path())
        process.arguments = ["sim", "serve", "--listen", "127.0.0.1:0"] + (json ? ["--json"] : []) + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Standard error is read from the start, so a chatty server (-v) never fills the pipe and blocks.
        let drain = ErrorDrain(errors.fileHandleForReading)
        let line = await readLine(output.fileHandleForReading)
        var object: [String: Any] = [:]
        var port: UInt16?
        if let line, json {
            object = (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
            port = (object["port"] as? Int).flatMap(UInt16.init(exactly:))
        } else if let line, let match = line.firstMatch(of: #/listening on 127\.0\.0\.1:(\d+) /#) {
            port = UInt16(match.1)
        }
        guard let line, let port, port != 0 else {
            process.terminate()
            throw ServerDidNotStart(line: line ?? "", errorOutput: await drain.text())
        }
        // A safety net: a test that never stops its server (a hang, a crash of the test's task) must not leave it
        // running, nor wait forever on its pipes.
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Int(watchdogSeconds))) { [weak process] in
            if process?.isRunning == true { kill(pid, SIGKILL) }
        }
        return SimServeProcess(
            process: process, output: output, errorOutput: drain, port: port, line: object, text: line)
    }

    /// Sends `signal` (SIGTERM by default) and waits for the exit; returns the status, the rest of standard output
    /// and standard error.
    func stop(signal: Int32 = SIGTERM) async -> (status: Int32, output: String, errorOutput: String) {
        if process.isRunning { kill(process.processIdentifier, signal) }
        let rest = await Self.readToEnd(output.fileHandleForReading)
        let errorOutput = await errorOutput.text()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue(label: "rawcap.test.sim-serve.wait").async {
                self.process.waitUntilExit()
                continuation.resume()
            }
        }
        let status =
            process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return (status, rest, errorOutput)
    }

    private static func readLine(_ handle: FileHandle) async -> String? {
        await withCheckedContinuation { continuation in
            DispatchQueue(label: "rawcap.test.sim-serve.line").async {
                var bytes = Data()
                while true {
                    let byte = handle.readData(ofLength: 1)
                    if byte.isEmpty || byte.first == 0x0A { break }
                    bytes.append(byte)
                }
                continuation.resume(returning: bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self))
            }
        }
    }

    private static func readToEnd(_ handle: FileHandle) async -> String {
        await withCheckedContinuation { continuation in
            DispatchQueue(label: "rawcap.test.sim-serve.read").async {
                continuation.resume(returning: String(decoding: handle.readDataToEndOfFile(), as: UTF8.self))
            }
        }
    }
}

/// Reads a pipe to its end on a thread of its own.
final class ErrorDrain: @unchecked Sendable {
    private let done = DispatchGroup()
    private var data = Data()

    init(_ handle: FileHandle) {
        done.enter()
        DispatchQueue(label: "rawcap.test.drain").async {
            self.data = handle.readDataToEndOfFile()
            self.done.leave()
        }
    }

    /// Everything, once the writer closed the pipe.
    func text() async -> String {
        await withCheckedContinuation { continuation in
            done.notify(queue: .global()) { continuation.resume(returning: String(decoding: self.data, as: UTF8.self)) }
        }
    }
}

/// `rawcap sim serve` printed no listening line.
struct ServerDidNotStart: Error, CustomStringConvertible {
    let line: String
    let errorOutput: String
    var description: String { "rawcap sim serve did not start: \(line) \(errorOutput)" }
}
