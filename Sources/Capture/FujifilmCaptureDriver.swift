import Logging
import PTP

/// Fujifilm X and GFX capture in USB tether mode (libgphoto2 `library.c` `camera_prepare_capture` and the Fujifilm
/// branch of `camera_capture`; `config.c` `_put_Fuji_AFDrive` for the focus handshake).
///
/// ``prepare(session:logger:)`` hands control to the host: PC mode (0xD38C) to 1 and PriorityMode (0xD207) to 2
/// (USB), each only when the body lists it and with a warning, not a failure, when it refuses (libgphoto2 logs and
/// goes on; bodies without the tether firmware lack PriorityMode altogether).
///
/// ``capture(session:expecting:timing:announce:)``:
/// 1. focus, when the body lists CaptureControl (0xD208) and AFStatus (0xD209): CaptureControl 0x0200, InitiateCapture,
///    then AFStatus polled until it leaves 1 (2 focused; 3 failed: CaptureControl 0x0004 and InitiateCapture cancel
///    the half press, and the shot fails);
/// 2. CaptureControl 0x0304 and InitiateCapture (DeviceBusy retried); without CaptureControl, InitiateCapture alone;
/// 3. the objects: ObjectAdded events, and the 0xD212 change list polled meanwhile (a changed object count sends the
///    driver to the card's object list, which is where the objects appear when no event comes).
///
/// ``finish(session:logger:)`` gives the body its controls back (PriorityMode 1). Objects are read whole with
/// GetObject (``CameraProfile/partialObjectDownloads``).
///
/// `--keep-on-card` (``keepingFilesOnCard(session:)``) sets MediaRecord (0xD20C) to 1, RAW+JPEG (Fujifilm X/GFX SDK
/// `XAPI.h` `XSDK_MEDIAREC_RAWJPEG`; its samples call `XSDK_SetMediaRecord` after `XSDK_SetPriorityMode(PC)`), once the
/// host has priority, and puts it back in `finish`. A tethered X-T2 starts with 4 (`XSDK_MEDIAREC_OFF`: the shot
/// reaches only the host, from the body's "Still" RAM store; libgphoto2's `cameras/fuji-xt2.txt`). libgphoto2 has no
/// capture target for Fujifilm bodies (`config.c` "capturetarget" covers Canon, Nikon, Sony, Panasonic).
///
/// Differences from libgphoto2 (813de344) kept on purpose or not yet ported, one per line:
/// - PriorityMode 2 once in `prepare`, not again before each shot (`camera_fuji_capture`).
/// - the wait is `shotTimeout`, not scaled from ExposureTime up to two hours (`camera_fuji_capture`).
/// - capture properties are taken from DeviceInfo alone: no 72 hard-coded codes, no Fuji GetDeviceInfo 0x902B
///   (`fixup_cached_deviceinfo`); without CaptureControl plain InitiateCapture (libgphoto2 always writes 0xD208).
/// - AFStatus is polled every `pollInterval` and bounded by `shotTimeout` (libgphoto2 polls without pause or bound).
/// - no TerminateOpenCapture (no live view) (`camera_fuji_capture`, `camera_unprepare_capture`).
public struct FujifilmCaptureDriver: CaptureDriver {
    /// What ``prepare(session:logger:)`` learnt about the body.
    actor Capabilities {
        var captureControl = true
        var afStatus = true
        var changeList = true
        /// Whether `prepare` gave the host priority (0xD207 = 2), to give back in `finish`.
        var priorityTaken = false
        /// MediaRecord (0xD20C) as `--keep-on-card` found it, to put back in `finish`.
        var mediaRecordBefore: PTPValue?
        var logger = Logger(label: "rawcap.capture.fujifilm")

        func update(captureControl: Bool, afStatus: Bool, priorityTaken: Bool, logger: Logger) {
            self.captureControl = captureControl
            self.afStatus = afStatus
            self.priorityTaken = priorityTaken
            self.logger = logger
            changeList = true
        }

        func setMediaRecordBefore(_ value: PTPValue?) { mediaRecordBefore = value }

        /// MediaRecord's value to put back, if any; asked once.
        func takeMediaRecordBefore() -> PTPValue? {
            defer { mediaRecordBefore = nil }
            return mediaRecordBefore
        }

        /// Whether priority is to be given back; asked once.
        func takePriority() -> Bool {
            defer { priorityTaken = false }
            return priorityTaken
        }

        /// The first time the change list is refused: warn once, and stop asking.
        func changeListRefused(_ error: PTPError) {
            guard changeList else { return }
            changeList = false
            logger.warning("the camera does not report changes through 0xD212 (\(error)); waiting for events only")
        }
    }

