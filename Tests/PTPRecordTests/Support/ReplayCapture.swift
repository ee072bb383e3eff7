import Capture
import Foundation
import Logging
import PTP
import PTPRecord
import TestSupport

/// What a capture driven through a lenient replay of a recording did.
struct ReplayedCapture: Sendable {
    /// The camera's family, from its DeviceInfo and the USB vendor ID.
    var family: CameraFamily
    /// The objects the shot announced, each with the ObjectInfo the recording answered.
    var objects: [AnnouncedObject]
    /// The bytes of each object whose GetObject is in the recording.
    var downloads: [ObjectHandle: [UInt8]]
    /// Why the capture stopped before announcing an object, when it did: the first request the recording could
    /// not answer, as the session reported it.
    var stoppedBy: String?
    /// Requests the recording answered, answered with a fallback, and answered by repeating a used-up reply.
    var answered: (fromRecording: Int, withFallback: Int, byRepeating: Int)
}

/// Replays `fixture` (a path under `Fixtures/`, or an absolute path) leniently behind the USB seam, opens a session, reads the
/// DeviceInfo, and takes one shot with the capture driver for the camera's family (``FamilySequenceDriver``, the
/// PTP/Vendors state machines), then downloads each announced object the recording holds.
///
/// When the per-family `CaptureDriver`s are on main, the driver line becomes
/// `let driver = CameraProfile.select(for: info, usbVendorID: usbVendorID).driver`.
func replayCapture(fixture: String, usbVendorID: USBVendorID?) async throws -> ReplayedCapture {
    let path =
        fixture.hasPrefix("/")
        ? fixture : ExternalTool.packageRoot.appendingPathComponent("Fixtures").appendingPathComponent(fixture).path
    let conversation = try PTPConversation.load(path: path)
    let camera = ReplayCamera(conversation: conversation, mode: .lenient, logger: Logger(label: "replay.test"))
    let session = PTPSession(transport: camera.transport(), configuration: .init(timeout: .seconds(300)))
    let info: DeviceInfo
    do {
        try await session.openSession()
        info = try await session.getDeviceInfo()
    } catch {
        await camera.stop()
        throw error
    }
    let family = CameraFamily.identify(info, usbVendorID: usbVendorID).family
    let driver: any CaptureDriver = FamilySequenceDriver(family: family, info: info)
    var objects: [AnnouncedObject] = []
    var stoppedBy: String?
    do {
        objects = try await driver.capture(
            session: session, expecting: nil,
            timing: CaptureTiming(shotTimeout: .milliseconds(500), lateGrace: .milliseconds(200)), announce: { _ in })
    } catch {
        stoppedBy = "\(error)"
    }
    var downloads: [ObjectHandle: [UInt8]] = [:]
    for object in objects
    where conversation.transactions.contains(where: {
        $0.request.code == .getObject && $0.request.parameters.first == object.handle.rawValue
    }) {
        let sink = PTPMemorySink(limit: 1 << 30)
        _ = try await session.getObject(object.handle, into: sink)
        downloads[object.handle] = await sink.bytes
    }
    let responder = camera.responder
    let answered = (
        await responder.answeredFromRecording, await responder.answeredWithFallback,
        await responder.answeredByRepeating
    )
    await camera.stop()
    return ReplayedCapture(
        family: family, objects: objects, downloads: downloads, stoppedBy: stoppedBy, answered: answered)
}

/// A ``Capture/CaptureDriver`` that runs the PTP/Vendors state machine of a camera family step by step: Nikon's
/// ``PTP/NikonCaptureSequence``, Canon's ``PTP/CanonEOSCapture/preparation`` and
/// ``PTP/CanonEOSCaptureSequence``, Sony's handshake and ``PTP/SonyCaptureSequence``, Fujifilm's CaptureControl
/// write before the standard capture, and ``Capture/StandardCaptureDriver`` for the rest. It announces each
/// object once its ObjectInfo is read; downloading stays with the caller. Test code, standing in for the
/// per-family drivers until they land.
struct FamilySequenceDriver: CaptureDriver {
    var family: CameraFamily
    var info: DeviceInfo

