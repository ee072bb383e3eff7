import Logging
import PTP

extension EmulatorLink {
    /// The camera over Fujifilm's Wi-Fi PTP/IP variant in memory (``PTP/FujiPTPIPDeviceSide`` on the camera's end,
    /// ``PTP/FujiPTPIPTransport`` on the host's): the handshake runs before this returns; the event connection is
    /// attached when the host runs InitiateOpenCapture, as on the body.
    ///
    /// - Throws: what ``PTP/FujiPTPIPTransport/connect(command:openEventStream:identity:timeout:logger:)`` throws.
    public static func fujiPTPIP(
        _ camera: EmulatedCamera, identity: PTPIPTransport.Identity = .init(guid: .random(), friendlyName: "rawcap"),
        logger: Logger = Logger(label: "rawcap.sim.fujiptpip")
    ) async throws -> EmulatorLink {
        let (hostCommand, cameraCommand) = InMemoryByteStream.pair()
        let (hostEvent, cameraEvent) = InMemoryByteStream.pair()
        let device = FujiPTPIPDeviceSide(
            command: cameraCommand, responder: camera, configuration: .init(friendlyName: camera.model.model))
        let serving = Task {
            await device.run()
            await camera.connectionClosed()
        }
        let transport: FujiPTPIPTransport
        do {
            transport = try await FujiPTPIPTransport.connect(
                command: hostCommand,
                openEventStream: {
                    await device.attachEventConnection(cameraEvent)
                    return hostEvent
                }, identity: identity, timeout: .seconds(5), logger: logger)
        } catch {
            await hostCommand.disconnect()
            serving.cancel()
            throw error
        }
        return EmulatorLink(
            transport: transport, camera: camera,
            close: {
                await transport.close()
                await hostCommand.disconnect()
                await hostEvent.disconnect()
                await serving.value
            })
    }
}