    /// `fujifilm`.
    public var name: String { "fujifilm" }
    /// Whether to focus before the release.
    public var autofocus: Bool
    /// Pause between polls of AFStatus and of the change list.
    public var pollInterval: Duration
    /// Whether the body is to record its shots on its card too (`--keep-on-card`: MediaRecord 0xD20C).
    public private(set) var recordsOnCard = false
    let capabilities = Capabilities()
    /// New objects a body-shot wait found that belong to the next shot (`BodyShots.swift`).
    let carriedHandles = BodyShotCarry<ObjectHandle>()

    /// Creates the driver.
    public init(autofocus: Bool = true, pollInterval: Duration = .milliseconds(100)) {
        self.autofocus = autofocus
        self.pollInterval = pollInterval
    }

    /// Puts the body under the host's control (see the type's description).
    public func prepare(session: PTPSession, logger: Logger) async throws {
        let info = try await session.deviceInfo()
        let properties = Set(info.devicePropertiesSupported)
        func set(_ code: DevicePropertyCode, _ value: UInt16, _ what: String) async throws {
            do {
                try await session.setDevicePropValue(code, .uint16(value))
            } catch let error as PTPError where error.code == .deviceResponse {
                logger.warning("the camera refused \(what) (\(error)); going on with its own setting")
            }
        }
        let priority = properties.contains(FujifilmCapture.priorityModeProperty)
        if priority {
            if properties.contains(DevicePropertyCode.Fujifilm.pcMode) {
                try await set(DevicePropertyCode.Fujifilm.pcMode, 1, "PC mode (0xD38C = 1)")
            }
            try await set(
                FujifilmCapture.priorityModeProperty, FujifilmCapture.priorityHost,
                "USB priority (PriorityMode 0xD207 = 2)")
        } else {
            logger.warning("the camera has no PriorityMode (0xD207): the body keeps control of its settings")
        }
        let captureControl = properties.contains(FujifilmCapture.captureControlProperty)
        if !captureControl {
            logger.warning("the camera has no CaptureControl (0xD208): plain InitiateCapture, without autofocus")
        }
        await capabilities.update(
            captureControl: captureControl, afStatus: properties.contains(DevicePropertyCode.Fujifilm.afStatus),
            priorityTaken: priority, logger: logger)
        if recordsOnCard { try await recordOnCard(session: session, logger: logger) }
    }

    /// MediaRecord (0xD20C) to 1 (RAW+JPEG on the card), remembering the body's value; a refusal fails the run
    /// before anything is shot, as `--keep-on-card` cannot be honoured.
    private func recordOnCard(session: PTPSession, logger: Logger) async throws {
        let property = FujifilmCapture.mediaRecordProperty
        let before = try await session.getDevicePropValue(property, type: .uint16)
        guard before != .uint16(FujifilmCapture.mediaRecordOnCard) else { return }
        do {
            try await session.setDevicePropValue(property, .uint16(FujifilmCapture.mediaRecordOnCard))
        } catch let error as PTPError where error.code == .deviceResponse {
            throw CaptureError(
                .cardCopyUnavailable,
                "--keep-on-card: the camera refused card recording (MediaRecord 0xD20C = 1): \(error)")
        }
        await capabilities.setMediaRecordBefore(before)
        logger.debug("Fujifilm: MediaRecord 0xD20C \(before) -> 1 (RAW+JPEG on the card)")
    }

