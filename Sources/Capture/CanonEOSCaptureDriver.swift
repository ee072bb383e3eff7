import Logging
import PTP

/// Canon EOS remote capture: RemoteReleaseOn/Off (0x9128/0x9129, a full press without autofocus) or RemoteRelease
/// (0x910F) on older bodies, then EOS GetEvent (0x9116) polling until the shot's records arrive:
/// RequestObjectTransfer (0xC186/0xC1A9) for a shot held for the host, ObjectAddedEx (0xC181/0xC1A7) for one
/// written to the card. After the run has downloaded a held shot, TransferComplete (0x9117) frees the body's buffer
/// (libgphoto2 `library.c` `camera_canon_eos_capture`). The session is prepared once per run by
/// ``CanonEOSHostState``.
///
/// Differences from libgphoto2 (813de344) kept on purpose or not yet ported, one per line:
/// - release: one full press RemoteReleaseOn(3, AF 0 / no AF 1) + RemoteReleaseOff(3), not half press, focus wait,
///   full press (`camera_trigger_canon_eos_capture`); no FocusInfo AF-failure detection; EOS M bodies release the
///   same way, without libgphoto2's wait for the "Button" event.
/// - RemoteRelease (0x910F): result 1 and 8 end the shot as `captureTimeout`, 3 as `cameraBusy`, 7 as `cardFull`,
///   with the cause (`camera_trigger_canon_eos_capture` returns GP_ERROR / GP_ERROR_NO_MEMORY).
/// - no CameraStatus (0xC18B) check before the release; DeviceBusy is retried instead (`camera_trigger_canon_eos_capture`).
/// - PCHDDCapacity only once in preparation, not again before a shot when AvailableShots < 100
///   (`camera_trigger_canon_eos_capture`).
/// - waits for every expected object (RAW+JPEG) instead of returning at the first (`camera_canon_eos_capture`).
/// - RequestObjectTransfer64LFN (0xC1B8) is not decoded (`camera_canon_eos_capture`).
/// - downloads by the runner: GetPartialObject in 1 MiB pieces on USB as libgphoto2, 8 MiB over PTP/IP
///   (`camera_canon_eos_capture` reads 1 MB blocks everywhere).
/// - KeepDeviceOn (0x911D) at most every ``keepDeviceOnInterval`` (10 s) during its waits, as
///   `camera_keep_device_on` does, and as the run's keep-alive between frames (``keepAlive(session:)``).
public struct CanonEOSCaptureDriver: CaptureDriver {
    /// `canon-eos`.
    public var name: String { "canon-eos" }
    let state: CanonEOSHostState
    /// Whether the release focuses first.
    public var autofocus = false
    /// Pause between GetEvent polls: libgphoto2 backs off from 20 ms; 50 ms keeps a body serving its shot.
    public var pollInterval = Duration.milliseconds(50)
    /// Empty polls after the last new object before the shot counts as complete when the object count is unknown.
    public var settlePolls = 3
    /// How often KeepDeviceOn (0x911D) goes out while the driver waits on the body (a shot's records, a body shot):
    /// libgphoto2 `config.c` `camera_keep_device_on` pings "about every 10s".
    public var keepDeviceOnInterval = Duration.seconds(10)

    /// The run's keep-alive between frames and while a tether waits: EOS KeepDeviceOn (0x911D), the request
    /// libgphoto2 sends to stop an EOS body from switching itself off (`camera_keep_device_on`); GetDeviceInfo on a
    /// body that does not list it.
    public func keepAlive(session: PTPSession) async throws {
        if try await state.keepDeviceOnIfDue(session: session, interval: .zero) { return }
        _ = try await session.getDeviceInfo()
    }

    /// Ends the remote session (``CanonEOSHostState/finish(session:)``).
    public func finish(session: PTPSession, logger: Logger) async {
        await state.finish(session: session)
    }

    /// Takes one shot (see the type's description).
    public func capture(
        session: PTPSession, expecting: Int?, timing: CaptureTiming,
        announce: @Sendable (AnnouncedObject) async -> Void
    ) async throws -> [AnnouncedObject] {
        try await shoot(session: session, expecting: expecting, timing: timing, bulb: nil, announce: announce)
    }

