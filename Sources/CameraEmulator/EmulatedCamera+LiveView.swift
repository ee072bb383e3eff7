import DNG
import Dispatch
import JPEG
import PTP
import RawImage
import SceneSynthesis
import WireFormat

/// The lens: a focus position in steps from the nearest distance (0) to infinity (``LensState/steps``), or none
/// until a drive or autofocus has moved it. Until then the camera photographs the flat chart in focus everywhere, as
/// it always has; once the lens has a position, shots and live view frames show the tilted chart of
/// ``RawImage/SceneLens``, sharp at the column whose distance is the focus position.
struct LensState: Sendable {
    /// Steps from the nearest focus to infinity.
    static let steps = 1000
    /// Where autofocus puts the lens: the centre of the frame in focus (the body's centre AF point).
    static let autofocusPosition = 500

    var position: Int?

    /// Moves the lens `delta` steps (negative towards near); returns whether it stopped at an end.
    mutating func move(by delta: Int) -> Bool {
        let target = (position ?? Self.autofocusPosition) + delta
        position = min(Self.steps, max(0, target))
        return target < 0 || target > Self.steps
    }

    mutating func autofocus() { position = Self.autofocusPosition }

    /// The scene's lens, or `nil` before the lens has a position.
    var sceneLens: SceneLens? { position.map { SceneLens(focus: Double($0) / Double(Self.steps)) } }

    /// Lens steps per Canon DriveLens size 1, 2, 3 (the emulator's choice: the three sizes a tenth, half and twice
    /// of a hundred steps apart).
    static func canonSteps(size: Int) -> Int { [10, 50, 200][min(3, max(1, size)) - 1] }

    /// Lens steps per Sony ManualFocusAdjust magnitude 1…7 (the emulator's choice, growing with the magnitude).
    static func sonySteps(magnitude: Int) -> Int { [10, 20, 50, 100, 200, 300, 400][min(7, max(1, magnitude)) - 1] }
}

/// Live view in the emulated body: whether it runs, the frames served, the Canon EVF properties, a Nikon's start and
/// drive delays, and the rendering kept for the current focus.
struct LiveViewEmulatorState: Sendable {
    var running = false
    var startedAt: ContinuousClock.Instant?
    /// The index (since ``startedAt``) of the last frame handed out; a request before the next is due is told "not
    /// yet" in the family's way.
    var lastServedIndex = -1
    /// Frames handed out.
    var framesServed: UInt32 = 0
    /// Canon EVFOutputDevice (0xD1B0; the screen at power-on) and EVFMode (0xD1B1).
    var canonOutputDevice: UInt32 = CanonEOSLiveView.outputTFT
    var canonMode: UInt32 = 0
    /// A Nikon answers DeviceReady with DeviceBusy until this instant (live view starting, the lens driving).
    var nikonBusyUntil: ContinuousClock.Instant?
    /// What a Nikon's DeviceReady answers once a drive has ended at a limit (MfDriveStepEnd), once.
    var nikonDriveResult: ResponseCode?
    /// The base picture for a focus position (`-1` for none), before the frame marker.
    var cached: (focus: Int, image: RGBImage8)?
    /// The focus position being rendered on the render queue, if any.
    var rendering: Int?
}

/// How the emulated bodies' live view looks: frame size and rate, JPEG quality.
enum LiveViewRenderer {
    /// 640×424: the size of the D850's and α7 III's live view JPEGs and of an EOS body's default (libgphoto2 users'
    /// `--capture-preview` files; the D850's GetLiveViewImage header says 640×424 in digiCamControl's logs).
    static let width = 640
    static let height = 424
    /// Frames a second the bodies produce for the host: 30, the rate of their screens' live view.
    static let framesPerSecond = 30.0
    /// The live view JPEG's quality (small frames, as the bodies send: 30–60 KB).
    static let quality = 70

    /// Live view pictures render on a queue of their own, off the camera's request path and not behind shots
    /// developing on the shot queue (a body's live view does not wait for its last shot to be written).
    private static let queue = DispatchQueue(label: "rawcap.emulator.liveview", qos: .userInitiated)

