import Logging
import PTP

/// Sony's remote capture (Alpha and RX bodies in "PC Remote" USB mode, or over PTP/IP), driven by
/// ``PTP/SonyCaptureSequence``.
///
/// ``prepare(session:logger:)`` runs the SDIO handshake (SDIOConnect phases 1 and 2, GetSDIOExtDeviceInfo,
/// phase 3; libgphoto2 `library.c` `camera_init`), offering protocol version 300 and falling back to 200 when the
/// body refuses it. A body whose extended device info lists no S2 (full press, 0xD2C2) control cannot be triggered:
/// that is ``CaptureError/Code-swift.struct/remoteControlUnavailable``. Without the S1 (half press, 0xD2C1) control
/// the driver warns once and shoots without autofocus.
///
/// ``capture(session:expecting:timing:announce:)`` presses the buttons through SetControlDeviceB (0x9207), polls
/// GetAllDevicePropData (0x9209) until ObjectInMemory (0xD215) exceeds 0x8000, and reads each waiting object at
/// 0xFFFFC001 (GetObjectInfo, then GetObject), re-reading the count after each; a RAW+JPEG shot leaves two. The
/// handle can be read only once, so the driver downloads the objects itself (``AnnouncedObject/data``).
///
/// Before the press, objects an earlier run left in the buffer are read and dropped; after the full press the
/// buttons are held until FocusFound (0xD213) is 2 or 3, at most a second, unless FocusMode is manual. PriorityMode
/// (0xD25A) goes to the host right after the handshake.
///
/// Differences from libgphoto2 (813de344) kept on purpose or not yet ported, one per line:
/// - GetSDIOExtDeviceInfo: (version, 1) as libgphoto2, then the version alone if refused
///   (`ptp_sony_get_vendorpropcodes`); a refused version 300 handshake is run again with 200 (no such fallback in
///   `fixup_cached_deviceinfo`).
/// - no 3 s settle after connecting on the bodies libgphoto2 lists (ZV-1, ILCE-7M3, …) (`camera_sony_capture`).
/// - stale objects: every waiting object is dropped (ObjectInMemory 0x8000 + n), not only at 0x8001
///   (`camera_sony_capture`).
/// - the focus hold polls GetAllDevicePropData only, not also the DevicePropChanged / ObjectAdded events
///   (`camera_sony_capture`).
/// - no half press when the body lists no S1 control (libgphoto2 always presses it).
/// - the shot counts once ObjectInMemory exceeds 0x8000 (`camera_sony_capture` waits for ≥ 0x8000,
///   `camera_wait_for_event` for > 0x8000), and every waiting object is read in one capture.
/// - no PTP/IP 0x9280/0x9281 at connect and exit (`camera_init`, `camera_exit`).
/// - image quality is CompressionSetting 0x5004 with the mode-2 values, never 0xD253 (1 RAW, 2 RAW+JPEG, 3 JPEG)
///   on bodies that have it, and no wait for the value to read back (`config.c` "imagequality",
///   `_put_Sony_CompressionSetting`).
public struct SonyCaptureDriver: CaptureDriver {
    /// What the handshake found out, kept for the shots of the run.
    actor Capabilities {
        var halfPress = true
        var logger = Logger(label: "rawcap.capture.sony")
        /// StillImageStoreDestination before `--keep-on-card` changed it, to put back in `finish`.
        var destinationBefore: PTPValue?

        func setDestinationBefore(_ value: PTPValue?) { destinationBefore = value }

        func update(halfPress: Bool, logger: Logger) {
            self.halfPress = halfPress
            self.logger = logger
        }
    }

    /// `sony`.
    public var name: String { "sony" }
    /// Why the camera cannot be driven, when that is known from DeviceInfo alone (a body outside PC Remote mode).
    public let unavailableReason: String?
    /// Pause between polls of ObjectInMemory.
    public var pollInterval: Duration
    let capabilities = Capabilities()
    /// Store each shot on the card too (`--keep-on-card`: StillImageStoreDestination card+SDRAM).
    public private(set) var keepsFilesOnCard = false