    /// `--keep-on-card`: CaptureDestination = memory card (2; libgphoto2 `config.c` "capturetarget" Memory card, and
    /// `camera_canon_eos_update_capture_target` takes the first value other than 4 the body offers) instead of the
    /// host (4). The shot is announced with ObjectAddedEx, downloaded from the card, and stays there (rawcap deletes
    /// nothing). libgphoto2 knows no value that stores on the card and holds a copy for the host at once.
    public func keepingFilesOnCard(session: PTPSession) async throws -> any CaptureDriver {
        await state.keepFilesOnCard()
        return self
    }

    /// EOS bulb is a held full press: RemoteReleaseOn and RemoteReleaseOff must both be listed.
    public func bulbUnavailableReason(deviceInfo: DeviceInfo) -> String? {
        deviceInfo.supports(OperationCode.Canon.remoteReleaseOn) && deviceInfo.supports(OperationCode.Canon.remoteReleaseOff)
            ? nil : "it lists no RemoteReleaseOn/RemoteReleaseOff (0x9128/0x9129) to hold the shutter in bulb"
    }

    /// ExposureTime at bulb where a body offers it on the standard property and not Tv; an EOS body keeps its
    /// shutter speed in Tv (0xD102, bulb 0x0C in libgphoto2 `config.c` `canon_shutterspeed`), which
    /// ``shutterSpeedControl`` sets.
    public var bulbShutterSetting: BulbShutterSetting { .exposureTime(.uint32(0xFFFF_FFFF), required: false) }

    /// Tv (0xD102) through the GetEvent records and SetDevicePropValueEx (``CanonEOSShutterControl``).
    public var shutterSpeedControl: (any ShutterSpeedControl)? { CanonEOSShutterControl(state: state) }

    /// EOS bulb as libgphoto2's "eosremoterelease" widget drives it (`config.c` `_put_Canon_EOS_RemoteRelease`:
    /// "Press Full" is RemoteReleaseOn with the full press, "Release Full" RemoteReleaseOff with it, the shutter
    /// open in between when Tv is bulb; `_put_Canon_EOS_Bulb` asks for the mode dial on M and Tv on bulb): the press
    /// is held for the requested time, then released, and the shot comes through GetEvent as any other.
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
        try await state.prepare(session: session)
        guard let info = await state.deviceInfo else {
            throw CaptureError(.formatUnavailable, "the Canon EOS session is not prepared")
        }
        // Records from before this shot (a previous shot's, seen while reading settings) are not this shot's.
        _ = await state.takePending()
        let stale = try await session.canonGetEvents().events
        await state.absorb(stale)
        _ = await state.takePending()
        if let bulb {
            bulb.opening()
            do {
                try await session.execute(
                    OperationCode.Canon.remoteReleaseOn,
                    parameters: CanonEOSCapture.releaseParameters(autofocus: autofocus))
            } catch let error as PTPError where error.response == .deviceBusy {
                throw CaptureError(.cameraBusy, "the camera answered DeviceBusy to the bulb press")
            }
            await bulb.hold()
            try await session.execute(OperationCode.Canon.remoteReleaseOff, parameters: [CanonEOSCapture.fullPress])
        } else {
            try await release(session: session, info: info, timing: timing)
        }