    static func onQueue<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in queue.async { continuation.resume(returning: work()) } }
    }

    /// Renders the synthetic scene at live view size through `lens` (the chart in focus everywhere when `nil`).
    static func base(
        cfa: CFAPattern, exposure: ExposureSettings, illuminant: SceneIlluminant, sensor: SensorModel,
        lens: SceneLens?
    ) throws -> RGBImage8 {
        // The body's live view is the sensor read out small and processed in hardware: here the scene's noise-free
        // camera response at the frame's size (no mosaic, no demosaicing: a fraction of a shot's work, so the first
        // frame is ready when live view starts), rendered through the camera's colour as a linear image.
        var scene = try SyntheticScene(
            width: width + 16, height: height + 16, cfa: cfa, bitsPerSample: 16, maskedMargin: 0)
        scene.illuminant = illuminant
        scene.sensor = sensor
        scene.lens = lens
        let response = try scene.cameraResponse(exposure: exposure)
        let samples = response.pixels.map { UInt16(clamping: Int(min(max($0, 0), 1) * 65535 + 0.5)) }
        let linear = try LinearImage(
            width: response.width, height: response.height, bitsPerSample: 16, samples: samples,
            blackLevels: [0, 0, 0], whiteLevels: [65535, 65535, 65535], color: try scene.colorCalibration())
        let image = try linear.renderRGB8(RenderOptions())
        return try centre(of: image, width: width, height: height)
    }

    static func centre(of image: RGBImage8, width: Int, height: Int) throws -> RGBImage8 {
        let w = min(width, image.width)
        let h = min(height, image.height)
        let x0 = (image.width - w) / 2
        let y0 = (image.height - h) / 2
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<h {
            let source = ((y0 + y) * image.width + x0) * 3
            pixels.replaceSubrange(y * width * 3..<(y * width + w) * 3, with: image.pixels[source..<source + w * 3])
        }
        return try RGBImage8(width: width, height: height, pixels: pixels)
    }

    /// One frame: the base with a marker that moves with the frame number (so consecutive frames differ), as JPEG.
    static func frame(_ base: RGBImage8, number: UInt32) throws -> [UInt8] {
        var image = base
        let size = 12
        let span = max(1, base.width - size)
        let x0 = Int(number) * 7 % span
        let y0 = base.height - size - 4
        for y in max(0, y0)..<min(base.height, y0 + size) {
            for x in x0..<min(base.width, x0 + size) {
                let index = (y * base.width + x) * 3
                image.pixels[index] = 255
                image.pixels[index + 1] = 255
                image.pixels[index + 2] = 255
            }
        }
        return try JPEGImage(encoding: image, quality: quality).bytes
    }
}

