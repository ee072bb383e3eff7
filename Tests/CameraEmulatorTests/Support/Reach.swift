import CameraEmulator
import FakeUSB
import Foundation
import PTP
import PTPIP
import PTPRecord
import PTPUSB
import RawImage

/// The ways a test reaches the emulated camera: over USB framing or PTP/IP framing in memory, and through the
/// real links, libusb on umockdev's fake bus and TCP on loopback.
enum Reach: String, CaseIterable, Sendable, CustomStringConvertible {
    case usb
    case ptpip
    /// libusb in this process (the umockdev preload is linked into the test binary) driving the camera on a fake
    /// USB bus: the production `LibUSBPipe` under `PTPUSBTransport`.
    case fakeUSB
    /// `PTPIPConnector` over loopback TCP to a `PTPIPListener` serving the camera, as `rawcap sim serve` does.
    case tcp

    /// The in-memory reaches: quick, and what the fault tests' expectations are written for. The real links serve
    /// the camera from this process, so only serialized suites use them (RecordedSessionTests).
    static var allCases: [Reach] { [.usb, .ptpip] }

    var description: String { rawValue }

    /// A session on `link` whose answers may take 30 s: the fake-USB and TCP reaches serve the camera from this
    /// process, whose two pool threads CPU-bound tests elsewhere can hold for seconds.
    static func session(_ link: EmulatorLink) -> PTPSession {
        PTPSession(transport: link.transport, configuration: .init(timeout: .seconds(30)))
    }

    /// The reaches whose traffic a ``PcapngRecorder`` can record, at the seam `--record` uses.
    static let recordable: [Reach] = [.usb, .fakeUSB, .tcp]

    /// Connects to `camera`; with `recorder`, the host's traffic is recorded (not for the in-memory PTP/IP reach).
    func connect(_ camera: EmulatedCamera, recorder: PcapngRecorder? = nil) async throws -> EmulatorLink {
        switch self {
        case .usb:
            guard let recorder else {
                return EmulatorLink.usb(camera, transportConfiguration: .init(recoveryTimeout: .milliseconds(500)))
            }
            return try await EmulatorLink.usb(
                camera, transportConfiguration: .init(recoveryTimeout: .milliseconds(500))
            ) { pipe in try await RecordingBulkPipe.start(wrapping: pipe, recorder: recorder) }
        case .ptpip:
            precondition(recorder == nil, "the in-memory PTP/IP reach is not recordable")
            return try await EmulatorLink.ptpip(camera)
        case .fakeUSB:
            // 8-byte interrupt packets, as on Canon's: each event spans several interrupt transfers, recorded or
            // not (RecordedSessionTests.eventsSplitOverInterruptPacketsLoadAndReplay).
            return try await FakeUSBReach.open(camera, recorder: recorder, interruptPacketSize: 8)
        case .tcp:
            return try await Self.tcp(camera, recorder: recorder)
        }
    }

    private static func tcp(_ camera: EmulatedCamera, recorder: PcapngRecorder?) async throws -> EmulatorLink {
        let server = PTPIPServer(
            responder: camera, configuration: .init(device: .init(friendlyName: camera.model.model)))
        let listener = try PTPIPListener(address: .loopback(port: 0), server: server)
        let running = Task { await listener.run() }
        let transport: PTPIPTransport
        do {
            // Generous: the server runs in this process, whose pool CPU-bound tests elsewhere can hold.
            var options = PTPIPConnector.Options(connectTimeout: .seconds(30), handshakeTimeout: .seconds(30))
            if let recorder {
                options.wrapStream = { stream, _ in
                    try await RecordingByteStream.start(
                        wrapping: stream, recorder: recorder,
                        client: TCPEndpoint(address: stream.localAddress.addressBytes, port: stream.localAddress.port),
                        server: TCPEndpoint(
                            address: stream.remoteAddress.addressBytes, port: stream.remoteAddress.port),
                        side: .client)
                }
            }
            transport = try await PTPIPConnector.connect(
                to: PTPIPAddress(host: "127.0.0.1", port: listener.localAddress.port), options: options)
        } catch {
            await listener.stop()
            await running.value
            throw error
        }
        return EmulatorLink(transport: transport, camera: camera) {
            await transport.close()
            await listener.stop()
            await running.value
        }
    }
}

