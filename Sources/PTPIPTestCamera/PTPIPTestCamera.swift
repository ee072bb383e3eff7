import Foundation
import Logging
import PTP
import PTPIP
import PTPRecord
import PTPTestSupport

/// A PTP/IP camera in its own process, for interop tests whose client has hard deadlines (gphoto2 gives up after
/// 2.5 s): in the test process, CPU-bound tests running beside it could hold every thread of Swift's pool and starve
/// the server.
///
/// ```
/// PTPIPTestCamera [--record FILE] [--replay FILE [--strict]] [--picture-bytes N]
/// ```
///
/// It listens on a free loopback port and prints `listening PORT` on one line; it serves a ``MiniCamera`` (or the
/// recording in FILE, leniently unless `--strict`) to one client after another, recording every connection to FILE
/// with `--record`, until its standard input closes; then it prints `served N clients, M requests` and exits.
@main
struct PTPIPTestCamera {
    static func main() async throws {
        var arguments = ArraySlice(CommandLine.arguments.dropFirst())
        var recordPath: String?
        var replayPath: String?
        var strict = false
        var pictureByteCount = 3000
        while let argument = arguments.popFirst() {
            switch argument {
            case "--record": recordPath = arguments.popFirst()
            case "--replay": replayPath = arguments.popFirst()
            case "--strict": strict = true
            case "--picture-bytes": pictureByteCount = arguments.popFirst().flatMap { Int($0) } ?? pictureByteCount
            default:
                FileHandle.standardError.write(Data("unknown argument \(argument)\n".utf8))
                exit(64)
            }
        }
        var configuredLogger = Logger(label: "ptpip-test-camera") { StreamLogHandler.standardError(label: $0) }
        configuredLogger.logLevel = .notice
        let logger = configuredLogger
        let mode: ReplayResponder.Mode = strict ? .strict : .lenient
        let conversation = try replayPath.map { try PTPConversation.load(path: $0) }
        let camera = MiniCamera(pictureByteCount: pictureByteCount)
        let server = PTPIPServer(
            configuration: .init(device: .init(friendlyName: conversation?.responderName ?? "MiniCam 1")),
            logger: logger
        ) { _ in
            guard let conversation else { return camera }
            return ReplayResponder(conversation: conversation, mode: mode, logger: logger)
        }
        let recorder = try recordPath.map {
            try PcapngRecorder(path: $0, configuration: .init(rawcapVersion: "PTPIPTestCamera"))
        }
        var wrap: PTPIPListener.ConnectionWrapper?
        if let recorder {
            wrap = { (stream: TCPByteStream) async throws -> any ByteStream in
                let client = TCPEndpoint(address: stream.remoteAddress.addressBytes, port: stream.remoteAddress.port)
                let server = TCPEndpoint(address: stream.localAddress.addressBytes, port: stream.localAddress.port)
                return try await RecordingByteStream.start(
                    wrapping: stream, recorder: recorder, client: client, server: server, side: .server)
            }
        }
        let listener = try PTPIPListener(
            address: .loopback(port: 0), server: server, wrapConnection: wrap, logger: logger)
        let running = Task { await listener.run() }
        FileHandle.standardOutput.write(Data("listening \(listener.localAddress.port)\n".utf8))
        // Serve until the test closes our standard input.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue(label: "stdin").async {
                _ = FileHandle.standardInput.readDataToEndOfFile()
                continuation.resume()
            }
        }
        await listener.stop()
        await running.value
        await recorder?.close()
        let clients = await server.finishedClients
        let requests = clients.map(\.requests.count).reduce(0, +)
        FileHandle.standardOutput.write(Data("served \(clients.count) clients, \(requests) requests\n".utf8))
    }
}
