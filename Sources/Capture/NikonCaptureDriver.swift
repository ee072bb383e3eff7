import Logging
import PTP

/// Nikon's capture into SDRAM: InitiateCaptureRecInSdram (0x90C0; InitiateCaptureRecInMedia 0x9207 with media
/// "SDRAM" on bodies that list only that), DeviceReady (0x90C8) while the body answers DeviceBusy, then Nikon
/// GetEvent (0x90C7) until ObjectAddedInSdram (0xC101) names each object, as libgphoto2 `library.c`
/// `camera_nikon_capture` does. The steps come from ``PTP/NikonCaptureSequence``; this type performs them. A body
/// that never names its objects has its shot read at 0xFFFF0001 once CaptureCompleteRecInSdram arrives.
///
/// Before the first shot it makes sure the shot goes to SDRAM (RecordingMedia 0xD10B = 1, so the card is never
/// written). Optional properties the body lacks (RecordingMedia, CompressionSetting, RawBitMode) are reported once
/// each as a warning and the body's own setting is used; only the capture operations themselves are required.
/// Bodies without GetEvent report on the interrupt endpoint, which the driver reads instead.
///
/// Checked step by step against libgphoto2 (`library.c` `camera_nikon_capture`, `ptp.c`, at commit 813de344) and a
/// USB recording of a real D5500 (OpenSession, GetDeviceInfo, GetVendorPropCodes, ChangeCameraMode 1,
/// InitiateCaptureRecInSdram, GetEvent until ObjectAddedInSdram, DeviceReady, GetObjectInfo, GetObject). Where
/// rawcap does the same: the vendor property list at connect (``PTP/CameraIdentity``), ChangeCameraMode(1) before
/// the first shot (0 again in `finish`), DeviceReady's codes (0xA201 ready, 0xA200 busy), InitiateCapture answers
/// retried as busy (DeviceBusy, 0xA004, 0xA207), 0x9207 with one parameter after ParameterNotSupported, associations
/// skipped, a handle announced twice counted once. Differences kept on purpose:
/// - InitiateCaptureRecInSdram (0x90C0) is preferred where a body lists both it and 0x9207 (libgphoto2 prefers
///   0x9207); both store to SDRAM, and 0x90C0 is what the recorded D5500 client used.
/// - RecordingMedia (0xD10B) is set to SDRAM for the run and put back in `finish`; libgphoto2 leaves it and picks the
///   target with 0x9207's parameter. Setting it keeps the card untouched on bodies where only 0x90C0 exists.
/// - Events queued before the shot are dropped, not re-queued: nothing in a capture run reads them.
/// - Downloads use GetPartialObject where the body lists it, with GetObject when the body refuses it for an SDRAM
///   object (``PTP/PTPSession/downloadObject(_:byteCount:into:chunkByteCount:maxAttempts:reconnect:)``);
///   libgphoto2 always uses GetObject here.
/// - Named SDRAM objects are not deleted after download (libgphoto2 deletes each): the body frees them at its next
///   shot; only the 0xFFFF0001 path deletes, to bring the next object up.
/// - GetEventEx (0x941C) is not used yet on Z bodies that list it; they answer 0x90C7 as well.
public struct NikonCaptureDriver: CaptureDriver {
    /// `nikon`.
    public var name: String { "nikon" }
    /// Where the warnings go.
    public let logger: Logger
    /// InitiateCaptureRecInSdram's autofocus parameter.
    public var autofocus: NikonCaptureSequence.Autofocus
    /// Where shots go: SDRAM (the default: the card is never written), or the card (`--keep-on-card`).
    public let media: NikonRecordingMedia
    let state: NikonDriverState
    /// Events a body-shot wait read that belong to the next shot (`BodyShots.swift`).
    let carriedEvents = BodyShotCarry<NikonEventList.Event>()

