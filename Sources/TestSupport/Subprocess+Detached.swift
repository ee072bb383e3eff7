import Dispatch
import Foundation

extension Subprocess {
    /// ``run(_:_:environment:currentDirectory:stdin:)`` on a dispatch thread: the caller's task waits without
    /// holding one of the Swift pool's threads (two on the build machines), so other tests — servers with deadlines
    /// in particular — keep running while the program does.
    public static func runDetached(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String]? = nil,
        currentDirectory: URL? = nil
    ) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue(label: "rawcap.subprocess").async {
                continuation.resume(
                    with: Swift.Result {
                        try run(executable, arguments, environment: environment, currentDirectory: currentDirectory)
                    })
            }
        }
    }
}
