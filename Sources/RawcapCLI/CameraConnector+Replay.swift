import Logging
import PTP
import PTPRecord

extension CameraConnector {
    /// `--camera replay:FILE`: the recording's camera behind the in-memory USB seam, so rawcap's real USB framing
    /// runs; lenient unless `--replay-mode strict`, and recorded again when `--record` is given.
    static func openReplay(
        _ path: String, _ options: ConnectionOptions, configuration: PTPSession.Configuration, logger: Logger
    ) async throws -> CameraConnection {
        let conversation = try PTPConversation.load(path: path)
        let mode = options.replayMode ?? .lenient
        let model = conversation.cameraModel
        logger.info(
            "replaying \(conversation.transactions.count) transactions and \(conversation.events.count) events of \(model ?? "an unnamed camera") from \(path), \(mode)"
        )
        for note in conversation.notes { logger.info("replay: \(note)") }
        let recorder = try recorder(options, cameraModel: model)
        let camera = ReplayCamera(conversation: conversation, mode: mode, logger: logger)
        var pipe: any USBBulkPipe = camera.pipe
        if let recorder {
            do {
                pipe = try await RecordingBulkPipe.start(wrapping: camera.pipe, recorder: recorder)
            } catch {
                await camera.stop()
                await recorder.close()
                throw error
            }
        }
        let transport = camera.transport(over: pipe, logger: logger)
        return CameraConnection(
            location: "replay:\(path) (\(mode))", link: .replay(path: path, mode: mode.rawValue, cameraModel: model),
            session: PTPSession(transport: transport, configuration: configuration, logger: logger),
            close: {
                await transport.close()
                await camera.stop()
                await recorder?.close()
                let answered = await camera.responder.answeredFromRecording
                let fallback = await camera.responder.answeredWithFallback
                let repeated = await camera.responder.answeredByRepeating
                logger.info(
                    "replay: \(answered) requests answered from the recording (\(repeated) by repeating a reply), \(fallback) with a fallback code"
                )
            })
    }
}