    /// Creates the driver; one per run, since it remembers what it has checked and warned about.
    public init(
        logger: Logger, autofocus: NikonCaptureSequence.Autofocus = .none, media: NikonRecordingMedia = .sdram
    ) {
        self.logger = logger
        self.autofocus = autofocus
        self.media = media
        state = NikonDriverState(media: media)
    }

    /// `--keep-on-card`: shots go to the card (RecordingMedia 0 and InitiateCaptureRecInMedia with media 0, the
    /// "3rd gen style nikon capture, can do both sdram and card" of libgphoto2 `library.c` `camera_capture`, whose
    /// `camera_nikon_capture` then reads ObjectAdded from GetEvent) and are downloaded from there; rawcap deletes
    /// nothing, so the card keeps them. Needs InitiateCaptureRecInMedia (0x9207): older bodies capture to SDRAM only
    /// ("1st gen, 2nd gen nikon capture only go to SDRAM").
    public func keepingFilesOnCard(session: PTPSession) async throws -> any CaptureDriver {
        guard try await session.deviceInfo().supports(OperationCode.Nikon.initiateCaptureRecInMedia) else {
            throw CaptureError(
                .cardCopyUnavailable,
                "--keep-on-card: the camera lists no InitiateCaptureRecInMedia (0x9207); it captures to SDRAM only")
        }
        return NikonCaptureDriver(logger: logger, autofocus: autofocus, media: .card)
    }

    /// Puts RecordingMedia back where it was before the run pointed captures at SDRAM, then leaves PC camera mode.
    public func finish(session: PTPSession, logger: Logger) async {
        await state.restoreRecordingMedia(session: session, logger: logger)
    }

    /// Takes one shot (see the type's description).
    public func capture(
        session: PTPSession, expecting: Int?, timing: CaptureTiming,
        announce: @Sendable (AnnouncedObject) async -> Void
    ) async throws -> [AnnouncedObject] {
        try await shoot(session: session, expecting: expecting, timing: timing, bulb: nil, announce: announce)
    }

    /// Nikon bulb needs TerminateCapture (0x920C) and a capture operation (libgphoto2 `config.c` lists its "bulb"
    /// widget for Nikon bodies with `PTP_OC_NIKON_TerminateCapture`).
    public func bulbUnavailableReason(deviceInfo: DeviceInfo) -> String? {
        guard deviceInfo.supports(OperationCode.Nikon.terminateCapture) else {
            return "it lists no TerminateCapture (0x920C), which ends a Nikon bulb exposure"
        }
        return nil
    }

    /// ExposureTime 0xFFFFFFFF (libgphoto2 `config.c` `_put_Nikon_Bulb`: "Exposure Time to bulb"), which the body
    /// must offer.
    public var bulbShutterSetting: BulbShutterSetting { .exposureTime(.uint32(0xFFFF_FFFF), required: true) }

    /// ExposureProgramMode (0x500E) at 1, "Exposure Mode to Full Manual", which libgphoto2 `config.c`
    /// `_put_Nikon_Bulb` sets (after ChangeCameraMode 1, which ``prepare(session:logger:)`` has sent) before ExposureTime
    /// goes to bulb: a Nikon offers bulb only in M. The run puts the body's own mode back when it ends.
    public var bulbExposureProgram: ExposureSetting.Preset? {
        ExposureSetting.Preset(property: .exposureProgramMode, value: .uint16(1))
    }

    /// Nikon bulb as libgphoto2 `config.c` `_put_Nikon_Bulb` does it: with ExposureTime at bulb (set by the runner),
    /// InitiateCaptureRecInMedia (0x9207: no autofocus, SDRAM; `ptp_nikon_capture2`) or, on bodies without it,
    /// InitiateCaptureRecInSdram opens the shutter; TerminateCapture (0x920C, parameters 0, 0) closes it; then
    /// DeviceReady is waited out (BulbReleaseBusy 0xA200 counts as busy, `nikon_wait_busy`) and the shot comes
    /// through GetEvent as any other. libgphoto2 sends ChangeCameraMode(1) and sets ExposureProgramMode to manual there;
    /// rawcap sends the first in `prepare` and sets the second with the run's settings (``bulbExposureProgram``),
    /// putting the body's mode back when the run ends. A body whose mode the host cannot set (a mode dial) and that
    /// is not in M is refused before anything is fired.
    public func captureBulb(
        session: PTPSession, expecting: Int?, timing: CaptureTiming, hold: BulbHold,
        announce: @Sendable (AnnouncedObject) async -> Void
    ) async throws -> [AnnouncedObject] {
        try await shoot(session: session, expecting: expecting, timing: timing, bulb: hold, announce: announce)
    }