    /// Creates the driver.
    public init(pollInterval: Duration = .milliseconds(50)) {
        self.init(unavailableReason: nil, pollInterval: pollInterval)
    }

    private init(unavailableReason: String?, pollInterval: Duration) {
        self.unavailableReason = unavailableReason
        self.pollInterval = pollInterval
    }

    /// A driver for a Sony camera that cannot be triggered in its current mode: ``prepare(session:logger:)``
    /// fails with `reason`.
    public static func unavailable(_ reason: String) -> SonyCaptureDriver {
        SonyCaptureDriver(unavailableReason: reason, pollInterval: .milliseconds(50))
    }

    /// The one-line advice for a Sony body that does not take remote commands.
    public static let pcRemoteAdvice = "set MENU → Setup → USB Connection to \"PC Remote\" and reconnect"

    /// Runs the SDIO handshake and checks the controls (see the type's description).
    public func prepare(session: PTPSession, logger: Logger) async throws {
        if let unavailableReason {
            throw CaptureError(.remoteControlUnavailable, "\(unavailableReason); \(Self.pcRemoteAdvice)")
        }
        let info: SonyExtDeviceInfo
        do {
            info = try await session.sonyConnect(version: .v300)
        } catch let error as PTPError where error.code == .deviceResponse {
            logger.debug("Sony handshake with version 300 refused (\(error)); trying 200")
            info = try await session.sonyConnect(version: .v200)
        }
        let controls = info.controls ?? []
        guard controls.contains(SonyControl.fullPress) else {
            throw CaptureError(
                .remoteControlUnavailable,
                "the Sony camera lists no shutter control (S2, 0xD2C2) in its extended device info: it is not in PC Remote mode; \(Self.pcRemoteAdvice)"
            )
        }
        do {
            try await session.sonySetPriorityToHost()
        } catch let error as PTPError where error.code == .deviceResponse {
            logger.warning(
                "the Sony camera refused PriorityMode (0xD25A) = application (\(error)); its dials may keep control of settings"
            )
        }
        if keepsFilesOnCard { try await storeOnCardAndHost(session: session) }
        let halfPress = controls.contains(SonyControl.halfPress)
        if !halfPress {
            logger.warning("the Sony camera has no half-press control (S1, 0xD2C1): shooting without autofocus")
        }
        await capabilities.update(halfPress: halfPress, logger: logger)
    }

    /// Takes one shot (see the type's description).
    public func capture(
        session: PTPSession, expecting: Int?, timing: CaptureTiming,
        announce: @Sendable (AnnouncedObject) async -> Void
    ) async throws -> [AnnouncedObject] {
        try await shoot(session: session, expecting: expecting, timing: timing, bulb: nil, announce: announce)
    }

    /// `--keep-on-card`: StillImageStoreDestination (0xD222) = card+SDRAM (0x0011, libgphoto2 `config.c`
    /// `sony_capturetarget`) in ``prepare(session:logger:)``, put back in ``finish(session:logger:)``; a body that
    /// does not offer the value is refused there, before anything is fired.
    public func keepingFilesOnCard(session: PTPSession) async throws -> any CaptureDriver {
        var driver = SonyCaptureDriver(unavailableReason: unavailableReason, pollInterval: pollInterval)
        driver.keepsFilesOnCard = true
        return driver
    }

    /// Puts StillImageStoreDestination back where `--keep-on-card` found it.
    public func finish(session: PTPSession, logger: Logger) async {
        guard let before = await capabilities.destinationBefore else { return }
        do {
            try await session.sonySetControlDeviceA(SonyControl.storeDestinationProperty, before)
            await capabilities.setDestinationBefore(nil)
        } catch {
            logger.warning("Sony: could not put StillImageStoreDestination back to \(before) (\(error))")
        }
    }

