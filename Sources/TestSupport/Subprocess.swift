import Foundation

/// Runs a program to completion and captures its output; for tests that drive independent tools or the
/// built rawcap binary.
public enum Subprocess {
    /// What a finished program left behind.
    public struct Result: Sendable {
        /// The exit status (or 128 + signal number when it was killed by a signal).
        public let status: Int32
        /// Everything written to standard output.
        public let stdout: Data
        /// Everything written to standard error.
        public let stderr: Data
        /// Standard output as UTF-8 text (lossy).
        public var output: String { String(decoding: stdout, as: UTF8.self) }
        /// Standard error as UTF-8 text (lossy).
        public var errorOutput: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// Runs `executable` (a path, or a name looked up on PATH) with `arguments` and waits for it.
    public static func run(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String]? = nil,
        currentDirectory: URL? = nil,
        stdin: Data? = nil
    ) throws -> Result {
        let process = Process()
        let path = ExternalTool.find(executable) ?? executable
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        let inPipe = Pipe()
        process.standardInput = inPipe
        try process.run()
        if let stdin { try inPipe.fileHandleForWriting.write(contentsOf: stdin) }
        try inPipe.fileHandleForWriting.close()
        // Read both pipes concurrently so neither fills up and blocks the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = errPipe.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        let status =
            process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return Result(status: status, stdout: outData, stderr: errData)
    }
}
