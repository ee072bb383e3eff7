import Logging
import PTP

/// A host transport wired to a device side over an in-memory USB pipe, with the device running in a task.
struct USBStack {
    let pipe: InMemoryBulkPipe
    let device: USBDeviceSide
    let transport: PTPUSBTransport
    let responder: TestResponder
    let running: Task<Void, Never>

    init(
        responder: TestResponder = TestResponder(), maxPacketSize: Int = 512, interruptMaxPacketSize: Int = 64,
        device configuration: USBDeviceSide.Configuration = .init(),
        // Generous status polling: under a loaded test run the device side can take a while to finish an abort.
        transport transportConfiguration: PTPUSBTransport.Configuration = .init(
            recoveryTimeout: .milliseconds(500), maxStatusPolls: 1000),
        logger: Logger = Logger(label: "test.usb")
    ) {
        self.responder = responder
        pipe = InMemoryBulkPipe(maxPacketSize: maxPacketSize, interruptMaxPacketSize: interruptMaxPacketSize)
        device = USBDeviceSide(pipe: pipe, responder: responder, configuration: configuration)
        transport = PTPUSBTransport(pipe: pipe, logger: logger, configuration: transportConfiguration)
        let device = self.device
        running = Task { await device.run() }
    }

    func session(_ configuration: PTPSession.Configuration = .init(timeout: .seconds(2))) -> PTPSession {
        PTPSession(transport: transport, configuration: configuration)
    }

    func stop() async {
        running.cancel()
        await pipe.disconnect()
    }
}

/// A host PTP/IP transport connected to a device side over in-memory streams.
struct PTPIPStack {
    let device: PTPIPDeviceSide
    let transport: PTPIPTransport
    let responder: TestResponder
    let running: Task<Void, Never>
    let hostCommand: InMemoryByteStream
    let hostEvent: InMemoryByteStream

    static let hostGUID = PTPIPGUID(Array(0..<16)) ?? .random()  // 16 bytes: never nil

    static func connect(
        responder: TestResponder = TestResponder(),
        device configuration: PTPIPDeviceSide.Configuration = .init(friendlyName: "Test Camera"),
        before: @Sendable (PTPIPDeviceSide) async -> Void = { _ in }
    ) async throws -> PTPIPStack {
        let (hostCommand, deviceCommand) = InMemoryByteStream.pair()
        let (hostEvent, deviceEvent) = InMemoryByteStream.pair()
        let device = PTPIPDeviceSide(command: deviceCommand, responder: responder, configuration: configuration)
        await before(device)
        let running = Task { await device.run(eventStream: { deviceEvent }) }
        let transport = try await PTPIPTransport.connect(
            command: hostCommand, openEventStream: { hostEvent },
            identity: .init(guid: hostGUID, friendlyName: "rawcap-test"), timeout: .seconds(2))
        return PTPIPStack(
            device: device, transport: transport, responder: responder, running: running, hostCommand: hostCommand,
            hostEvent: hostEvent)
    }

    func session(_ configuration: PTPSession.Configuration = .init(timeout: .seconds(2))) -> PTPSession {
        PTPSession(transport: transport, configuration: configuration)
    }

    func stop() async {
        running.cancel()
        await transport.close()
    }
}
