import Logging
import PTP
import PTPIP
import PTPRecord

extension CameraConnector {
    /// `--camera ptpip:HOST[:PORT]`: both PTP/IP connections, with this host's stored GUID and name, recorded when
    /// `--record` is given. Connect and handshake wait as long as `--timeout`.
    static func connectPTPIP(
        _ address: PTPIPAddress, _ options: ConnectionOptions, configuration: PTPSession.Configuration,
        logger: Logger
    ) async throws -> CameraConnection {
        let recorder = try recorder(options, cameraModel: nil)
        let connectorOptions = ptpipConnectorOptions(options, recording: recorder)
        let transport: PTPIPTransport
        do {
            transport = try await PTPIPConnector.connect(to: address, options: connectorOptions, logger: logger)
        } catch {
            await recorder?.close()
            throw error
        }
        let name = transport.responder.friendlyName
        return CameraConnection(
            location: "ptpip:\(address) \"\(name)\"", link: .ptpip(address: address.description, friendlyName: name),
            session: PTPSession(transport: transport, configuration: configuration, logger: logger),
            close: {
                await transport.close()
                await recorder?.close()
            })
    }

    /// Connect and handshake timeouts from `--timeout`, and every TCP stream wrapped for `--record` when `recorder`
    /// is given: the same for standard and Fujifilm PTP/IP.
    static func ptpipConnectorOptions(_ options: ConnectionOptions, recording recorder: PcapngRecorder?)
        -> PTPIPConnector.Options
    {
        var connectorOptions = PTPIPConnector.Options(
            connectTimeout: options.timeoutDuration, handshakeTimeout: options.timeoutDuration)
        if let recorder {
            connectorOptions.wrapStream = { stream, _ in
                try await RecordingByteStream.start(
                    wrapping: stream, recorder: recorder, client: endpoint(stream.localAddress),
                    server: endpoint(stream.remoteAddress), side: .client)
            }
        }
        return connectorOptions
    }
}