extension EmulatedCamera {
    /// The personality's live view and focus operations, before its other operations (see ``LiveViewProtocol``
    /// for the sources):
    ///
    /// - Canon EOS: GetViewFinderData (0x9153) once EVFOutputDevice (0xD1B0, set with SetDevicePropValueEx) has the
    ///   PC bit; 0xA102 (ObjectNotReady) before, and while the next frame is not due. DriveLens (0x9155) moves the
    ///   lens, DoAf (0x9154) focuses. EVFOutputDevice and EVFMode are reported in GetEvent records after
    ///   SetEventMode(1), as libgphoto2 reads their descriptions from there.
    /// - Nikon: StartLiveView (0x9201; DeviceReady answers DeviceBusy for 100 ms, LiveViewStatus 0xD1A2 becomes 1),
    ///   GetLiveViewImage (0x9203: NotLiveView 0xA00B outside live view, DeviceBusy while the next frame is not
    ///   due), EndLiveView (0x9202), MfDrive (0x9204, in live view only, as the body: NotLiveView otherwise; busy
    ///   while the lens moves, MfDriveStepEnd from DeviceReady when it stopped at an end), AfDrive (0x90C1).
    /// - Sony (after the SDIO handshake): GetObjectInfo and GetObject of 0xFFFFC002 (AccessDenied while the next
    ///   frame is not due); SetControlDeviceB of ManualFocusAdjust (0xD2D1, INT16 −7…7) moves the lens; the half
    ///   press (0xD2C1 down) focuses.
    /// - Fujifilm: InitiateOpenCapture (0x101C) starts live view; GetObjectInfo of 0x80000001 answers
    ///   InvalidObjectHandle while the next frame is not due, GetObject returns the bare JPEG, DeleteObject of it OK.
    func answerLiveViewOperation(_ request: PTPRequest, dataOut: [UInt8]?) -> PTPResponderReply? {
        let p = request.parameters
        func parameter(_ index: Int) -> UInt32 { index < p.count ? p[index] : 0 }
        switch model.personality {
        case .canonEOS:
            switch request.code {
            case OperationCode.Canon.getViewFinderData:
                guard liveView.canonOutputDevice & CanonEOSLiveView.outputPC != 0 else {
                    return PTPResponderReply(ResponseCode.Canon.objectNotReady)
                }
                startLiveViewIfStopped()
                guard let jpeg = nextLiveViewFrame() else { return PTPResponderReply(ResponseCode.Canon.objectNotReady) }
                return .data(CanonEOSViewFinderData(records: [.init(type: CanonEOSViewFinderData.jpegType, payload: jpeg[...])]).ptpEncoded)
            case OperationCode.Canon.driveLens:
                guard let step = CanonEOSLiveView.driveLensStep(parameter(0)) else {
                    return PTPResponderReply(.invalidParameter)
                }
                _ = lens.move(by: step.signum() * LensState.canonSteps(size: abs(step)))
                return PTPResponderReply()
            case OperationCode.Canon.doAf:
                lens.autofocus()
                return PTPResponderReply()
            case OperationCode.Canon.setEventMode where parameter(0) == CanonEOSCapture.eventModeOn:
                queueCanonEVFRecords()
                return nil
            case OperationCode.Canon.setDevicePropValueEx:
                guard let bytes = dataOut, let value = try? CanonEOSPropertyValue(ptpEncoded: bytes),
                    value.propertyCode == UInt32(CanonEOSLiveView.outputDeviceProperty.rawValue)
                        || value.propertyCode == UInt32(CanonEOSLiveView.modeProperty.rawValue)
                else { return nil }
                guard value.value.count == 2 || value.value.count == 4 else {
                    return PTPResponderReply(.invalidDevicePropFormat)
                }
                let number = value.value.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                if value.propertyCode == UInt32(CanonEOSLiveView.outputDeviceProperty.rawValue) {
                    guard number <= 0xF else { return PTPResponderReply(.invalidDevicePropValue) }
                    liveView.canonOutputDevice = number
                    if number & CanonEOSLiveView.outputPC == 0 { stopLiveView() }
                } else {
                    guard number <= 1 else { return PTPResponderReply(.invalidDevicePropValue) }
                    liveView.canonMode = number
                }
                if canon.eventMode == CanonEOSCapture.eventModeOn { queueCanonEVFRecords() }
                return PTPResponderReply()
            default:
                return nil
            }
        case .nikon:
            switch request.code {
            case OperationCode.Nikon.startLiveView:
                startLiveViewIfStopped()
                liveView.nikonBusyUntil = .now + .milliseconds(100)
                properties.setCurrent(NikonLiveView.statusProperty, .uint8(1))
                return PTPResponderReply()
            case OperationCode.Nikon.endLiveView:
                guard liveView.running else { return PTPResponderReply(ResponseCode.Nikon.notLiveView) }
                stopLiveView()
                properties.setCurrent(NikonLiveView.statusProperty, .uint8(0))
                return PTPResponderReply()
            case OperationCode.Nikon.getLiveViewImage:
                guard liveView.running else { return PTPResponderReply(ResponseCode.Nikon.notLiveView) }
                if let until = liveView.nikonBusyUntil, until > .now { return PTPResponderReply(.deviceBusy) }
                guard let jpeg = nextLiveViewFrame() else { return PTPResponderReply(.deviceBusy) }
                return .data(
                    NikonLiveViewImage.encode(
                        jpeg: jpeg, width: LiveViewRenderer.width, height: LiveViewRenderer.height,
                        wholeWidth: sensorWidth, wholeHeight: sensorHeight))
            case OperationCode.Nikon.mfDrive:
                guard liveView.running else { return PTPResponderReply(ResponseCode.Nikon.notLiveView) }
                let direction = parameter(0)
                guard direction == NikonLiveView.towardsNear || direction == NikonLiveView.towardsFar else {
                    return PTPResponderReply(.invalidParameter)
                }
                let steps = Int(min(parameter(1), 32767))
                guard steps > 0 else { return PTPResponderReply(ResponseCode.Nikon.mfDriveStepInsufficiency) }
                let atEnd = lens.move(by: direction == NikonLiveView.towardsNear ? -steps : steps)
                // The lens takes about a millisecond a step, at least 20 ms.
                liveView.nikonBusyUntil = .now + .milliseconds(max(20, min(steps, 300)))
                liveView.nikonDriveResult = atEnd ? ResponseCode.Nikon.mfDriveStepEnd : nil
                return PTPResponderReply()
            case OperationCode.Nikon.afDrive:
                lens.autofocus()
                liveView.nikonBusyUntil = .now + .milliseconds(150)
                return PTPResponderReply()
            case OperationCode.Nikon.deviceReady:
                if let until = liveView.nikonBusyUntil, until > .now { return PTPResponderReply(.deviceBusy) }
                if let result = liveView.nikonDriveResult {
                    liveView.nikonDriveResult = nil
                    return PTPResponderReply(result)
                }
                return nil
            default:
                return nil
            }
        case .sony:
            switch request.code {
            case OperationCode.Sony.sdioConnect where parameter(0) == 3:
                // A Sony in PC Remote shows live view from the end of the handshake on; libgphoto2 gives a preview
                // one second (`camera_capture_preview` sets the port's timeout to 1 s), so the picture is made now.
                prepareLiveViewPicture()
                return nil
            case .getObjectInfo where parameter(0) == SonyLiveView.objectHandle.rawValue:
                guard sony.isConnected else { return PTPResponderReply(.accessDenied) }
                startLiveViewIfStopped()
                return .dataset(
                    ObjectInfo(
                        objectFormat: .exifJPEG, imagePixWidth: UInt32(LiveViewRenderer.width),
                        imagePixHeight: UInt32(LiveViewRenderer.height), filename: "LiveView.JPG"))
            case .getObject where parameter(0) == SonyLiveView.objectHandle.rawValue:
                guard sony.isConnected else { return PTPResponderReply(.accessDenied) }
                startLiveViewIfStopped()
                guard let jpeg = nextLiveViewFrame() else { return PTPResponderReply(.accessDenied) }
                return .data(SonyLiveViewImage.encode(jpeg: jpeg))
            case OperationCode.Sony.setControlDeviceB
            where parameter(0) == UInt32(SonyLiveView.manualFocusAdjust.rawValue):
                guard sony.isConnected else { return PTPResponderReply(.accessDenied) }
                guard let dataOut, let value = try? PTPValue(ptpEncoded: dataOut, type: .int16).integerValue,
                    (-SonyLiveView.maximumStep...SonyLiveView.maximumStep).contains(value), value != 0
                else { return PTPResponderReply(.invalidDevicePropValue) }
                _ = lens.move(by: value.signum() * LensState.sonySteps(magnitude: abs(value)))
                return PTPResponderReply()
            case OperationCode.Sony.setControlDeviceB where parameter(0) == UInt32(SonyControl.halfPress.rawValue):
                if let dataOut, (try? PTPValue(ptpEncoded: dataOut, type: .uint16).integerValue) == Int(SonyControl.pressed),
                    properties.integer(.focusMode) != Int(Self.sonyManualFocus)
                {
                    lens.autofocus()
                }
                return nil
            default:
                return nil
            }
        case .fujifilm:
            switch request.code {
            case .initiateOpenCapture:
                startLiveViewIfStopped()
                return PTPResponderReply()
            case .getObjectInfo where parameter(0) == FujifilmLiveView.objectHandle.rawValue:
                guard liveView.running, liveViewFrameDue else { return PTPResponderReply(.invalidObjectHandle) }
                return .dataset(
                    ObjectInfo(
                        objectFormat: .exifJPEG, imagePixWidth: UInt32(LiveViewRenderer.width),
                        imagePixHeight: UInt32(LiveViewRenderer.height), filename: "LiveView.JPG"))
            case .getObject where parameter(0) == FujifilmLiveView.objectHandle.rawValue:
                guard liveView.running else { return PTPResponderReply(.invalidObjectHandle) }
                guard let jpeg = nextLiveViewFrame() else { return PTPResponderReply(.deviceBusy) }
                return .data(jpeg)
            case .deleteObject where parameter(0) == FujifilmLiveView.objectHandle.rawValue:
                return PTPResponderReply()
            case .terminateOpenCapture:
                stopLiveView()
                return PTPResponderReply()
            default:
                return nil
            }
        case .standard, .hostile:
            return nil
        }
    }

