import CameraEmulator
import Logging
import PTP
import PTPUSB

/// The one place that turns `--camera` into a transport: commands call ``connect(_:)`` and get a session.
///
/// USB and `sim` (the emulated camera, in process) are implemented here; `ptpip:` (Wi-Fi) and `replay:`
/// (recordings) fail with ``CameraFailure/Code/notAvailable`` until their transports land, each in its own case
/// below.
public enum CameraConnector {
    /// Connects to the camera `options` name.
    ///
    /// - Throws: ``PTPUSB/USBCameraError`` (no camera, several, permission, busy…), ``PTPUSB/LibUSBError``,
    ///   or ``CameraFailure`` for transports that do not exist yet.
    public static func connect(_ options: ConnectionOptions) async throws -> CameraConnection {
        let logger = options.logger
        let configuration = PTPSession.Configuration(timeout: options.timeoutDuration)
        switch options.camera {
        case .usb(let selector):
            let connection = try await USBCameraConnection.open(selector, logger: logger)
            return CameraConnection(
                location: connection.camera.description, link: .usb(connection.camera),
                session: PTPSession(transport: connection.transport, configuration: configuration, logger: logger),
                close: { await connection.close() })
        case .simulator:
            // The emulated camera behind the USB device side on an in-memory pipe, driven by PTPUSBTransport:
            // the same framing code as a real USB camera.
            let camera = try options.simulator.settings.makeCamera()
            let link = EmulatorLink.usb(camera, logger: logger)
            return CameraConnection(
                location: "sim (\(camera.model.manufacturer) \(camera.model.model), in process)", link: .emulated,
                session: PTPSession(transport: link.transport, configuration: configuration, logger: logger),
                close: { await link.close() })
        case .ptpip(let host, let port):
            throw CameraFailure(
                .notAvailable, "--camera ptpip:\(host):\(port) is not available yet: PTP/IP is not built in.")
        case .replay(let path):
            throw CameraFailure(.notAvailable, "--camera replay:\(path) is not available yet: replay is not built in.")
        }
    }
}