    var name: String { "sequence-\(family)" }

    func capture(
        session: PTPSession, expecting: Int?, timing: CaptureTiming,
        announce: @Sendable (AnnouncedObject) async -> Void
    ) async throws -> [AnnouncedObject] {
        var objects: [AnnouncedObject] = []
        func found(_ handle: ObjectHandle) async throws {
            let object = AnnouncedObject(handle: handle, info: try await session.getObjectInfo(handle))
            objects.append(object)
            await announce(object)
        }
        switch family {
        case .nikon:
            var sequence = NikonCaptureSequence(configuration: .init(pollInterval: .zero, maxPolls: 50))
            var step = sequence.firstStep
            while true {
                switch step {
                case .initiateCapture:
                    step = sequence.next(after: try await session.nikonInitiateCaptureRecInSdram() ? .accepted : .busy)
                case .checkDeviceReady:
                    step = sequence.next(after: try await session.nikonDeviceReady() ? .accepted : .busy)
                case .getEvents:
                    step = sequence.next(after: .events(try await session.nikonGetEvents().events))
                case .download(let handles):
                    for handle in handles { try await found(handle) }
                    return objects
                case .failed(let reason):
                    throw CaptureError(.captureTimeout, reason)
                }
            }
        case .canonEOS:
            for step in CanonEOSCapture.preparation {
                switch step {
                case .operation(let code, let parameters): try await session.execute(code, parameters: parameters)
                case .setProperty(let value): try await session.canonSetPropertyValue(value)
                case .drainEvents:
                    var polls = 0
                    while polls < 50, !(try await session.canonGetEvents().events.isEmpty) { polls += 1 }
                }
            }
            var sequence = CanonEOSCaptureSequence(
                info: info, configuration: .init(pollInterval: .zero, maxPolls: 50))
            var step = sequence.firstStep
            while true {
                switch step {
                case .operation(let code, let parameters):
                    try await session.execute(code, parameters: parameters)
                    step = sequence.next(after: .done)
                case .getEvents:
                    step = sequence.next(after: .events(try await session.canonGetEvents()))
                case .download(let request):
                    try await found(request.handle)
                    step = sequence.next(after: .done)
                case .finished:
                    return objects
                case .failed(let reason):
                    throw CaptureError(.captureTimeout, reason)
                }
            }
        case .sony:
            _ = try await session.sonyConnect()
            var sequence = SonyCaptureSequence(configuration: .init(pollInterval: .zero, maxPolls: 50))
            var step = sequence.firstStep
            while true {
                switch step {
                case .press(let control, let value):
                    try await session.sonySetControlDeviceB(control, .uint16(value))
                    step = sequence.next(after: .done)
                case .pollPendingObjects:
                    step = sequence.next(after: .pendingObjects(try await session.sonyPendingObjectCount()))
                case .download(let handle):
                    try await found(handle)
                    step = sequence.next(after: .done)
                case .finished:
                    return objects
                case .failed(let reason):
                    throw CaptureError(.captureTimeout, reason)
                }
            }
        case .fujifilm:
            for step in FujifilmCapture.sequence(autofocus: false).dropLast() {
                try await session.setDevicePropValue(
                    FujifilmCapture.captureControlProperty, .uint16(step.captureControl))
                try await session.initiateCapture()
            }
            try await session.setDevicePropValue(
                FujifilmCapture.captureControlProperty, .uint16(FujifilmCapture.shootControl))
            return try await StandardCaptureDriver().capture(
                session: session, expecting: expecting, timing: timing, announce: announce)
        case .generic:
            return try await StandardCaptureDriver().capture(
                session: session, expecting: expecting, timing: timing, announce: announce)
        }
    }
}
