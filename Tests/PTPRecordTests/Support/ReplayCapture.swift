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
/// DeviceInfo, and takes one shot with the production capture driver for the camera
/// (``Capture/CameraProfile/select(for:usbVendorID:usbProductID:logger:)``: its `prepare`, `capture` and, however the
/// shot ends, `finish`), then downloads each announced object the recording holds.
func replayCapture(fixture: String, usbVendorID: USBVendorID?) async throws -> ReplayedCapture {
    let path =
        fixture.hasPrefix("/")
        ? fixture : ExternalTool.packageRoot.appendingPathComponent("Fixtures").appendingPathComponent(fixture).path
    let conversation = try PTPConversation.load(path: path)
    let logger = Logger(label: "replay.test")
    let camera = ReplayCamera(conversation: conversation, mode: .lenient, logger: logger)
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
    let driver = CameraProfile.select(for: info, usbVendorID: usbVendorID, logger: logger).driver
    var objects: [AnnouncedObject] = []
    var stoppedBy: String?
    do {
        try await driver.prepare(session: session, logger: logger)
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
    await driver.finish(session: session, logger: logger)
    let responder = camera.responder
    let answered = (
        await responder.answeredFromRecording, await responder.answeredWithFallback,
        await responder.answeredByRepeating
    )
    await camera.stop()
    return ReplayedCapture(
        family: family, objects: objects, downloads: downloads, stoppedBy: stoppedBy, answered: answered)
}
