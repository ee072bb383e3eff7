import ArgumentParser
import Foundation

/// A failure a command reports with a message and ends with a sysexits status (``SysExit``).
struct CommandFailure: Error, CustomStringConvertible {
    /// The exit status.
    let status: ExitCode
    /// What went wrong, naming the file.
    let message: String

    init(_ status: ExitCode, _ message: String) {
        self.status = status
        self.message = message
    }

    var description: String { message }
}

/// Standard error, for messages that must not mix with a command's output (a JSON report, a file list).
enum StandardError {
    /// Writes `message` and a newline to standard error.
    static func print(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