    /// Frames handed out since the camera was made (tests).
    public var liveViewFramesServed: UInt32 { liveView.framesServed }

    /// The lens's focus position in steps (0 nearest … 1000 infinity), or `nil` before it has moved (tests).
    public var lensFocusPosition: Int? { lens.position }

    private func startLiveViewIfStopped() {
        guard !liveView.running else { return }
        liveView.running = true
        liveView.startedAt = .now
        liveView.lastServedIndex = -1
        // The first picture is rendered here, while the operation that starts live view is answered: a body has its
        // first frame ready once it says live view runs, and libgphoto2 waits for it only briefly (20 tries 10 ms
        // apart for a Nikon, 5 tries 5 ms apart for a Fujifilm). Later pictures (a moved lens) render off this path.
        if liveView.cached == nil, liveView.rendering == nil, let exposure = try? currentExposure(),
            let image = try? LiveViewRenderer.base(
                cfa: model.cfa, exposure: exposure, illuminant: configuration.illuminant, sensor: configuration.sensor,
                lens: lens.sceneLens)
        {
            liveView.cached = (lens.position ?? -1, image)
        }
    }

    func stopLiveView() {
        liveView.running = false
        liveView.startedAt = nil
    }

    /// Whether a frame newer than the last one handed out is due.
    private var liveViewFrameDue: Bool { currentLiveViewIndex > liveView.lastServedIndex }

