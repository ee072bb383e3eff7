import Logging
import PTP

/// A camera on USB, opened and ready for PTP: discovery, selection, the libusb pipe and the USB transport in one
/// step, for commands and capture drivers.
///
/// ```swift
/// let connection = try await USBCameraConnection.open(.onlyCamera)
/// let session = PTPSession(transport: connection.transport)
/// let info = try await session.getDeviceInfo()
/// await connection.close()
/// ```
public final class USBCameraConnection: Sendable {
    /// The camera.
    public let camera: USBCameraInfo
    /// Its claimed PTP interface.
    public let pipe: LibUSBPipe
    /// PTP's USB framing over the pipe.
    public let transport: PTPUSBTransport

    private init(camera: USBCameraInfo, pipe: LibUSBPipe, transport: PTPUSBTransport) {
        self.camera = camera
        self.pipe = pipe
        self.transport = transport
    }

    /// Finds the camera `selector` names and opens it.
    ///
    /// - Throws: ``USBCameraError`` when no camera matches, several do, or the chosen one cannot be opened;
    ///   ``LibUSBError`` when libusb itself cannot start.
    public static func open(
        _ selector: USBCameraSelector, logger: Logger = Logger(label: "rawcap.usb"),
        configuration: PTPUSBTransport.Configuration = PTPUSBTransport.Configuration()
    ) async throws -> USBCameraConnection {
        let context = try await LibUSBContext.make(logger: logger)
        let camera = try selector.select(from: try await context.cameras())
        let pipe = try await LibUSBPipe.open(camera, in: context, logger: logger)
        let transport = PTPUSBTransport(pipe: pipe, logger: logger, configuration: configuration)
        return USBCameraConnection(camera: camera, pipe: pipe, transport: transport)
    }

    /// Closes the transport and releases the camera.
    public func close() async {
        await transport.close()
        await pipe.close()
    }
}