    /// Gives the body its controls back: PriorityMode (0xD207) = 1, "camera" (libgphoto2 `config.c`
    /// `camera_unprepare_capture`), when `prepare` took it. A refusal is logged.
    public func finish(session: PTPSession, logger: Logger) async {
        if let before = await capabilities.takeMediaRecordBefore() {
            do {
                try await session.setDevicePropValue(FujifilmCapture.mediaRecordProperty, before)
            } catch {
                logger.warning("could not put the Fujifilm camera's MediaRecord (0xD20C) back to \(before): \(error)")
            }
        }
        guard await capabilities.takePriority() else { return }
        do {
            try await session.setDevicePropValue(
                FujifilmCapture.priorityModeProperty, .uint16(FujifilmCapture.priorityCamera))
        } catch {
            logger.warning("could not give the Fujifilm camera its controls back (PriorityMode 0xD207 = 1): \(error)")
        }
    }

    /// Takes one shot (see the type's description).
    public func capture(
        session: PTPSession, expecting: Int?, timing: CaptureTiming,
        announce: @Sendable (AnnouncedObject) async -> Void
    ) async throws -> [AnnouncedObject] {
        try await shoot(session: session, expecting: expecting, timing: timing, bulb: nil, announce: announce)
    }

    /// `--keep-on-card`: the same driver, setting MediaRecord (0xD20C) to record on the card in `prepare`. A body
    /// that lists no MediaRecord, or whose description offers no 1, cannot be told and is refused here (exit 64).
    public func keepingFilesOnCard(session: PTPSession) async throws -> any CaptureDriver {
        let property = FujifilmCapture.mediaRecordProperty
        let info = try await session.deviceInfo()
        guard info.devicePropertiesSupported.contains(property) else {
            throw CaptureError(
                .cardCopyUnavailable,
                "--keep-on-card: the camera lists no MediaRecord (0xD20C), through which a Fujifilm body records its "
                    + "tethered shots on its card")
        }
        let description = try await session.getDevicePropDesc(property)
        let offersCard: Bool
        switch description.form {
        case .enumeration(let values): offersCard = values.contains(.uint16(FujifilmCapture.mediaRecordOnCard))
        case .range(let low, let high, _):
            let wanted = Int(FujifilmCapture.mediaRecordOnCard)
            offersCard = (low.integerValue ?? Int.max) <= wanted && wanted <= (high.integerValue ?? Int.min)
        case .none: offersCard = true
        }
        guard description.isSettable, offersCard else {
            throw CaptureError(
                .cardCopyUnavailable,
                "--keep-on-card: the camera's MediaRecord (0xD20C) does not offer 1 (RAW+JPEG on the card): \(description.form)")
        }
        var driver = FujifilmCaptureDriver(autofocus: autofocus, pollInterval: pollInterval)
        driver.recordsOnCard = true
        return driver
    }

    /// Fujifilm bulb needs CaptureControl (0xD208).
    public func bulbUnavailableReason(deviceInfo: DeviceInfo) -> String? {
        deviceInfo.devicePropertiesSupported.contains(FujifilmCapture.captureControlProperty)
            ? nil : "it lists no CaptureControl (0xD208), through which a Fujifilm opens and closes bulb"
    }

    /// Fujifilm bulb as libgphoto2 `config.c` `_put_Fuji_Bulb` does it: focus first (CaptureControl 0x0200 and
    /// InitiateCapture, AFStatus polled, with autofocus), then CaptureControl 0x0500 and InitiateCapture open the
    /// shutter, CaptureControl 0x000C and InitiateCapture close it; the shot comes as after a timed release.
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
        let clock = ContinuousClock()
        let before = Set(try await session.getObjectHandles())
        while let stale = try await session.nextEvent(timeout: .milliseconds(1)) {
            if stale.code == .storeFull { throw CaptureError(.cardFull, "the camera's card is full") }
        }
        if await capabilities.changeList { _ = try? await changes(session) }  // start from an empty list
        let captureControl = await capabilities.captureControl
        if autofocus, captureControl, await capabilities.afStatus {
            try await focus(session: session, timing: timing)
        }
        if let bulb {
            try await session.setDevicePropValue(
                FujifilmCapture.captureControlProperty, .uint16(FujifilmCapture.bulbStartControl))
            bulb.opening()
            try await StandardCaptureDriver.initiate(session: session, timing: timing)
            await bulb.hold()
            try await session.setDevicePropValue(
                FujifilmCapture.captureControlProperty, .uint16(FujifilmCapture.bulbEndControl))
            try await StandardCaptureDriver.initiate(session: session, timing: timing)
        } else {
            if captureControl {
                try await session.setDevicePropValue(
                    FujifilmCapture.captureControlProperty, .uint16(FujifilmCapture.shootControl))
            }
            try await StandardCaptureDriver.initiate(session: session, timing: timing)
        }

