import Foundation
import Testing

/// Debian's gphoto2 as an independent PTP/IP client, against `PTPIPTestCamera` (a test camera in its own process).
public enum GPhoto2 {
    /// A running `PTPIPTestCamera` and its port.
    public struct Camera: Sendable {
        /// The process.
        public let process: ChildProcess
        /// Its loopback port.
        public let port: UInt16

        /// Stops it; returns what it printed (`served N clients, M requests`) and its standard error.
        public func stop() async -> (status: Int32, output: String, errorOutput: String) {
            await process.finish()
        }
    }

    /// Starts `PTPIPTestCamera` with `arguments` (`--record FILE`, `--replay FILE`, `--strict`, `--picture-bytes N`).
    public static func startCamera(_ arguments: [String] = []) async throws -> Camera {
        let path = try #require(
            ChildProcess.builtProduct(named: "PTPIPTestCamera"), "PTPIPTestCamera was not built (swift build)")
        let process = try ChildProcess(path, arguments)
        guard let line = await process.readLine(), line.hasPrefix("listening "),
            let port = UInt16(line.dropFirst("listening ".count))
        else {
            let result = await process.finish()
            throw MissingToolError(message: "PTPIPTestCamera did not start: \(result.errorOutput)")
        }
        return Camera(process: process, port: port)
    }

    /// Runs gphoto2 against the camera on `port` with `arguments`, in `folder` with HOME there (gphoto2 keeps its
    /// own GUID in ~/.gphoto), without blocking a Swift pool thread.
    public static func run(
        port: UInt16, _ arguments: [String], in folder: URL, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Subprocess.Result {
        // gphoto2 sends the event connection to 15740 unless the port string names it (PTP notes §3.3 item 1).
        try await run(
            ["--port", "ptpip:127.0.0.1:\(port):\(port)", "--camera", "PTP/IP Camera"] + arguments, in: folder,
            sourceLocation: sourceLocation)
    }

    /// Runs gphoto2 against a Fujifilm body on Wi-Fi listening on `port` (libgphoto2's "Fuji X (WLAN)" model, which
    /// takes `fujiptpip.c`). Its `ptp_fujiptpip_init_event` connects the event port named third in the port string
    /// (55741 when none is named, whatever the command port) and the live-view port above it, so both are named.
    public static func runFujifilmWiFi(
        port: UInt16, _ arguments: [String], in folder: URL, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Subprocess.Result {
        try await run(
            ["--port", "ptpip:127.0.0.1:\(port):\(port + 1)", "--camera", "Fuji X (WLAN)"] + arguments, in: folder,
            sourceLocation: sourceLocation)
    }

    private static func run(_ all: [String], in folder: URL, sourceLocation: SourceLocation) async throws
        -> Subprocess.Result
    {
        let executable = try ExternalTool.require("gphoto2", sourceLocation: sourceLocation)
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue(label: "rawcap.test.gphoto2").async {
                continuation.resume(
                    with: Result {
                        try Subprocess.run(
                            executable, all, environment: ["HOME": folder.path], currentDirectory: folder)
                    })
            }
        }
    }
}
