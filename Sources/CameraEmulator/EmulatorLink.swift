import Logging
import PTP

/// An emulated camera connected to a host transport in memory, through the production framing code: the camera
/// behind ``PTP/USBDeviceSide`` on an ``PTP/InMemoryBulkPipe`` driven by ``PTP/PTPUSBTransport`` (what
/// `--camera sim` uses), or behind ``PTP/PTPIPDeviceSide`` on ``PTP/InMemoryByteStream`` pairs driven by
/// ``PTP/PTPIPTransport``.
///
/// ```swift
/// let link = EmulatorLink.usb(camera)
/// let session = PTPSession(transport: link.transport)
/// …
/// await link.close()
/// ```
public struct EmulatorLink: Sendable {
    /// The host's end, for a ``PTP/PTPSession``.
    public let transport: any PTPTransport
    /// The camera being served.
    public let camera: EmulatedCamera
    private let serving: Task<Void, Never>
    private let shutdown: @Sendable () async -> Void

    /// The camera over USB in memory: high-speed packets (512 bytes) unless told otherwise.
    ///
    public static func usb(
        _ camera: EmulatedCamera, maxPacketSize: Int = 512, logger: Logger = Logger(label: "rawcap.sim.usb"),
        transportConfiguration: PTPUSBTransport.Configuration = PTPUSBTransport.Configuration()
    ) -> EmulatorLink {
        let pipe = InMemoryBulkPipe(maxPacketSize: maxPacketSize)
        return usb(camera, pipe: pipe, hostPipe: pipe, logger: logger, transportConfiguration: transportConfiguration)
    }

    /// The camera over USB in memory, with the host's end of the pipe wrapped before the transport uses it (a
    /// recorder that writes the session to a pcapng file: `--camera sim --record`).
    ///
    /// - Throws: what `wrapHostPipe` throws; the camera is not served then.
    public static func usb(
        _ camera: EmulatedCamera, maxPacketSize: Int = 512, logger: Logger = Logger(label: "rawcap.sim.usb"),
        transportConfiguration: PTPUSBTransport.Configuration = PTPUSBTransport.Configuration(),
        wrapHostPipe: @Sendable (InMemoryBulkPipe) async throws -> any USBBulkPipe
    ) async throws -> EmulatorLink {
        let pipe = InMemoryBulkPipe(maxPacketSize: maxPacketSize)
        let hostPipe = try await wrapHostPipe(pipe)
        return usb(
            camera, pipe: pipe, hostPipe: hostPipe, logger: logger, transportConfiguration: transportConfiguration)
    }

    /// A host transport and any other owner of the link (a fake USB bus, a TCP listener) that a test or a command
    /// built itself: `close` ends it.
    public init(transport: any PTPTransport, camera: EmulatedCamera, close: @escaping @Sendable () async -> Void) {
        self.init(transport: transport, camera: camera, serving: Task {}, shutdown: close)
    }

    private init(
        transport: any PTPTransport, camera: EmulatedCamera, serving: Task<Void, Never>,
        shutdown: @escaping @Sendable () async -> Void
    ) {
        self.transport = transport
        self.camera = camera
        self.serving = serving
        self.shutdown = shutdown
    }

    private static func usb(
        _ camera: EmulatedCamera, pipe: InMemoryBulkPipe, hostPipe: any USBBulkPipe, logger: Logger,
        transportConfiguration: PTPUSBTransport.Configuration
    ) -> EmulatorLink {
        let device = USBDeviceSide(pipe: pipe, responder: camera)
        let serving = Task {
            await device.run()
            // The cable is gone: the next connection starts a new session.
            await camera.connectionClosed()
        }
        let transport = PTPUSBTransport(pipe: hostPipe, logger: logger, configuration: transportConfiguration)
        return EmulatorLink(
            transport: transport, camera: camera, serving: serving,
            shutdown: {
                await transport.close()
                await pipe.disconnect()
            })
    }

    /// The camera over PTP/IP in memory: the handshake runs before this returns.
    ///
    /// - Throws: what ``PTP/PTPIPTransport/connect(command:openEventStream:identity:timeout:logger:configuration:)``
    ///   throws.
    public static func ptpip(
        _ camera: EmulatedCamera, identity: PTPIPTransport.Identity = .init(guid: .random(), friendlyName: "rawcap"),
        logger: Logger = Logger(label: "rawcap.sim.ptpip")
    ) async throws -> EmulatorLink {
        let (hostCommand, cameraCommand) = InMemoryByteStream.pair()
        let (hostEvent, cameraEvent) = InMemoryByteStream.pair()
        let device = PTPIPDeviceSide(
            command: cameraCommand, responder: camera,
            configuration: .init(friendlyName: camera.model.model))
        let serving = Task {
            await device.run(eventStream: { cameraEvent })
            await camera.connectionClosed()
        }
        let transport = try await PTPIPTransport.connect(
            command: hostCommand, openEventStream: { hostEvent }, identity: identity, timeout: .seconds(5),
            logger: logger)
        return EmulatorLink(
            transport: transport, camera: camera, serving: serving,
            shutdown: {
                await transport.close()
                await hostCommand.disconnect()
                await hostEvent.disconnect()
            })
    }

    /// Closes the host's end and stops serving; waits until the camera has noticed.
    public func close() async {
        await shutdown()
        serving.cancel()
        await serving.value
    }
}