    private func shoot(
        session: PTPSession, expecting: Int?, timing: CaptureTiming, bulb: BulbHold?,
        announce: @Sendable (AnnouncedObject) async -> Void
    ) async throws -> [AnnouncedObject] {
        let info = try await state.prepare(session: session, logger: logger)
        let usesGetEvent = info.supports(OperationCode.Nikon.getEvent)
        let pollInterval = Duration.milliseconds(50)
        let maxPolls = max(1, Int(timing.shotTimeout / pollInterval))
        var sequence = NikonCaptureSequence(
            configuration: .init(autofocus: autofocus, pollInterval: pollInterval, maxPolls: maxPolls))
        // Events left from before this shot (a property change, a previous shot's straggler) are not this shot's.
        if usesGetEvent { _ = try await session.nikonGetEvents() }
        var step = sequence.firstStep
        var busyStarts = 0
        while true {
            switch step {
            case .initiateCapture(let parameters, let delay):
                try await pause(delay)
                bulb?.opening()
                let accepted = try await initiate(session: session, info: info, parameters: parameters, bulb: bulb != nil)
                if accepted, let bulb {
                    await bulb.hold()
                    try await session.execute(OperationCode.Nikon.terminateCapture, parameters: [0, 0])
                }
                if !accepted {
                    busyStarts += 1
                    if busyStarts >= max(1, timing.busyAttempts) {
                        throw CaptureError(
                            .cameraBusy, "the camera answered DeviceBusy to \(busyStarts) capture requests in a row")
                    }
                }
                step = sequence.next(after: accepted ? .accepted : .busy)
            case .checkDeviceReady(let delay):
                try await pause(delay)
                step = sequence.next(after: try await session.nikonDeviceReady() ? .accepted : .busy)
            case .getEvents(let delay):
                try await pause(delay)
                let events = try await poll(session: session, usesGetEvent: usesGetEvent)
                if events.contains(where: { $0.code == .storeFull }) {
                    throw CaptureError(.cardFull, "the camera's memory filled up during the shot")
                }
                step = sequence.next(after: .events(events))
            case .download(let handles):
                if !sequence.objectsWereNamed {
                    return try await downloadUnnamed(
                        session: session, info: info, expecting: expecting, announce: announce)
                }
                var objects: [AnnouncedObject] = []
                for handle in handles {
                    let object = AnnouncedObject(handle: handle, info: try await session.getObjectInfo(handle))
                    // A shot stored on the card can create its folder first (ObjectAdded of an association):
                    // libgphoto2 `camera_nikon_capture` skips those too.
                    if object.info.objectFormat == .association { continue }
                    objects.append(object)
                    await announce(object)
                }
                return objects
            case .failed(let reason):
                throw CaptureError(.captureTimeout, "Nikon capture: \(reason)")
            }
        }
    }

