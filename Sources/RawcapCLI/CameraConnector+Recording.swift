import Logging
import PTP
import PTPIP
import PTPRecord
import PTPUSB
import RawExport

extension CameraConnector {
    /// The recorder for `--record FILE`, or `nil` without it. The file is created, never overwritten.
    static func recorder(_ options: ConnectionOptions, cameraModel: String?) throws -> PcapngRecorder? {
        guard let path = options.record else { return nil }
        return try PcapngRecorder(
            path: path, configuration: .init(rawcapVersion: RawcapVersion.current, cameraModel: cameraModel))
    }

    /// A USB camera whose transfers go through a recording pipe: the device and configuration descriptors are
    /// written first, with the camera's own IDs, address and endpoints.
    static func recordedUSB(
        _ connection: USBCameraConnection, recorder: PcapngRecorder, configuration: PTPSession.Configuration,
        logger: Logger
    ) async throws -> CameraConnection {
        let camera = connection.camera
        let identity = USBDeviceIdentity(
            busNumber: UInt16(camera.busNumber), deviceAddress: camera.deviceAddress, vendorID: camera.vendorID,
            productID: camera.productID, bulkInAddress: camera.interface.bulkIn.address,
            bulkOutAddress: camera.interface.bulkOut.address, interruptAddress: camera.interface.interruptIn.address)
        let pipe: RecordingBulkPipe
        do {
            pipe = try await RecordingBulkPipe.start(wrapping: connection.pipe, recorder: recorder, identity: identity)
        } catch {
            await connection.close()
            await recorder.close()
            throw error
        }
        let transport = PTPUSBTransport(pipe: pipe, logger: logger)
        logger.info("recording to \(recorder.path)")
        return CameraConnection(
            location: camera.description, link: .usb(camera),
            session: PTPSession(transport: transport, configuration: configuration, logger: logger),
            close: {
                await transport.close()
                await connection.close()
                await recorder.close()
            })
    }

    /// The endpoint of a socket address as a recording writes it.
    static func endpoint(_ address: SocketAddress) -> TCPEndpoint {
        TCPEndpoint(address: address.addressBytes, port: address.port)
    }
}
