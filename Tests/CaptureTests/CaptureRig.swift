import CameraEmulator
import Capture
import Foundation
import Logging
import PTP
import PTPIP
import RawImage
import TestSupport
import Testing

/// An emulated camera on the in-memory USB link, an open session, and a captures folder with its journal.
final class CaptureRig: @unchecked Sendable {
    /// How the host reaches the camera.
    enum Reach: Sendable, CustomStringConvertible {
        /// USB framing over an in-memory bulk pipe (`--camera sim`).
        case usb
        /// PTP/IP framing over in-memory byte streams.
        case ptpipInMemory
        /// PTP/IP over TCP on loopback: a `PTPIPListener` + `PTPIPServer` and the `PTPIPConnector`.
        case ptpipLoopback

        var description: String {
            switch self {
            case .usb: "usb"
            case .ptpipInMemory: "ptpip-in-memory"
            case .ptpipLoopback: "ptpip-loopback"
            }
        }
    }

    let camera: EmulatedCamera
    private(set) var link: EmulatorLink
    private(set) var session: PTPSession
    let folder: TemporaryDirectory
    let store: OutputStore
    let events = EventLog()

    init(
        width: Int = 128, height: Int = 96, faults: [EmulatorFault] = [], cardCapacity: UInt64 = 256 << 20,
        eventOrder: CaptureEventOrder = .standard, model: CameraModel = .generic, reach: Reach = .usb,
        renderedFrameHandler: (@Sendable (RawFrame) -> Void)? = nil
    ) async throws {
        camera = try EmulatedCamera(
            model: model,
            configuration: .init(
                sensorWidth: width, sensorHeight: height, cardCapacity: cardCapacity, faults: faults,
                renderedFrameHandler: renderedFrameHandler, eventOrder: eventOrder))
        switch reach {
        case .usb: link = EmulatorLink.usb(camera)
        case .ptpipInMemory: link = try await EmulatorLink.ptpip(camera)
        case .ptpipLoopback: link = try await Self.loopback(camera)
        }
        session = PTPSession(transport: link.transport, configuration: .init(timeout: .seconds(10)))
        try await session.openSession()
        folder = try TemporaryDirectory("capture")
        store = try OutputStore(folder: folder.url.path)
    }

    /// The camera behind a PTP/IP server on a free loopback port, and a host connected to it over TCP.
    static func loopback(_ camera: EmulatedCamera) async throws -> EmulatorLink {
        let server = PTPIPServer(responder: camera, configuration: .init(device: .init(friendlyName: camera.model.model)))
        let listener = try PTPIPListener(address: .loopback(port: 0), server: server)
        let running = Task { await listener.run() }
        let address = PTPIPAddress(host: "127.0.0.1", port: listener.localAddress.port)
        let options = PTPIPConnector.Options(
            connectTimeout: .seconds(60), handshakeTimeout: .seconds(60),
            identity: .init(guid: .random(), friendlyName: "capture-test"))
        let transport = try await PTPIPConnector.connect(to: address, options: options)
        return EmulatorLink(
            transport: transport, camera: camera,
            close: {
                await transport.close()
                await listener.stop()
                await running.value
            })
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

    /// A `Puller` on the rig's session, folder and a journal in it.
    func puller() throws -> Puller {
        Puller(session: session, store: store, journal: try Journal(folder: store.folder), logger: .init(label: "t"))
    }

    /// Checks that the folder holds `shots` RAW+JPEG pairs: STEM.dng beside STEM.jpg for each of `shots` stems.
    func expectRawJPEGPairs(_ shots: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let files = try files()
        let stems = Set(files.map { String($0.split(separator: ".")[0]) })
        #expect(stems.count == shots, "\(files)", sourceLocation: sourceLocation)
        for stem in stems {
            #expect(
                files.contains(stem + ".dng") && files.contains(stem + ".jpg"), "\(stem) paired: \(files)",
                sourceLocation: sourceLocation)
        }
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