    /// The shot of a body that never names its objects, read at 0xFFFF0001 (libgphoto2 `camera_nikon_capture`
    /// falls back to that handle too). When the shot has more objects than one (RAW+JPEG), each is downloaded here and
    /// then deleted so that the next moves up, as libgphoto2's burst loop does: nothing else reaches it. The objects
    /// live in SDRAM, not on the card, and the body frees them at its next shot anyway; one that never moves up ends
    /// the shot with what was read (InvalidObjectHandle after the delete).
    private func downloadUnnamed(
        session: PTPSession, info: DeviceInfo, expecting: Int?,
        announce: @Sendable (AnnouncedObject) async -> Void
    ) async throws -> [AnnouncedObject] {
        let handle = NikonCaptureSequence.sdramHandle
        var objects: [AnnouncedObject] = []
        while true {
            let objectInfo: ObjectInfo
            do {
                objectInfo = try await session.getObjectInfo(handle)
            } catch let error as PTPError where error.response == .invalidObjectHandle && !objects.isEmpty {
                let wanted = expecting ?? objects.count
                logger.warning("Nikon: only \(objects.count) of the shot's \(wanted) objects came up at 0xFFFF0001")
                return objects
            }
            guard let expecting, objects.count + 1 < expecting else {
                // The last (or only) object: the runner downloads it, and it stays in SDRAM until the next shot.
                let object = AnnouncedObject(handle: handle, info: objectInfo)
                objects.append(object)
                await announce(object)
                return objects
            }
            let bytes = try await ObjectDownloader(operations: info.operationsSupported).download(
                AnnouncedObject(handle: handle, info: objectInfo), session: session
            ) { _ in }
            let object = AnnouncedObject(handle: handle, info: objectInfo, data: bytes)
            objects.append(object)
            await announce(object)
            try await session.deleteObject(handle)
        }
    }

    private func pause(_ delay: Duration) async throws {
        if delay > .zero { try await Task.sleep(for: delay) }
    }

    /// InitiateCaptureRecInSdram, or InitiateCaptureRecInMedia with media 1 (SDRAM) on bodies that list only it.
    private func initiate(session: PTPSession, info: DeviceInfo, parameters: [UInt32], bulb: Bool = false)
        async throws -> Bool
    {
        do {
            if bulb || media == .card, info.supports(OperationCode.Nikon.initiateCaptureRecInMedia) {
                // libgphoto2 `ptp.h` `ptp_nikon_capture2(params, af, target)`: 0x9207 with the autofocus mode and 1
                // (SDRAM) or 0 (card), as `_put_Nikon_Bulb` and `camera_nikon_capture` send it.
                try await session.execute(
                    OperationCode.Nikon.initiateCaptureRecInMedia,
                    parameters: [parameters.first ?? 0xFFFF_FFFF, media == .card ? 0 : 1])
            } else if info.supports(OperationCode.Nikon.initiateCaptureRecInSdram) {
                try await session.execute(OperationCode.Nikon.initiateCaptureRecInSdram, parameters: parameters)
            } else {
                // libgphoto2 `ptp.h`: 0x9207 takes the autofocus mode and the media (SDRAM 1, card 0).
                try await session.execute(
                    OperationCode.Nikon.initiateCaptureRecInMedia, parameters: parameters + [1])
            }
            return true
        } catch let error as PTPError
            where error.response == .deviceBusy || error.response == ResponseCode.Nikon.invalidStatus
                || error.response == ResponseCode.Nikon.waiting2ndRelease
        {
            // libgphoto2 `camera_nikon_capture` retries InvalidStatus (0xA004, a Nikon 1 or a body still busy with
            // the last shot) and waits out Waiting2ndRelease (0xA207, a D850 between the two presses) as DeviceBusy.
            return false
        } catch let error as PTPError
            where error.response == .parameterNotSupported && !info.supports(OperationCode.Nikon.initiateCaptureRecInSdram)
        {
            // A D3x refuses 0x9207's two parameters (gphoto2 issue 635); libgphoto2 then sends the autofocus mode
            // alone, which stores to the card.
            try await session.execute(OperationCode.Nikon.initiateCaptureRecInMedia, parameters: [parameters[0]])
            return true
        } catch let error as PTPError where error.response == .storeFull {
            throw CaptureError(.cardFull, "the camera's memory is full (StoreFull)")
        }
    }

