import CameraEmulator
import PTP
import RawImage

/// The ways a test reaches the emulated camera in process: over USB framing or PTP/IP framing, in memory.
enum Reach: String, CaseIterable, Sendable, CustomStringConvertible {
    case usb
    case ptpip

    var description: String { rawValue }

    func connect(_ camera: EmulatedCamera) async throws -> EmulatorLink {
        switch self {
        case .usb:
            EmulatorLink.usb(camera, transportConfiguration: .init(recoveryTimeout: .milliseconds(500)))
        case .ptpip:
            try await EmulatorLink.ptpip(camera)
        }
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