    private var currentLiveViewIndex: Int {
        guard let start = liveView.startedAt else { return -1 }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Int(seconds * LiveViewRenderer.framesPerSecond)
    }

    /// The focus position the live view frames show (`-1` for the lens never moved), `nil` before the first
    /// rendering; it follows the lens once the rendering for its new position is done (tests wait for it).
    public var liveViewFocusShown: Int? { liveView.cached?.focus }

    /// The next frame's JPEG, or `nil` when none is due yet (the host asked faster than the body produces, or the
    /// first picture is still rendering).
    ///
    /// The picture is rendered on the render queue, off the camera's request path (a debug build takes a good part
    /// of a second); until the picture for a new focus position is ready, frames show the previous one, as a body's
    /// live view lags the lens.
    fileprivate func nextLiveViewFrame() -> [UInt8]? {
        let index = currentLiveViewIndex
        guard index > liveView.lastServedIndex else { return nil }
        prepareLiveViewPicture()
        guard let base = liveView.cached?.image else { return nil }
        guard let jpeg = try? LiveViewRenderer.frame(base, number: liveView.framesServed) else { return nil }
        liveView.lastServedIndex = index
        liveView.framesServed &+= 1
        return jpeg
    }

    /// Starts rendering the picture for the lens's position on the render queue, unless it is there or under way.
    private func prepareLiveViewPicture() {
        let focus = lens.position ?? -1
        guard liveView.cached?.focus != focus, liveView.rendering != focus, let exposure = try? currentExposure()
        else { return }
        liveView.rendering = focus
        let (cfa, illuminant, sensor, lens) = (model.cfa, configuration.illuminant, configuration.sensor, lens.sceneLens)
        Task {
            let image = await LiveViewRenderer.onQueue {
                try? LiveViewRenderer.base(cfa: cfa, exposure: exposure, illuminant: illuminant, sensor: sensor, lens: lens)
            }
            self.liveViewRendered(image, focus: focus)
        }
    }

    private func liveViewRendered(_ image: RGBImage8?, focus: Int) {
        if liveView.rendering == focus { liveView.rendering = nil }
        guard let image else { return }
        liveView.cached = (focus, image)
    }

    /// EVFOutputDevice and EVFMode as GetEvent PropValueChanged records (4-byte values, as libgphoto2 `ptp-pack.c`
    /// reads EVFOutputDevice as UINT32).
    private func queueCanonEVFRecords() {
        for (property, value) in [
            (CanonEOSLiveView.outputDeviceProperty, liveView.canonOutputDevice),
            (CanonEOSLiveView.modeProperty, liveView.canonMode),
        ] {
            var writer = WireWriter(byteOrder: .little)
            writer.write(value)
            canon.queue(.propertyChanged(CanonEOSPropertyChange(property: property, value: writer.bytes)))
        }
    }
}

/// A Fujifilm body on Wi-Fi pushes live view on its live-view port (55742) while live view runs (from
/// InitiateOpenCapture to TerminateOpenCapture), at the body's frame rate; ``PTP/FujiPTPIPDeviceSide`` wraps each
/// frame in the port's blob.
extension EmulatedCamera: StreamedLiveViewResponder {
    public func streamedLiveViewFrame() async -> [UInt8]? {
        guard model.personality == .fujifilm, liveView.running else { return nil }
        return nextLiveViewFrame()
    }
}
