import Logging
import PTP

/// What rawcap knows about a Canon EOS body during a run: whether the remote session is prepared, the settings its
/// GetEvent records reported, and where shots go. Shared by ``CanonEOSCaptureDriver`` and
/// ``CanonEOSQualityControl``, made once per run by ``CameraProfile/canonEOS(logger:)``.
///
/// Differences from libgphoto2 (813de344) kept on purpose or not yet ported, one per line:
/// - SetRemoteMode follows `config.c` `camera_prepare_canon_eos_capture`'s model table (SX720 HS gets 0x15 there,
///   0x11 only in `camera_init`, which rawcap does not copy); DeviceInfo is read again after it on EOS M bodies.
/// - no SetEventMode(2) / EVFOutputDevice 8 for EOS M (`camera_prepare_canon_eos_capture`).
/// - no SetRequestOLCInfoGroup, RequestDevicePropValue, GetDeviceInfoEx (`camera_prepare_canon_eos_capture`).
/// - CaptureDestination set to the host even when already there, no wait for AvailableShots > 0 afterwards
///   (`camera_canon_eos_update_capture_target`).
/// - PCHDDCapacity DeviceBusy: asked again up to 8 times, then warned about (libgphoto2 takes one busy answer as OK,
///   `camera_canon_eos_update_capture_target`).
/// - end: CaptureDestination back to the value the body reported (libgphoto2 sets the card), SetRemoteMode(0)
///   without the SetRemoteMode(1) that follows it there, SetEventMode(0); no AfCancel, ResetUILock,
///   SetModeDialDisable(0) (`camera_unprepare_canon_eos_capture`, `camera_exit`).
/// - stores: `info` asks EOS GetStorageIDs/GetStorageInfo (0x9101/0x9102) before the standard pair (libgphoto2
///   asks 0x1004 in `camera_init` and the EOS pair in `camera_prepare_canon_eos_capture`).
/// - CloseSession is left out for `PTP_DONT_CLOSE_SESSION` bodies by USB ID as in `camera_exit`, and over PTP/IP by
///   DeviceInfo's model (``PTP/SessionEndPolicy``).
public actor CanonEOSHostState {
    /// Where the warnings go.
    public nonisolated let logger: Logger
    private var info: DeviceInfo?
    private var imageFormat: CanonEOSImageFormat?
    private var offeredFormats: [CanonEOSImageFormat] = []
    private(set) var destination: UInt32?
    /// CaptureDestination as the body reported it before ``prepare(session:)`` set the host.
    private var destinationBefore: UInt32?
    /// Records that arrived while reading settings, kept for the capture loop (an object a previous poll saw).
    private var pending: [CanonEOSEvent] = []
    /// Most GetEvent polls while draining the body's initial dump.
    static let maxDrainPolls = 64

    /// Whether shots go to the card (`--keep-on-card`) rather than the host.
    private var keepsFilesOnCard = false
    /// Tv (0xD102) as the body last reported it.
    private(set) var shutterSpeed: UInt32?
    /// The Tv values the body last offered (AvailListChanged), or `nil` before it listed any.
    private(set) var offeredShutterSpeeds: [UInt32]?
    /// When KeepDeviceOn (0x911D) last went out, or the remote session was prepared.
    private var lastKeepDeviceOn: ContinuousClock.Instant?

    init(logger: Logger) { self.logger = logger }

    /// Sends shots to the card (CaptureDestination 2) instead of the host; called before ``prepare(session:)``.
    func keepFilesOnCard() { keepsFilesOnCard = true }

    /// The body's DeviceInfo (once prepared).
    var deviceInfo: DeviceInfo? { info }

    /// Prepares the remote session once (libgphoto2 `config.c` `camera_prepare_canon_eos_capture`): SetRemoteMode
    /// (1, or the EOS M value of ``PTP/CanonEOSCapture/remoteMode(for:)``, after which DeviceInfo is read again),
    /// SetEventMode 1, GetEvent until the body's dump of settings is drained, CaptureDestination = host (4),
    /// PCHDDCapacity. Optional steps the body does not list are reported once as a warning; the shot then goes
    /// where the body stores it (its card, announced with ObjectAddedEx).
    func prepare(session: PTPSession) async throws {
        if info != nil { return }
        var info = try await session.deviceInfo()
        guard info.supports(OperationCode.Canon.getEvent),
            info.supports(OperationCode.Canon.remoteRelease) || info.supports(OperationCode.Canon.remoteReleaseOn)
        else {
            throw CaptureError(.formatUnavailable, "the camera lists neither EOS GetEvent nor an EOS release")
        }
        if info.supports(OperationCode.Canon.setRemoteMode) {
            if let mode = CanonEOSCapture.remoteMode(for: info) {
                try await session.canonSetRemoteMode(mode)
                if CanonEOSCapture.isEOSM(info) {
                    // "Setting remote mode changes device info on EOS M2" (libgphoto2 `camera_init`): read it again.
                    let before = await session.identity
                    await session.forgetIdentity()
                    info =
                        try await session.cameraIdentity(
                            usbVendorID: before?.usbVendorID, usbProductID: before?.usbProductID
                        ).deviceInfo
                }
            } else {
                logger.debug("Canon EOS: \(info.model) stays out of remote mode while capturing, as in libgphoto2")
            }
        } else {
            logger.warning("Canon EOS: the camera has no SetRemoteMode (0x9114); releasing without it")
        }
        if info.supports(OperationCode.Canon.setEventMode) {
            try await session.canonSetEventMode()
        } else {
            logger.warning("Canon EOS: the camera has no SetEventMode (0x9115); polling GetEvent without it")
        }
        for _ in 0..<Self.maxDrainPolls {
            let list = try await session.canonGetEvents()
            if list.events.isEmpty { break }
            absorb(list.events)
        }
        // Where the body stored shots before (its initial dump reports CaptureDestination), to put back at the end.
        destinationBefore = destination
        let wanted = keepsFilesOnCard ? CanonEOSCapture.destinationCard : CanonEOSCapture.destinationHost
        if info.supports(OperationCode.Canon.setDevicePropValueEx) {
            do {
                try await session.canonSetPropertyValue(
                    CanonEOSPropertyValue(property: CanonEOSCapture.captureDestinationProperty, uint32: wanted))
                destination = wanted
            } catch let error as PTPError where keepsFilesOnCard {
                throw CaptureError(
                    .cardCopyUnavailable, "--keep-on-card: the camera refused CaptureDestination = card (\(error))")
            } catch let error as PTPError {
                logger.warning(
                    "Canon EOS: the camera refused CaptureDestination = host (\(error)); shots go to its card")
            }
        } else if keepsFilesOnCard {
            throw CaptureError(
                .cardCopyUnavailable,
                "--keep-on-card: the camera has no SetDevicePropValueEx (0x9110) to set CaptureDestination")
        } else {
            logger.warning(
                "Canon EOS: the camera has no SetDevicePropValueEx (0x9110); capture destination and image quality stay as set on the camera"
            )
        }
        if destination == CanonEOSCapture.destinationHost {
            if info.supports(OperationCode.Canon.pcHDDCapacity) {
                try await reportHostCapacity(session: session)
            } else {
                logger.warning("Canon EOS: the camera has no PCHDDCapacity (0x911A); it may refuse to release")
            }
        }
        if imageFormat == nil {
            logger.warning(
                "Canon EOS: the camera reported no ImageFormat (0xD120); image quality stays as set on the camera")
        }
        self.info = info
        // The keep-alive's clock starts with the remote session (`camera_prepare_canon_eos_capture`: "Initialize
        // time for camera_keep_device_on polling").
        lastKeepDeviceOn = ContinuousClock.now
    }

    /// Attempts at PCHDDCapacity while the body answers DeviceBusy.
    static let hostCapacityAttempts = 8

    /// PCHDDCapacity, sent again while the body answers DeviceBusy (it is still switching to the host); a body busy
    /// through every attempt is warned about and the run goes on, as libgphoto2 does ("not so bad if its just busy,
    /// would also fail later", `config.c` `camera_canon_eos_update_capture_target`): the release then says whether
    /// the body can shoot.
    private func reportHostCapacity(session: PTPSession) async throws {
        var delay = Duration.milliseconds(100)
        for attempt in 1...Self.hostCapacityAttempts {
            do {
                try await session.canonReportHostCapacity()
                return
            } catch let error as PTPError where error.response == .deviceBusy {
                guard attempt < Self.hostCapacityAttempts else {
                    logger.warning(
                        "Canon EOS: the camera stayed busy through \(attempt) PCHDDCapacity (0x911A) requests; going on")
                    return
                }
                try await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(1))
            }
        }
    }

    /// The offered ImageFormat values and the current one, as the body last reported them.
    func imageFormats() -> ([CanonEOSImageFormat], CanonEOSImageFormat?) { (offeredFormats, imageFormat) }

    /// Records a value rawcap set.
    func setImageFormat(_ format: CanonEOSImageFormat) { imageFormat = format }

    /// Records a Tv rawcap set.
    func setShutterSpeed(_ code: UInt32) { shutterSpeed = code }

    /// Takes in a GetEvent reply: settings update the cache; shots are kept for ``takePending()``.
    func absorb(_ events: [CanonEOSEvent]) {
        for event in events {
            switch event {
            case .propertyChanged(let change):
                if change.property == CanonEOSImageFormat.property,
                    let format = try? CanonEOSImageFormat(ptpEncoded: change.value)
                {
                    imageFormat = format
                } else if change.property == CanonEOSCapture.captureDestinationProperty, let value = change.uint32Value
                {
                    destination = value
                } else if change.property == CanonEOSShutterSpeed.property, !change.value.isEmpty {
                    // A 4-byte slot (or the value's own 2 bytes), little-endian.
                    shutterSpeed = change.value.prefix(4).reversed().reduce(0) { $0 << 8 | UInt32($1) }
                }
            case .availableListChanged(let list)
            where list.propertyCode == UInt32(CanonEOSImageFormat.property.rawValue):
                offeredFormats = (try? CanonEOSImageFormat.list(list)) ?? offeredFormats
            case .availableListChanged(let list)
            where list.propertyCode == UInt32(CanonEOSShutterSpeed.property.rawValue):
                offeredShutterSpeeds = list.uint32Values ?? offeredShutterSpeeds
            case .objectAdded, .requestObjectTransfer:
                pending.append(event)
            default:
                continue
            }
        }
    }

    /// Ends the remote session as libgphoto2's `camera_unprepare_canon_eos_capture` does: CaptureDestination back to
    /// what the body reported before, the remaining event records drained, SetRemoteMode 0 and SetEventMode 0, so
    /// the body's own controls and card work as before. Failures are warnings: the run's outcome stands.
    func finish(session: PTPSession) async {
        guard let info else { return }
        self.info = nil
        do {
            if let before = destinationBefore, before != destination,
                info.supports(OperationCode.Canon.setDevicePropValueEx)
            {
                try await session.canonSetPropertyValue(
                    CanonEOSPropertyValue(property: CanonEOSCapture.captureDestinationProperty, uint32: before))
                destination = before
            }
            absorb(try await session.canonGetEvents().events)
            if info.supports(OperationCode.Canon.setRemoteMode) { try await session.canonSetRemoteMode(0) }
            if info.supports(OperationCode.Canon.setEventMode) { try await session.canonSetEventMode(0) }
        } catch {
            logger.warning("Canon EOS: could not end the remote session cleanly (\(error))")
        }
    }

    /// Sends EOS KeepDeviceOn (0x911D, no parameter) when `interval` has passed since the last one (or since the
    /// remote session was prepared), as libgphoto2's `camera_keep_device_on` (`config.c`) does from every pass of its
    /// EOS waits (`camera_wait_for_event`, `camera_canon_eos_capture` in `library.c`): "ping the EOS about every
    /// 10s" so that a body left idle by the host does not switch itself off. Nothing for a body that does not list
    /// the operation. Returns whether it was sent.
    @discardableResult
    func keepDeviceOnIfDue(session: PTPSession, interval: Duration) async throws -> Bool {
        let now = ContinuousClock.now
        guard let info, info.supports(OperationCode.Canon.keepDeviceOn) else { return false }
        if let last = lastKeepDeviceOn, now - last < interval { return false }
        try await session.execute(OperationCode.Canon.keepDeviceOn)
        lastKeepDeviceOn = ContinuousClock.now
        return true
    }

    /// Shot records that arrived outside the capture loop, oldest first; the list empties.
    func takePending() -> [CanonEOSEvent] {
        defer { pending.removeAll() }
        return pending
    }
}