        let started = clock.now
        var lastPoll = started
        var objects: [AnnouncedObject] = []
        var completedAt: ContinuousClock.Instant?
        func have(_ handle: ObjectHandle) -> Bool {
            objects.contains { $0.handle == handle } || before.contains(handle)
        }
        func add(_ handle: ObjectHandle, late: Bool) async throws {
            guard !have(handle) else { return }
            let info = try await session.getObjectInfo(handle)
            guard info.objectFormat != .association else { return }
            let object = AnnouncedObject(handle: handle, info: info, late: late)
            objects.append(object)
            await announce(object)
        }
        while clock.now - started < timing.shotTimeout {
            if let expecting, objects.count >= expecting { break }
            if expecting == nil, let completedAt, !objects.isEmpty, clock.now - completedAt >= .milliseconds(300) {
                break
            }
            if let event = try await session.nextEvent(timeout: pollInterval) {
                switch event.code {
                case .objectAdded:
                    if let raw = event.parameters.first { try await add(ObjectHandle(rawValue: raw), late: false) }
                case .captureComplete:
                    completedAt = completedAt ?? clock.now
                case .storeFull:
                    throw CaptureError(.cardFull, "the camera's card filled up during the shot")
                default:
                    break
                }
            }
            if clock.now - lastPoll >= pollInterval, await capabilities.changeList {
                lastPoll = clock.now
                // Bodies that send no ObjectAdded report the new object as a changed property.
                if let list = try await changes(session), !list.changes.isEmpty {
                    for handle in try await session.getObjectHandles() { try await add(handle, late: false) }
                }
            }
        }
        if let expecting, objects.count < expecting {
            for handle in try await session.getObjectHandles() { try await add(handle, late: true) }
        }
        guard !objects.isEmpty else {
            throw CaptureError(
                .captureTimeout, "the camera stored nothing within \(timing.shotTimeout) of InitiateCapture")
        }
        return objects
    }

    /// The 0xD212 change list, or `nil` once the body has refused it (warned about once).
    func changes(_ session: PTPSession) async throws -> FujifilmPropertyChangeList? {
        do {
            return try await session.fujifilmGetPropertyChanges()
        } catch let error as PTPError where error.code == .deviceResponse {
            await capabilities.changeListRefused(error)
            return nil
        }
    }

    /// CaptureControl 0x0200 and InitiateCapture, then AFStatus until it leaves 1 (focusing).
    private func focus(session: PTPSession, timing: CaptureTiming) async throws {
        try await session.setDevicePropValue(
            FujifilmCapture.captureControlProperty, .uint16(FujifilmCapture.focusControl))
        try await StandardCaptureDriver.initiate(session: session, timing: timing)
        let clock = ContinuousClock()
        let started = clock.now
        var status = 1
        while status == 1, clock.now - started < timing.shotTimeout {
            status =
                try await session.getDevicePropValue(DevicePropertyCode.Fujifilm.afStatus, type: .uint16).integerValue
                ?? 0
            if status == 1 { try await Task.sleep(for: pollInterval) }
        }
        if status == Int(FujifilmCapture.focusFailed) {
            // "3 - means failed and initiatecapture will get busy" (libgphoto2 `camera_fuji_capture`): cancel the
            // half press, as libgphoto2 does, and fail the shot.
            try await session.setDevicePropValue(
                FujifilmCapture.captureControlProperty, .uint16(FujifilmCapture.cancelFocusControl))
            try await StandardCaptureDriver.initiate(session: session, timing: timing)
            throw CaptureError(.captureTimeout, "the Fujifilm camera could not focus (AFStatus 3); no shot was taken")
        }
    }
}
