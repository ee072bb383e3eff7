import Foundation

/// A program running beside a test: started, talked to line by line, stopped by closing its standard input.
///
/// For servers whose clients have hard deadlines: a server in its own process cannot be starved by CPU-bound tests
/// that hold every thread of the test process's Swift pool.
public final class ChildProcess: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private let lock = NSLock()
    private var buffered = Data()
    private var errorData = Data()
    private let errorDrain = DispatchGroup()

    /// Starts `executable` (a path) with `arguments`.
    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        errorDrain.enter()
        let errorHandle = errors.fileHandleForReading
        DispatchQueue(label: "rawcap.child.stderr").async { [self] in
            let data = errorHandle.readDataToEndOfFile()
            lock.withLock { errorData = data }
            errorDrain.leave()
        }
    }

    /// The next line of standard output, without its newline; `nil` at the end of the output. Reads on a dispatch
    /// thread, so the caller's Swift pool thread never blocks.
    public func readLine() async -> String? {
        await withCheckedContinuation { continuation in
            DispatchQueue(label: "rawcap.child.stdout").async { [self] in
                continuation.resume(returning: blockingReadLine())
            }
        }
    }

    /// Closes standard input (the child's signal to finish), waits for it to exit and returns its exit status, the
    /// rest of its standard output and its standard error.
    public func finish() async -> (status: Int32, output: String, errorOutput: String) {
        try? input.fileHandleForWriting.close()
        return await withCheckedContinuation { continuation in
            DispatchQueue(label: "rawcap.child.wait").async { [self] in
                let rest = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                errorDrain.wait()
                let (status, text, errorText) = lock.withLock {
                    (
                        process.terminationStatus, String(decoding: buffered + rest, as: UTF8.self),
                        String(decoding: errorData, as: UTF8.self)
                    )
                }
                continuation.resume(returning: (status, text, errorText))
            }
        }
    }

    /// A product built beside the test bundle (`swift test` builds every product), e.g. an executable target.
    public static func builtProduct(named name: String) -> String? {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent(name).path
        let candidates = [beside, ExternalTool.packageRoot.appendingPathComponent(".build/debug/\(name)").path]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private func blockingReadLine() -> String? {
        while true {
            let line: String? = lock.withLock {
                guard let newline = buffered.firstIndex(of: 0x0A) else { return nil }
                let line = String(decoding: buffered[buffered.startIndex..<newline], as: UTF8.self)
                buffered.removeSubrange(buffered.startIndex...newline)
                return line
            }
            if let line { return line }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            lock.withLock { buffered.append(chunk) }
        }
    }
}