    /// The events since the last poll: Nikon GetEvent, or the interrupt endpoint on bodies without it.
    func poll(session: PTPSession, usesGetEvent: Bool) async throws -> [NikonEventList.Event] {
        if usesGetEvent { return try await session.nikonGetEvents().events }
        var events: [NikonEventList.Event] = []
        while let event = try await session.nextEvent(timeout: .milliseconds(1)) {
            events.append(NikonEventList.Event(code: event.code, parameter: event.parameters.first ?? 0))
        }
        return events
    }
}

/// What a ``NikonCaptureDriver`` has learnt about its camera: checked once per run.
actor NikonDriverState {
    /// Where shots go.
    let media: NikonRecordingMedia
    private var deviceInfo: DeviceInfo?
    /// RecordingMedia before ``prepare(session:logger:)`` pointed captures at SDRAM, when it changed it.
    private var mediaBefore: PTPValue?
    /// Whether ``prepare(session:logger:)`` put the body in PC camera mode (ChangeCameraMode 1).
    private var pcModeSet = false

    init(media: NikonRecordingMedia) { self.media = media }

    /// The camera's DeviceInfo; the first time, also points captures at SDRAM and warns once about each optional
    /// property the body lacks.
    func prepare(session: PTPSession, logger: Logger) async throws -> DeviceInfo {
        if let deviceInfo { return deviceInfo }
        let info = try await session.deviceInfo()
        guard
            info.supports(OperationCode.Nikon.initiateCaptureRecInSdram)
                || info.supports(OperationCode.Nikon.initiateCaptureRecInMedia)
        else {
            throw CaptureError(
                .formatUnavailable, "the camera lists neither InitiateCaptureRecInSdram nor InitiateCaptureRecInMedia")
        }
        // PC camera mode first, as libgphoto2 `camera_nikon_capture` and the recorded Windows client of a D5500 do
        // (ChangeCameraMode 0x90C2 with 1, right after GetVendorPropCodes); put back to 0 in `finish`.
        if info.supports(OperationCode.Nikon.changeCameraMode) {
            do {
                try await session.execute(OperationCode.Nikon.changeCameraMode, parameters: [1])
                pcModeSet = true
            } catch let error as PTPError where error.code == .deviceResponse {
                logger.warning("Nikon: the camera refused ChangeCameraMode(1) (\(error)); shooting in its own mode")
            }
        }
        let property = NikonRecordingMedia.property
        let target = media == .card ? "card" : "SDRAM"
        if info.devicePropertiesSupported.contains(property) {
            let wanted = PTPValue.uint8(media.rawValue)
            do {
                let current = try await session.getDevicePropValue(property, type: .uint8)
                if current != wanted {
                    try await session.setDevicePropValue(property, wanted)
                    mediaBefore = current
                }
            } catch let error as PTPError {
                logger.warning(
                    "Nikon: the camera refused RecordingMedia = \(target) (\(error)); shots go where it stores them")
            }
        } else {
            logger.warning("Nikon: the camera has no RecordingMedia (0xD10B); shots go where it stores them")
        }
        // A missing CompressionSetting is the runner's warning (it covers every profile with a quality property).
        if !info.devicePropertiesSupported.contains(NikonRawBitMode.property) {
            logger.warning("Nikon: the camera has no RawBitMode (0xD149); the NEF bit depth stays as set on the camera")
        }
        deviceInfo = info
        return info
    }

    /// Puts RecordingMedia back to what it was before ``prepare(session:logger:)`` (the card, usually), so the
    /// camera stores its next shot where the photographer expects once it is off the cable.
    func restoreRecordingMedia(session: PTPSession, logger: Logger) async {
        if let before = mediaBefore {
            do {
                try await session.setDevicePropValue(NikonRecordingMedia.property, before)
                mediaBefore = nil
            } catch {
                logger.warning("Nikon: could not put RecordingMedia back to \(before) (\(error)); it stays SDRAM")
            }
        }
        guard pcModeSet else { return }
        pcModeSet = false
        do {
            try await session.execute(OperationCode.Nikon.changeCameraMode, parameters: [0])
        } catch {
            logger.warning("Nikon: could not leave PC camera mode (ChangeCameraMode 0: \(error))")
        }
    }
}
