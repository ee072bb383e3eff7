import CameraEmulator
import Capture
import Foundation
import Logging
import PTP
import RawImage
import TestSupport

/// An emulated camera on the in-memory USB link, an open session, and a captures folder with its journal.
final class CaptureRig: @unchecked Sendable {
    let camera: EmulatedCamera
    private(set) var link: EmulatorLink
    private(set) var session: PTPSession
    let folder: TemporaryDirectory
    let store: OutputStore
    let events = EventLog()

    init(
        width: Int = 128, height: Int = 96, faults: [EmulatorFault] = [], cardCapacity: UInt64 = 256 << 20,
        eventOrder: CaptureEventOrder = .standard, model: CameraModel = .generic, overPTPIP: Bool = false,
        renderedFrameHandler: (@Sendable (RawFrame) -> Void)? = nil
    ) async throws {
        camera = try EmulatedCamera(
            model: model,
            configuration: .init(
                sensorWidth: width, sensorHeight: height, cardCapacity: cardCapacity, faults: faults,
                renderedFrameHandler: renderedFrameHandler, eventOrder: eventOrder))
        link = overPTPIP ? try await EmulatorLink.ptpip(camera) : EmulatorLink.usb(camera)
        session = PTPSession(transport: link.transport, configuration: .init(timeout: .seconds(10)))
        try await session.openSession()
        folder = try TemporaryDirectory("capture")
        store = try OutputStore(folder: folder.url.path)
    }

    /// Unplugs and plugs the camera back in: a new link and session to the same camera (its card survives).
    func reconnect() async throws {
        await link.close()
        link = EmulatorLink.usb(camera)
        session = PTPSession(transport: link.transport, configuration: .init(timeout: .seconds(10)))
        try await session.openSession()
    }

    func runner(_ plan: ShootPlan, stop: StopSignal = StopSignal()) throws -> CaptureRunner {
        CaptureRunner(
            session: session, plan: plan, store: store, journal: try Journal(folder: store.folder),
            logger: Logger(label: "test"), stop: stop, observer: events.append)
    }

    func shoot(_ plan: ShootPlan) async throws -> CaptureRunner.Summary {
        try await runner(plan).run()
    }

    var journal: [JournalEntry] { Journal.read(folder: store.folder) }

    /// Files in the folder, hidden ones (temporaries) included, the journal left out.
    func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: store.folder).filter { $0 != Journal.fileName }.sorted()
    }

    func close() async {
        try? await session.closeSession()
        await link.close()
    }

    /// The current value of a property, read over the session.
    func value(_ code: DevicePropertyCode) async throws -> PTPValue {
        try await session.getDevicePropDesc(code).currentValue
    }
}

/// Events a run reported.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [CaptureEvent] = []

    func append(_ event: CaptureEvent) { lock.withLock { stored.append(event) } }

    var all: [CaptureEvent] { lock.withLock { stored } }

    var warnings: [String] {
        all.compactMap { if case .warning(let text) = $0 { text } else { nil } }
    }
}