/// The camera on umockdev's fake bus, opened with libusb in this process. The testbed lives (and holds the
/// one-testbed-per-process gate) until the link is closed.
enum FakeUSBReach {
    /// `interruptPacketSize` is the interrupt endpoint's wMaxPacketSize: 8 (like Canon's) splits every event over
    /// several transfers.
    static func open(
        _ camera: EmulatedCamera, recorder: PcapngRecorder? = nil, interruptPacketSize: Int = 8
    ) async throws -> EmulatorLink {
        let closed = Latch()
        return try await withCheckedThrowingContinuation {
            (continuation: CheckedContinuation<EmulatorLink, any Error>) in
            Task {
                do {
                    try await FakeUSBTestbed.withTestbed { testbed in
                        try testbed.requirePreload()
                        let model = camera.model
                        let device = try testbed.addCamera(
                            .init(
                                manufacturer: model.manufacturer, product: model.model,
                                serialNumber: model.serialNumber,
                                interruptMaxPacketSize: interruptPacketSize),
                            responder: camera)
                        device.start()
                        let context = try await LibUSBContext.make()
                        let info = try USBCameraSelector.onlyCamera.select(from: try await context.cameras())
                        let pipe = try await LibUSBPipe.open(info, in: context)
                        var hostPipe: any USBBulkPipe = pipe
                        if let recorder {
                            hostPipe = try await RecordingBulkPipe.start(
                                wrapping: pipe, recorder: recorder,
                                identity: USBDeviceIdentity(
                                    busNumber: UInt16(info.busNumber), deviceAddress: info.deviceAddress,
                                    vendorID: info.vendorID, productID: info.productID))
                        }
                        let transport = PTPUSBTransport(
                            pipe: hostPipe, configuration: .init(recoveryTimeout: .milliseconds(500)))
                        continuation.resume(
                            returning: EmulatorLink(transport: transport, camera: camera) { await closed.wait() })
                        await closed.waitUntilRequested()
                        await transport.close()
                        await pipe.close()
                    }
                    await camera.connectionClosed()
                    closed.finish()
                } catch {
                    // Before the link was handed out (no umockdev, no device): the caller gets the error.
                    continuation.resume(throwing: error)
                    closed.finish()
                }
            }
        }
    }
}

/// Close requested → the testbed goes → close returns.
private final class Latch: @unchecked Sendable {
    private let lock = NSLock()
    private var requested = false
    private var finished = false
    private var requestWaiter: CheckedContinuation<Void, Never>?
    private var finishWaiters: [CheckedContinuation<Void, Never>] = []

    /// Asks the owner to tear down, and waits until it has.
    func wait() async {
        let waiter = lock.withLock {
            requested = true
            defer { requestWaiter = nil }
            return requestWaiter
        }
        waiter?.resume()
        await withCheckedContinuation { continuation in
            lock.lock()
            if finished {
                lock.unlock()
                continuation.resume()
            } else {
                finishWaiters.append(continuation)
                lock.unlock()
            }
        }
    }

    func waitUntilRequested() async {
        await withCheckedContinuation { continuation in
            lock.lock()
            if requested {
                lock.unlock()
                continuation.resume()
            } else {
                requestWaiter = continuation
                lock.unlock()
            }
        }
    }

    func finish() {
        lock.lock()
        finished = true
        let waiters = finishWaiters
        finishWaiters = []
        lock.unlock()
        for waiter in waiters { waiter.resume() }
    }
}

/// A small, quick camera for tests: 96×64 pixels, a fixed clock and seed.
func smallCamera(
    model: CameraModel = .generic, width: Int = 96, height: Int = 64, faults: [EmulatorFault] = [],
    cardCapacity: UInt64 = 64 << 20, frames: FrameLog? = nil, eventOrder: CaptureEventOrder = .standard
) throws -> EmulatedCamera {
    var handler: (@Sendable (RawFrame) -> Void)?
    if let frames { handler = { frames.append($0) } }
    return try EmulatedCamera(
        model: model,
        configuration: .init(
            sensorWidth: width, sensorHeight: height, cardCapacity: cardCapacity, faults: faults, seed: 7,
            clockStart: try PTPDateTime(year: 2024, month: 5, day: 17, hour: 10, minute: 30, second: 0),
            renderedFrameHandler: handler, eventOrder: eventOrder))
}

/// Runs one raw transaction on a transport (for the requests PTPSession would never send).
func transact(
    _ link: EmulatorLink, _ code: OperationCode, tid: UInt32, _ parameters: [UInt32] = [], dataOut: [UInt8]? = nil
) async throws -> PTPResponse {
    let sink = PTPMemorySink()
    return try await link.transport.transact(
        PTPRequest(code: code, transactionID: tid, parameters: parameters), dataOut: dataOut.map(PTPBytesSource.init),
        dataIn: sink, timeout: .seconds(5))
}

/// Shoots once through `session`: InitiateCapture, then events until CaptureComplete. Returns the handles of the
/// ObjectAdded events, in order.
func shoot(
    _ session: PTPSession, storage: StorageID = StorageID(rawValue: 0), format: ObjectFormatCode? = nil,
    timeout: Duration = .seconds(20)
) async throws -> [ObjectHandle] {
    try await session.initiateCapture(storage: storage, format: format)
    var handles: [ObjectHandle] = []
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        guard let event = try await session.nextEvent(timeout: .milliseconds(500)) else { continue }
        switch event.code {
        case .objectAdded: handles.append(ObjectHandle(rawValue: event.parameters.first ?? 0))
        case .captureComplete: return handles
        default: continue
        }
    }
    throw CaptureTimeout(handles: handles)
}

/// No CaptureComplete arrived in time.
struct CaptureTimeout: Error, CustomStringConvertible {
    let handles: [ObjectHandle]
    var description: String { "no CaptureComplete (ObjectAdded: \(handles))" }
}

/// A download into memory.
func download(_ session: PTPSession, _ handle: ObjectHandle) async throws -> [UInt8] {
    let sink = PTPMemorySink(limit: 256 << 20)
    try await session.getObject(handle, into: sink)
    return await sink.bytes
}
