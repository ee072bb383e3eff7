import Logging
import PTP
import PTPIP
import PTPRecord

extension CameraConnector {
    /// `--camera fujiptpip:HOST[:PORT]` or `ptpip:HOST:55740`: a Fujifilm body on Wi-Fi through its own PTP/IP
    /// variant (``PTP/FujiPTPIPTransport``), with this host's stored GUID and name, recorded when `--record` is given.
    /// Connect and handshake wait as long as `--timeout`.
    static func connectFujiPTPIP(
        _ address: PTPIPAddress, _ options: ConnectionOptions, configuration: PTPSession.Configuration,
        logger: Logger
    ) async throws -> CameraConnection {
        let recorder = try recorder(options, cameraModel: nil)
        let connectorOptions = ptpipConnectorOptions(options, recording: recorder)
        let transport: FujiPTPIPTransport
        do {
            transport = try await FujiPTPIPConnector.connect(to: address, options: connectorOptions, logger: logger)
        } catch {
            await recorder?.close()
            throw error
        }
        let name = transport.cameraName
        return CameraConnection(
            location: "fujiptpip:\(address) \"\(name)\"",
            link: .ptpip(address: address.description, friendlyName: name),
            session: PTPSession(transport: transport, configuration: configuration, logger: logger),
            close: {
                await transport.close()
                await recorder?.close()
            })
    }
}