        let clock = ContinuousClock()
        let started = clock.now
        var objects: [AnnouncedObject] = []
        var quiet = 0
        while true {
            if let expecting, objects.count >= expecting { break }
            if expecting == nil, !objects.isEmpty, quiet >= settlePolls { break }
            if clock.now - started >= timing.shotTimeout { break }
            try await Task.sleep(for: pollInterval)
            // libgphoto2 keeps the body awake while it waits for a shot the same way (`camera_canon_eos_capture`).
            try await state.keepDeviceOnIfDue(session: session, interval: keepDeviceOnInterval)
            let events = try await session.canonGetEvents().events
            await state.absorb(events)
            var added = false
            for event in await state.takePending() {
                guard let object = announced(event), !objects.contains(where: { $0.handle == object.handle }) else {
                    continue
                }
                objects.append(object)
                added = true
                await announce(object)
            }
            quiet = added ? 0 : quiet + 1
        }
        if objects.isEmpty {
            throw CaptureError(
                .captureTimeout, "the camera reported no object within \(timing.shotTimeout) of the release")
        }
        return objects
    }

    /// TransferComplete for each object the body held for the host; objects on the card stay.
    public func downloaded(_ objects: [AnnouncedObject], session: PTPSession) async throws {
        for object in objects where object.info.storageID.rawValue == 0 {
            try await session.canonTransferComplete(object.handle)
        }
    }

    private func release(session: PTPSession, info: DeviceInfo, timing: CaptureTiming) async throws {
        var delay = timing.busyDelay
        var attempt = 1
        while true {
            do {
                for step in CanonEOSCapture.release(for: info, autofocus: autofocus) {
                    guard case .operation(let code, let parameters) = step else { continue }
                    let response = try await session.execute(code, parameters: parameters)
                    // RemoteRelease answers OK and says in its first parameter whether it released.
                    if code == OperationCode.Canon.remoteRelease,
                        let refusal = CanonEOSCapture.ReleaseRefusal(result: response.parameters.first)
                    {
                        throw Self.error(for: refusal)
                    }
                }
                return
            } catch let error as PTPError where error.response == .deviceBusy {
                guard attempt < timing.busyAttempts else {
                    throw CaptureError(.cameraBusy, "the camera answered DeviceBusy to \(attempt) releases in a row")
                }
                attempt += 1
                try await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(1))
            } catch let error as PTPError where error.response == .storeFull {
                throw CaptureError(.cardFull, "the camera's card is full (StoreFull)")
            }
        }
    }

    /// The error for a release RemoteRelease (0x910F) refused: a full card is ``CaptureError/Code-swift.struct/cardFull``,
    /// a locked mirror ``CaptureError/Code-swift.struct/cameraBusy``, a PTP response the ``PTPError`` it names, and
    /// the rest (no focus, a read-only card) a shot that stored nothing, with the cause.
    static func error(for refusal: CanonEOSCapture.ReleaseRefusal) -> any Error {
        switch refusal {
        case .noMemory: CaptureError(.cardFull, "the camera's card is full: \(refusal)")
        case .mirrorUp: CaptureError(.cameraBusy, "the camera did not release: \(refusal)")
        case .response(let code): PTPError(response: code, operation: OperationCode.Canon.remoteRelease)
        case .noFocus, .readOnly, .other: CaptureError(.captureTimeout, "the camera did not release: \(refusal)")
        }
    }

    /// The extension of a Canon object format, for a shot the camera names no file for.
    static func fileExtension(_ format: ObjectFormatCode) -> String {
        switch format.rawValue {
        case 0x3801: "JPG"
        case 0xB103: "CR2"
        case 0xB108: "CR3"
        default: "BIN"
        }
    }

    /// The object a shot record names: a held object (storage 0) or one on the card.
    func announced(_ event: CanonEOSEvent) -> AnnouncedObject? {
        switch event {
        case .requestObjectTransfer(let request):
            // RequestObjectTransfer64LFN names no file: as libgphoto2 (`camera_canon_eos_capture`, "captNNNN."),
            // the shot gets a name of its own, here from its handle and format.
            let filename =
                request.filename.isEmpty
                ? "CAPT\(String(request.handle.rawValue, radix: 16, uppercase: true)).\(Self.fileExtension(request.format))"
                : request.filename
            return AnnouncedObject(
                handle: request.handle,
                info: ObjectInfo(
                    objectFormat: request.format, objectCompressedSize: request.byteCount,
                    parentObject: request.parent ?? ObjectHandle(rawValue: 0), filename: filename))
        case .objectAdded(let added):
            guard added.format != .association else { return nil }
            return AnnouncedObject(
                handle: added.handle,
                info: ObjectInfo(
                    storageID: added.storageID, objectFormat: added.format, objectCompressedSize: added.byteCount,
                    parentObject: added.parent, filename: added.filename))
        default:
            return nil
        }
    }
}