    /// Sets StillImageStoreDestination to card+SDRAM, or refuses when the body does not offer it.
    private func storeOnCardAndHost(session: PTPSession) async throws {
        let properties = try await session.sonyGetAllDevicePropData()
        let wanted = PTPValue.uint16(SonyControl.storeOnCardAndHost)
        guard let description = properties[SonyControl.storeDestinationProperty],
            case .enumeration(let values) = description.form, values.contains(wanted)
        else {
            throw CaptureError(
                .cardCopyUnavailable,
                "--keep-on-card: the camera does not offer StillImageStoreDestination (0xD222) card+SDRAM (0x11); set "
                    + "\"Still Img. Save Dest.\" to \"PC+Camera\" on the camera instead")
        }
        if description.currentValue != wanted {
            try await session.sonySetControlDeviceA(SonyControl.storeDestinationProperty, wanted)
            await capabilities.setDestinationBefore(description.currentValue)
        }
    }

    /// A Sony in PC Remote holds its shutter with S2 (``prepare(session:logger:)`` has checked the control).
    public func bulbUnavailableReason(deviceInfo: DeviceInfo) -> String? { nil }

    /// ExposureTime at bulb where a body offers it on the standard property and not ShutterSpeed; a Sony keeps its
    /// shutter speed in ShutterSpeed 0xD20D (bulb 0, libgphoto2 `config.c` `_get_Sony_ShutterSpeed`), which
    /// ``shutterSpeedControl`` sets.
    public var bulbShutterSetting: BulbShutterSetting { .exposureTime(.uint32(0xFFFF_FFFF), required: false) }

    /// ShutterSpeed (0xD20D) through GetAllDevicePropData and SetControlDeviceA (``SonyShutterControl``).
    public var shutterSpeedControl: (any ShutterSpeedControl)? { SonyShutterControl() }

