import CameraEmulator
import Capture
import DNG
import JPEG
import Logging
import PTP
import RawImage
import Testing

/// Live view and focus from each emulated body through the host's `LiveViewSource` and `FocusControl`, over USB
/// framing in memory.
@Suite struct LiveViewTests {
    static func connect(_ model: CameraModel) async throws -> (EmulatedCamera, PTPSession, CameraIdentity) {
        let camera = try EmulatedCamera(model: model, configuration: .init(sensorWidth: 256, sensorHeight: 176))
        let session = PTPSession(transport: EmulatorLink.usb(camera).transport)
        try await session.openSession()
        let identity = try await session.cameraIdentity(
            usbVendorID: model.usbVendorID.map(USBVendorID.init(rawValue:)), usbProductID: model.usbProductID)
        return (camera, session, identity)
    }

    @Test(arguments: ["canon", "nikon", "sony", "fuji"])
    func framesAreWholeJPEGsAtTheBodysRate(name: String) async throws {
        let model = try CameraModel.named(name)
        let (camera, session, identity) = try await Self.connect(model)
        let source = try LiveViewSource(session: session, identity: identity, logger: Logger(label: "test"))
        try await source.start()
        var frames: [LiveViewFrame] = []
        for _ in 0..<12 { frames.append(try await source.nextFrame()) }
        await source.stop()
        for frame in frames {
            let image = try JPEGImage(validating: frame.jpeg).decoded()
            #expect(image.width == 640 && image.height == 424)
        }
        // Consecutive frames differ (the body's marker moves); the body never hands out two frames within a
        // frame's time (a host faster than 30 a second is told "not yet", counted in `notReadyAnswers`).
        #expect(frames[3].jpeg != frames[4].jpeg)
        let span = (frames.last!.received - frames.first!.received)
        let seconds = Double(span.components.seconds) + Double(span.components.attoseconds) / 1e18
        #expect(seconds >= 10.0 / 30.0, "11 intervals at 30 frames a second take at least a third of a second")
        #expect(await camera.liveViewFramesServed >= 12)
        if model.personality == .nikon {
            let ended = await camera.transcript.contains { $0.code == OperationCode.Nikon.endLiveView && $0.response == .ok }
            #expect(ended)
        }
    }

    @Test func aGenericCameraHasNoLiveView() async throws {
        let (_, session, identity) = try await Self.connect(.generic)
        #expect(throws: LiveViewError.self) {
            try LiveViewSource(session: session, identity: identity, logger: Logger(label: "test"))
        }
    }

    @Test func aNikonThatLeavesLiveViewIsRestarted() async throws {
        let (camera, session, identity) = try await Self.connect(.nikon)
        let source = try LiveViewSource(session: session, identity: identity, logger: Logger(label: "test"))
        _ = try await source.nextFrame()
        let before = await source.restarts
        // The body drops out of live view (libgphoto2: a D7000 after 14000 frames).
        try await session.nikonEndLiveView()
        let frame = try await source.nextFrame()
        #expect(LiveViewJPEG.isWholeJPEG(frame.jpeg[...]))
        #expect(await source.restarts == before + 1)
        let starts = await camera.transcript.filter { $0.code == OperationCode.Nikon.startLiveView }.count
        #expect(starts == before + 2)
        await source.stop()
    }

    /// Column sharpness of a decoded frame: mean absolute difference of neighbouring pixels' green, per band of
    /// columns.
    static func bandSharpness(_ image: RGBImage8, bands: Int) -> [Double] {
        var sums = [Double](repeating: 0, count: bands)
        var counts = [Double](repeating: 0, count: bands)
        for y in stride(from: 2, to: image.height - 24, by: 1) {
            for x in 1..<image.width {
                let a = Double(image.pixels[(y * image.width + x) * 3 + 1])
                let b = Double(image.pixels[(y * image.width + x - 1) * 3 + 1])
                let c = Double(image.pixels[((y - 1) * image.width + x) * 3 + 1])
                let band = x * bands / image.width
                sums[band] += abs(a - b) + abs(a - c)
                counts[band] += 1
            }
        }
        return zip(sums, counts).map { $0 / max($1, 1) }
    }

    @Test(arguments: ["canon", "nikon", "sony"])
    func theFocusDriveMovesTheSharpestPartOfTheFrame(name: String) async throws {
        let (camera, session, identity) = try await Self.connect(try CameraModel.named(name))
        let focus = try FocusControl(session: session, identity: identity, logger: Logger(label: "test"))
        #expect(try await focus.autofocus())
        #expect(await camera.lensFocusPosition == 500)
        // 300 and 700 of 1000 steps: the middles of the second and fourth of five bands.
        try await focus.drive(.near, count: 20, size: .small)
        #expect(await camera.lensFocusPosition == 300)
        await focus.finish()
        let source = try LiveViewSource(session: session, identity: identity, logger: Logger(label: "test"))
        let nearFrame = try await Self.frameShowingTheLens(source, camera)
        await source.stop()
        try await focus.drive(.far, count: 40, size: .small)
        #expect(await camera.lensFocusPosition == 700)
        await focus.finish()
        let farFrame = try await Self.frameShowingTheLens(source, camera)
        await source.stop()
        let nearBands = Self.bandSharpness(nearFrame, bands: 5)
        let farBands = Self.bandSharpness(farFrame, bands: 5)
        let nearPeak = nearBands.indices.max { nearBands[$0] < nearBands[$1] }!
        let farPeak = farBands.indices.max { farBands[$0] < farBands[$1] }!
        #expect(nearPeak == 1, "\(nearBands)")
        #expect(farPeak == 3, "\(farBands)")
    }

    /// A frame rendered at the lens's position: live view lags the lens while the body renders the new picture.
    static func frameShowingTheLens(_ source: LiveViewSource, _ camera: EmulatedCamera) async throws -> RGBImage8 {
        let position = await camera.lensFocusPosition
        for _ in 0..<600 {
            let frame = try await source.nextFrame()
            if await camera.liveViewFocusShown == position {
                // The next frame is rendered from the new picture.
                return try JPEGImage(validating: try await source.nextFrame().jpeg).decoded()
            }
            _ = frame
        }
        Issue.record("live view never showed focus position \(String(describing: position))")
        return try JPEGImage(validating: try await source.nextFrame().jpeg).decoded()
    }

    @Test func aNikonDriveToTheEndSaysSo() async throws {
        let (camera, session, identity) = try await Self.connect(.nikon)
        let focus = try FocusControl(session: session, identity: identity, logger: Logger(label: "test"))
        let result = try await focus.drive(.far, count: 1, size: .large)
        #expect(!result.reachedLimit)
        let end = try await focus.drive(.far, count: 10, size: .large)
        #expect(end.reachedLimit)
        #expect(await camera.lensFocusPosition == 1000)
        await focus.finish()
    }

    @Test func fujifilmAndGenericHaveNoFocusDrive() async throws {
        for model in [CameraModel.fujifilm, .generic] {
            let (_, session, identity) = try await Self.connect(model)
            #expect(throws: LiveViewError.self) {
                try FocusControl(session: session, identity: identity, logger: Logger(label: "test"))
            }
        }
    }
}