    /// Sony bulb: the shot's presses as for any shot (S1 down, S2 down, S2 up, S1 up: `camera_sony_capture`), with
    /// S2 held down for the requested time instead of the focus wait; libgphoto2 `config.c` `_put_Sony_Bulb`
    /// likewise ends the exposure by letting go of S2 and then S1. The shot then comes through ObjectInMemory and
    /// 0xFFFFC001 as any other.
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
        // Sony's ObjectAdded events only echo what ObjectInMemory says; drop those of earlier shots.
        while try await session.nextEvent(timeout: .milliseconds(1)) != nil {}
        try await dropStaleObjects(session: session)
        let maxPolls = max(1, Int(timing.shotTimeout / pollInterval))
        var sequence = SonyCaptureSequence(
            configuration: .init(
                pollInterval: pollInterval, maxPolls: maxPolls, autofocus: await capabilities.halfPress))
        var objects: [AnnouncedObject] = []
        var step = sequence.firstStep
        while true {
            switch step {
            case .press(let control, let value):
                let opens = control == SonyControl.fullPress && value == SonyControl.pressed
                if opens, let bulb {
                    bulb.opening()
                    try await press(control, value, session: session, timing: timing)
                    await bulb.hold()
                    step = sequence.next(after: .done)
                    continue
                }
                try await press(control, value, session: session, timing: timing)
                if control == SonyControl.fullPress, value == SonyControl.pressed, sequence.configuration.autofocus {
                    try await holdForFocus(session: session)
                }
                step = sequence.next(after: .done)
            case .pollPendingObjects(let delay):
                if delay > .zero { try await Task.sleep(for: delay) }
                step = sequence.next(after: .pendingObjects(try await session.sonyPendingObjectCount()))
            case .download(let handle):
                let object = try await download(handle, session: session, late: false)
                objects.append(object)
                await announce(object)
                step = sequence.next(after: .done)
            case .finished:
                // The JPEG of RAW+JPEG may join the buffer a little after the raw file.
                let clock = ContinuousClock()
                let deadline = clock.now + timing.lateGrace
                while let expecting, objects.count < expecting, clock.now < deadline {
                    guard try await session.sonyPendingObjectCount() > 0 else {
                        try await Task.sleep(for: pollInterval)
                        continue
                    }
                    let object = try await download(SonyControl.capturedObjectHandle, session: session, late: true)
                    objects.append(object)
                    await announce(object)
                }
                return objects
            case .failed(let reason):
                throw CaptureError(.captureTimeout, "the Sony camera stored nothing: \(reason)")
            }
        }
    }

    /// Most stale objects read and dropped before a shot: a buffer that never empties is not drained forever.
    static let maxStaleObjects = 32

    /// Reads and drops what waits at 0xFFFFC001 before the press: a shot a failed earlier run left in the buffer
    /// would otherwise be taken for this one ("Camera on-off does not delete RAM", libgphoto2 `camera_sony_capture`).
    private func dropStaleObjects(session: PTPSession) async throws {
        for _ in 0..<Self.maxStaleObjects {
            let waiting = try await session.sonyPendingObjectCount()
            guard waiting > 0 else { return }
            let stale = try await download(SonyControl.capturedObjectHandle, session: session, late: false)
            await capabilities.logger.warning(
                "dropped \(stale.info.filename.isEmpty ? "an object" : "\"\(stale.info.filename)\"") an earlier shot left in the Sony camera's buffer"
            )
        }
    }

    /// Holds S1 and S2 down until the body reports focus (FocusFound 0xD213 is 2 or 3) or for at most
    /// ``SonyControl/focusHold``, unless FocusMode (0x500A) is manual (libgphoto2 `camera_sony_capture`).
    private func holdForFocus(session: PTPSession) async throws {
        let clock = ContinuousClock()
        let started = clock.now
        while clock.now - started < SonyControl.focusHold {
            let properties = try await session.sonyGetAllDevicePropData()
            if properties[.focusMode]?.currentValue.integerValue == Int(SonyControl.manualFocus) { return }
            if case .uint8(let found)? = properties[DevicePropertyCode.Sony.focusFound]?.currentValue,
                SonyControl.focusFoundValues.contains(found)
            {
                return
            }
            // A body without FocusFound cannot say: the hold lasts its full second, as in libgphoto2.
            try await Task.sleep(for: pollInterval)
        }
    }

    /// One SetControlDeviceB, repeated while the camera answers DeviceBusy (the previous shot still develops).
    private func press(
        _ control: DevicePropertyCode, _ value: UInt16, session: PTPSession, timing: CaptureTiming
    ) async throws {
        var delay = timing.busyDelay
        var attempt = 1
        while true {
            do {
                try await session.sonyPress(SonyControl.Press(control: control, value: value))
                return
            } catch let error as PTPError where error.response == .deviceBusy {
                guard attempt < timing.busyAttempts else {
                    throw CaptureError(
                        .cameraBusy, "the camera answered DeviceBusy to \(attempt) shutter presses in a row")
                }
                attempt += 1
                try await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(1))
            } catch let error as PTPError where error.response == .storeFull {
                throw CaptureError(.cardFull, "the camera's buffer is full (StoreFull)")
            }
        }
    }

    /// GetObjectInfo and GetObject of the oldest waiting object; the camera then lets go of it.
    func download(_ handle: ObjectHandle, session: PTPSession, late: Bool) async throws -> AnnouncedObject {
        let info = try await session.getObjectInfo(handle)
        let announced = AnnouncedObject(handle: handle, info: info, late: late)
        // GetPartialObject is not offered at 0xFFFFC001: one GetObject, bounded by the announced size.
        let bytes = try await ObjectDownloader(operations: []).download(announced, session: session) { _ in }
        return AnnouncedObject(handle: handle, info: info, late: late, data: bytes)
    }
}
