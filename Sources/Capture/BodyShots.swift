import Logging
import PTP
import Synchronization

/// Shots taken on the camera body (its shutter button, a remote, its interval timer), as `rawcap tether` waits for
/// them: each family announces them its own way, and each driver reads them the way libgphoto2's
/// `camera_wait_for_event` (`camlibs/ptp2/library.c`, commit 813de344; what `gphoto2 --capture-tethered` and
/// `--wait-event-and-download` call) does for that family:
///
/// | family | announcement | read by |
/// |---|---|---|
/// | generic | ObjectAdded (0x4002) per object, CaptureComplete (0x400D), on the event channel (USB interrupt endpoint, PTP/IP event connection) | ``StandardCaptureDriver`` (the default below): `camera_wait_for_event`'s `handleregular` path |
/// | Nikon | GetEvent (0x90C7): ObjectAddedInSdram (0xC101, handle 0 meaning 0xFFFF0001), ObjectAdded for the card, CaptureCompleteRecInSdram (0xC102) | ``NikonCaptureDriver``: the `PTP_VENDOR_NIKON` branch, `PTP_EC_Nikon_ObjectAddedInSDRAM` and `downloadnow` |
/// | Canon EOS | EOS GetEvent (0x9116) records: RequestObjectTransfer (0xC186/0xC1A9/0xC1B8) for a shot held for the host, ObjectAddedEx (0xC181/0xC1A7) for the card | ``CanonEOSCaptureDriver``: the `PTP_VENDOR_CANON` EOS branch, `PTP_EOSEvent_ObjectTransfer` (then TransferComplete) and `PTP_EOSEvent_ObjectAdded` |
/// | Sony | ObjectInMemory (0xD215) above 0x8000 in GetAllDevicePropData (0x9209); the object at 0xFFFFC001 | ``SonyCaptureDriver``: the `PTP_VENDOR_SONY` SDIO branch ("if prop 0xd215 is above 0x8000, the object in RAM is available at location 0xffffc001") |
/// | Fujifilm | ObjectAdded (0x4002 or 0xC004), ObjectCount in the 0xD212 change list, a new handle on the card | ``FujifilmCaptureDriver``: the `PTP_VENDOR_FUJI` branch (PriorityMode 1, new handles in GetObjectHandles synthesised as ObjectAdded) |
///
/// Differences from libgphoto2 kept on purpose, one per line:
/// - polling families (Nikon, Canon, Sony, Fujifilm's change list) poll every ``bodyShotPollInterval`` (20 ms);
///   libgphoto2's `waiting_for_timeout` backs off by 50 ms per quiet round up to 200 ms, which delays a shot by up to
///   200 ms.
/// - a shot's objects are collected together (RAW+JPEG: as many as the image quality stores, or until the family's
///   end of shot) and saved as one shot; libgphoto2 returns one file per event.
/// - Sony and Fujifilm also wake on their event channel (Sony's 0xC201, ObjectAdded) between polls.
/// - Nikon bodies that name no objects (CaptureCompleteRecInSdram alone) are read at 0xFFFF0001 and each object
///   deleted there so the next moves up, as the capture driver does.
/// - standard: an object of a RAW+JPEG shot whose ObjectAdded never came is looked for on the card under the shot's
///   name once the others are in (libgphoto2 waits for the event only).
/// - Fujifilm reads GetObjectHandles only when the change list reports a change (or every poll when the body has no
///   change list); libgphoto2 reads it every round.
public let bodyShotPollInterval = Duration.milliseconds(20)

extension CaptureDriver {
    /// Nothing to ready: the camera announces body shots on its event channel.
    public func prepareBodyShots(session: PTPSession, logger: Logger) async throws {}

    /// The standard body shot (``StandardCaptureDriver/standardBodyShot(session:expecting:timing:wait:seen:carry:announce:)``),
    /// without keeping a next shot's event read early.
    public func bodyShot(
        session: PTPSession, expecting: Int?, timing: CaptureTiming, wait: Duration, seen: Set<ObjectHandle>,
        announce: @Sendable (AnnouncedObject) async -> Void
    ) async throws -> [AnnouncedObject] {
        try await StandardCaptureDriver.standardBodyShot(
            session: session, expecting: expecting, timing: timing, wait: wait, seen: seen, carry: BodyShotCarry(),
            announce: announce)
    }

    /// The driver's own capture.
    public func captureBetweenBodyShots(
        session: PTPSession, expecting: Int?, timing: CaptureTiming,
        announce: @Sendable (AnnouncedObject) async -> Void
    ) async throws -> [AnnouncedObject] {
        try await capture(session: session, expecting: expecting, timing: timing, announce: announce)
    }
}

/// What a body-shot wait read that belongs to the next shot (two shots' announcements in one GetEvent reply, say),
/// kept for the next wait.
public final class BodyShotCarry<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])
    private let named = Mutex(false)

    /// Whether the camera has named an object in an event this run (a Nikon's ObjectAddedInSdram): an end of shot
    /// without objects is then the tail of a shot already read, not a shot to read at 0xFFFF0001.
    var namesObjects: Bool {
        get { named.withLock { $0 } }
        set { named.withLock { $0 = newValue } }
    }

    /// Creates an empty carry.
    public init() {}

    /// Keeps `elements` for the next wait, after those kept before.
    func put(_ elements: [Element]) { items.withLock { $0 += elements } }

    /// Takes what was kept.
    func take() -> [Element] { items.withLock { items in defer { items.removeAll() }; return items } }
}

extension StandardCaptureDriver {
    /// The standard body shot, keeping an event of the next shot read early for the next wait.
    public func bodyShot(
        session: PTPSession, expecting: Int?, timing: CaptureTiming, wait: Duration, seen: Set<ObjectHandle>,
        announce: @Sendable (AnnouncedObject) async -> Void
    ) async throws -> [AnnouncedObject] {
        try await Self.standardBodyShot(
            session: session, expecting: expecting, timing: timing, wait: wait, seen: seen, carry: carriedEvents,
            announce: announce)
    }

    /// The standard body shot: ObjectAdded per object and CaptureComplete on the event channel (libgphoto2
    /// `camera_wait_for_event`, `handleregular`: `PTP_EC_ObjectAdded` adds the object, associations are folders).
    static func standardBodyShot(
        session: PTPSession, expecting: Int?, timing: CaptureTiming, wait: Duration, seen: Set<ObjectHandle>,
        carry carriedStandardEvents: BodyShotCarry<PTPEvent>, announce: @Sendable (AnnouncedObject) async -> Void
    ) async throws -> [AnnouncedObject] {
        var shot = BodyShotCollector(expecting: expecting, timing: timing, wait: wait, completionGrace: .milliseconds(300))
        var carried = carriedStandardEvents.take()
        waiting: while !shot.isOver {
            let event: PTPEvent
            if !carried.isEmpty {
                event = carried.removeFirst()
            } else {
                guard let received = try await session.nextEvent(timeout: shot.nextWait(max: .milliseconds(100))) else {
                    continue
                }
                event = received
            }
            switch event.code {
            case .objectAdded:
                guard let raw = event.parameters.first else { continue }
                let handle = ObjectHandle(rawValue: raw)
                guard !seen.contains(handle), !shot.has(handle) else { continue }
                let info = try await session.getObjectInfo(handle)
                guard info.objectFormat != .association else { continue }
                guard shot.accepts(info.filename) else {
                    // The next shot's first object: kept for the next wait.
                    carried.insert(event, at: 0)
                    break waiting
                }
                await shot.add(AnnouncedObject(handle: handle, info: info), announce: announce)
            case .captureComplete:
                shot.complete()
            case .storeFull:
                throw CaptureError(.cardFull, "the camera's card is full")
            default:
                continue
            }
        }
        carriedStandardEvents.put(carried)
        if let expecting, !shot.objects.isEmpty, shot.objects.count < expecting {
            // An ObjectAdded lost: the shot's other objects are new on the card under its name (as the capture
            // driver makes good a lost event by comparing the card's lists).
            for handle in try await session.getObjectHandles().sorted(by: { $0.rawValue < $1.rawValue })
            where !seen.contains(handle) && !shot.has(handle) && !shot.isFull {
                let info = try await session.getObjectInfo(handle)
                guard info.objectFormat != .association, shot.accepts(info.filename) else { continue }
                await shot.add(AnnouncedObject(handle: handle, info: info, late: true), announce: announce)
            }
        }
        return shot.objects
    }
}

/// One body shot being collected: its objects, and when it is over (every expected object, the family's end of
/// shot, or a grace period without the rest).
struct BodyShotCollector {
    let expecting: Int?
    let timing: CaptureTiming
    let wait: Duration
    /// With an unknown object count, how long after the end-of-shot event more objects may still come (generic
    /// cameras may send CaptureComplete after the first object, libgphoto2's order); zero for families whose end of
    /// shot follows all its objects.
    let completionGrace: Duration
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private(set) var objects: [AnnouncedObject] = []
    private var firstAt: ContinuousClock.Instant?
    private var lastAt: ContinuousClock.Instant?
    private var completedAt: ContinuousClock.Instant?

    init(expecting: Int?, timing: CaptureTiming, wait: Duration, completionGrace: Duration) {
        self.expecting = expecting
        self.timing = timing
        self.wait = wait
        self.completionGrace = completionGrace
        started = clock.now
    }

    /// Whether `handle` is already one of this shot's.
    func has(_ handle: ObjectHandle) -> Bool { objects.contains { $0.handle == handle } }

    /// Whether the shot is complete by its count (every expected object is here).
    var isFull: Bool { expecting.map { objects.count >= $0 } ?? false }

    /// Whether an object named `filename` belongs to this shot: not once it is full, and (when `groupsByName`) only
    /// with the file name stem of its first object (`DSC_0001.NEF` and `DSC_0001.JPG`). An object refused here is the
    /// next shot's: the caller carries it over.
    func accepts(_ filename: String, groupsByName: Bool = true) -> Bool {
        if isFull { return false }
        guard groupsByName, let first = objects.first else { return true }
        let stem = Self.stem(filename)
        let firstStem = Self.stem(first.info.filename)
        return stem.isEmpty || firstStem.isEmpty || stem == firstStem
    }

    /// `DSC_0001` of `DSC_0001.NEF`.
    static func stem(_ filename: String) -> Substring {
        filename.lastIndex(of: ".").map { filename[..<$0] } ?? filename[...]
    }

    /// Adds an object and announces it.
    mutating func add(_ object: AnnouncedObject, announce: @Sendable (AnnouncedObject) async -> Void) async {
        objects.append(object)
        firstAt = firstAt ?? clock.now
        lastAt = clock.now
        await announce(object)
    }

    /// The family's end-of-shot event (CaptureComplete, CaptureCompleteRecInSdram).
    mutating func complete() { completedAt = completedAt ?? clock.now }

    /// Whether waiting is over: nothing began within `wait`, or the shot has all it will get.
    var isOver: Bool {
        let now = clock.now
        guard let lastAt, let firstAt else {
            // An end of shot without objects (a body that names none) is the caller's to handle.
            return now - started >= wait || completedAt != nil
        }
        if let expecting, objects.count >= expecting { return true }
        if let completedAt {
            if expecting == nil, now - completedAt >= completionGrace { return true }
        }
        // Objects the image quality promised that never came, or a camera that never says the shot is over.
        if now - lastAt >= timing.lateGrace { return true }
        return now - firstAt >= timing.shotTimeout
    }

    /// Whether an end of shot arrived without objects.
    var completedEmpty: Bool { completedAt != nil && objects.isEmpty }

    /// How long the next wait for an event may last: short once a shot is under way, up to `max` before.
    func nextWait(max: Duration) -> Duration {
        guard objects.isEmpty else { return .milliseconds(20) }
        let left = wait - (clock.now - started)
        return Swift.max(.milliseconds(1), Swift.min(max, left))
    }
}

extension NikonCaptureDriver {
    /// PC camera mode and RecordingMedia = SDRAM, as for a host-triggered shot (``NikonDriverState``): body shots
    /// then land in SDRAM too, and reach the host without touching the card. Events queued before are dropped.
    public func prepareBodyShots(session: PTPSession, logger: Logger) async throws {
        let info = try await state.prepare(session: session, logger: logger)
        if info.supports(OperationCode.Nikon.getEvent) { _ = try await session.nikonGetEvents() }
    }

    /// Nikon GetEvent (0x90C7) every ``bodyShotPollInterval`` (the interrupt endpoint on bodies without it):
    /// ObjectAddedInSdram (0xC101; parameter 0 is 0xFFFF0001) and ObjectAdded name the objects,
    /// CaptureCompleteRecInSdram or CaptureComplete end the shot (libgphoto2 `camera_wait_for_event`, Nikon branch).
    /// A body that names no object has its shot read at 0xFFFF0001.
    public func bodyShot(
        session: PTPSession, expecting: Int?, timing: CaptureTiming, wait: Duration, seen: Set<ObjectHandle>,
        announce: @Sendable (AnnouncedObject) async -> Void
    ) async throws -> [AnnouncedObject] {
        let info = try await state.prepare(session: session, logger: logger)
        let usesGetEvent = info.supports(OperationCode.Nikon.getEvent)
        var shot = BodyShotCollector(expecting: expecting, timing: timing, wait: wait, completionGrace: .zero)
        // Events of the next shot that came in the same GetEvent reply as this one's end.
        var carried = carriedEvents.take()
        var polled = !carried.isEmpty
        while !shot.isOver {
            var events = carried
            carried = []
            if events.isEmpty {
                if polled { try await Task.sleep(for: bodyShotPollInterval) }
                polled = true
                events = try await poll(session: session, usesGetEvent: usesGetEvent)
            }
            for (position, event) in events.enumerated() {
                if shot.isOver {
                    // This shot's own end (CaptureCompleteRecInSdram after its last object) stays with it; what
                    // follows is the next shot's.
                    carriedEvents.put(
                        Array(events[position...].drop { Self.endsShot($0.code) && !shot.objects.isEmpty }))
                    break
                }
                switch event.code {
                case EventCode.Nikon.objectAddedInSdram, .objectAdded:
                    // libgphoto2: "if (!event.Param1 || (event.Param1 == 0xffff0001)) goto downloadnow".
                    let handle = ObjectHandle(
                        rawValue: event.parameter == 0 ? NikonCaptureSequence.sdramHandle.rawValue : event.parameter)
                    let inSDRAM = handle.rawValue >= NikonCaptureSequence.sdramHandle.rawValue
                    guard inSDRAM || !seen.contains(handle), !shot.has(handle) else { continue }
                    let objectInfo = try await session.getObjectInfo(handle)
                    guard objectInfo.objectFormat != .association else { continue }
                    guard shot.accepts(objectInfo.filename) else {
                        carriedEvents.put(Array(events[position...]))
                        return shot.objects
                    }
                    carriedEvents.namesObjects = true
                    await shot.add(AnnouncedObject(handle: handle, info: objectInfo), announce: announce)
                case _ where Self.endsShot(event.code):
                    // A body that names its objects ends only shots it named; a lone end is a late tail.
                    if shot.objects.isEmpty, carriedEvents.namesObjects { continue }
                    shot.complete()
                case .storeFull:
                    throw CaptureError(.cardFull, "the camera's memory is full")
                default:
                    continue
                }
            }
            if shot.completedEmpty {
                return try await readUnnamedBodyShot(session: session, info: info, expecting: expecting, announce: announce)
            }
        }
        return shot.objects
    }

    /// CaptureCompleteRecInSdram (0xC102) or CaptureComplete (0x400D).
    static func endsShot(_ code: EventCode) -> Bool {
        code == EventCode.Nikon.captureCompleteRecInSdram || code == .captureComplete
    }

    /// A body shot no event named, read at 0xFFFF0001: each object downloaded and deleted there so that the next
    /// moves up (as ``capture(session:expecting:timing:announce:)`` does for the objects before the last), until
    /// `expecting` objects or the handle is empty.
    private func readUnnamedBodyShot(
        session: PTPSession, info: DeviceInfo, expecting: Int?, announce: @Sendable (AnnouncedObject) async -> Void
    ) async throws -> [AnnouncedObject] {
        let handle = NikonCaptureSequence.sdramHandle
        var objects: [AnnouncedObject] = []
        while objects.count < (expecting ?? Int.max) {
            let objectInfo: ObjectInfo
            do {
                objectInfo = try await session.getObjectInfo(handle)
            } catch let error as PTPError where error.response == .invalidObjectHandle {
                break
            }
            let bytes = try await ObjectDownloader(operations: info.operationsSupported).download(
                AnnouncedObject(handle: handle, info: objectInfo), session: session
            ) { _ in }
            let object = AnnouncedObject(handle: handle, info: objectInfo, data: bytes)
            objects.append(object)
            await announce(object)
            try await session.deleteObject(handle)
        }
        return objects
    }
}

extension CanonEOSCaptureDriver {
    /// The remote session (``CanonEOSHostState``: remote and event mode, the host as capture destination), as for a
    /// host-triggered shot. Shot records that came meanwhile are kept: a shot held for the host waits in the body's
    /// buffer until it is transferred, and one on the card from before the run is among the run's `seen` handles.
    public func prepareBodyShots(session: PTPSession, logger: Logger) async throws {
        try await state.prepare(session: session)
    }

    /// EOS GetEvent (0x9116) every ``bodyShotPollInterval``: RequestObjectTransfer records name objects held for the
    /// host (downloaded, then TransferComplete through ``downloaded(_:session:)``), ObjectAddedEx records objects on
    /// the card (libgphoto2 `camera_wait_for_event`, EOS branch: `PTP_EOSEvent_ObjectTransfer`,
    /// `PTP_EOSEvent_ObjectAdded`). EOS sends no end of shot: a shot of unknown size is over after ``settlePolls``
    /// quiet polls.
    public func bodyShot(
        session: PTPSession, expecting: Int?, timing: CaptureTiming, wait: Duration, seen: Set<ObjectHandle>,
        announce: @Sendable (AnnouncedObject) async -> Void
    ) async throws -> [AnnouncedObject] {
        var shot = BodyShotCollector(expecting: expecting, timing: timing, wait: wait, completionGrace: .zero)
        var quiet = 0
        var polled = false
        while !shot.isOver {
            if expecting == nil, !shot.objects.isEmpty, quiet >= settlePolls { break }
            if polled { try await Task.sleep(for: bodyShotPollInterval) }
            polled = true
            // `camera_wait_for_event` pings the body on each pass of its EOS loop (`camera_keep_device_on`, at most
            // every 10 s), so a tether left waiting keeps the camera on.
            try await state.keepDeviceOnIfDue(session: session, interval: keepDeviceOnInterval)
            await state.absorb(try await session.canonGetEvents().events)
            var added = false
            let pending = await state.takePending()
            for (position, event) in pending.enumerated() {
                guard let object = announced(event), !shot.has(object.handle) else { continue }
                if object.info.storageID.rawValue != 0, seen.contains(object.handle) { continue }
                // A full shot leaves the next one's records for the next wait (names are not compared: a body
                // that names no file gets a name per handle).
                guard shot.accepts(object.info.filename, groupsByName: false) else {
                    await state.absorb(Array(pending[position...]))
                    return shot.objects
                }
                await shot.add(object, announce: announce)
                added = true
            }
            quiet = added ? 0 : quiet + 1
        }
        return shot.objects
    }
}

extension SonyCaptureDriver {
    /// GetAllDevicePropData (0x9209) every ``bodyShotPollInterval``, or at once when the event channel brings
    /// something (Sony's ObjectAdded 0xC201): while ObjectInMemory (0xD215) is above 0x8000 the oldest waiting object
    /// is read at 0xFFFFC001 (GetObjectInfo, GetObject; libgphoto2 `camera_wait_for_event`, Sony branch). The handle
    /// can be read only once, so the objects carry their bytes (``AnnouncedObject/data``).
    public func bodyShot(
        session: PTPSession, expecting: Int?, timing: CaptureTiming, wait: Duration, seen: Set<ObjectHandle>,
        announce: @Sendable (AnnouncedObject) async -> Void
    ) async throws -> [AnnouncedObject] {
        var shot = BodyShotCollector(expecting: expecting, timing: timing, wait: wait, completionGrace: .zero)
        var polled = false
        while !shot.isOver {
            if polled {
                // The event channel wakes the poll early; the events themselves only echo ObjectInMemory.
                if try await session.nextEvent(timeout: bodyShotPollInterval) != nil {
                    while try await session.nextEvent(timeout: .milliseconds(1)) != nil {}
                }
            }
            polled = true
            let waiting = try await session.sonyPendingObjectCount()
            if waiting > 0 {
                let object = try await download(SonyControl.capturedObjectHandle, session: session, late: false)
                await shot.add(object, announce: announce)
                polled = false
            } else if !shot.objects.isEmpty, expecting == nil {
                // Nothing more waits: the shot is what was read (libgphoto2 ends it at 0x8001, the last object).
                break
            }
        }
        return shot.objects
    }
}

extension FujifilmCaptureDriver {
    /// PriorityMode (0xD207) = 1, the camera: libgphoto2 `camera_wait_for_event` sets it before waiting ("reenable
    /// event wait mode"). A refusal is a warning.
    public func prepareBodyShots(session: PTPSession, logger: Logger) async throws {
        try await setPriority(FujifilmCapture.priorityCamera, session: session, logger: logger)
        if await capabilities.changeList { _ = try? await changes(session) }
    }

    /// ObjectAdded (0x4002, or Fujifilm's 0xC004) on the event channel, and the 0xD212 change list every
    /// ``bodyShotPollInterval``: a change sends the driver to GetObjectHandles for handles not seen before (what
    /// libgphoto2 `camera_wait_for_event`'s Fujifilm branch does every round: "the camera (currently) does not send us
    /// ObjectAdded events for some reason... we just synthesize them").
    public func bodyShot(
        session: PTPSession, expecting: Int?, timing: CaptureTiming, wait: Duration, seen: Set<ObjectHandle>,
        announce: @Sendable (AnnouncedObject) async -> Void
    ) async throws -> [AnnouncedObject] {
        var shot = BodyShotCollector(expecting: expecting, timing: timing, wait: wait, completionGrace: .zero)
        // New handles of the next shot (a listing finds every new object at once), kept for the next wait.
        var later: [ObjectHandle] = []
        func add(_ handle: ObjectHandle) async throws {
            guard !seen.contains(handle), !shot.has(handle), !later.contains(handle) else { return }
            if shot.isFull {
                later.append(handle)
                return
            }
            let info: ObjectInfo
            do {
                info = try await session.getObjectInfo(handle)
            } catch let error as PTPError where error.response == .deviceBusy {
                // libgphoto2: "might be a just deleted entry" (gphoto2 issue 456): looked at again next round.
                return
            }
            guard info.objectFormat != .association else { return }
            guard shot.accepts(info.filename) else {
                later.append(handle)
                return
            }
            await shot.add(AnnouncedObject(handle: handle, info: info), announce: announce)
        }
        for handle in carriedHandles.take().sorted(by: { $0.rawValue < $1.rawValue }) { try await add(handle) }
        let changeList = await capabilities.changeList
        while !shot.isOver {
            if let event = try await session.nextEvent(timeout: bodyShotPollInterval) {
                switch event.code {
                case .objectAdded, EventCode.Fujifilm.objectAdded:
                    if let raw = event.parameters.first { try await add(ObjectHandle(rawValue: raw)) }
                case .captureComplete:
                    shot.complete()
                case .storeFull:
                    throw CaptureError(.cardFull, "the camera's card is full")
                default:
                    break
                }
                continue
            }
            // Bodies that send no ObjectAdded report the new object as a changed ObjectCount.
            let changed = changeList ? !((try await changes(session))?.changes.isEmpty ?? true) : true
            if changed {
                for handle in try await session.getObjectHandles().sorted(by: { $0.rawValue < $1.rawValue }) {
                    try await add(handle)
                }
            }
        }
        carriedHandles.put(later.filter { !shot.has($0) })
        if shot.completedEmpty { return [] }
        return shot.objects
    }

    /// PriorityMode 2 (USB) around the host-triggered shot, then 1 again for the body's shots.
    public func captureBetweenBodyShots(
        session: PTPSession, expecting: Int?, timing: CaptureTiming,
        announce: @Sendable (AnnouncedObject) async -> Void
    ) async throws -> [AnnouncedObject] {
        let logger = await capabilities.logger
        try await setPriority(FujifilmCapture.priorityHost, session: session, logger: logger)
        do {
            let objects = try await capture(session: session, expecting: expecting, timing: timing, announce: announce)
            try await setPriority(FujifilmCapture.priorityCamera, session: session, logger: logger)
            return objects
        } catch {
            try? await setPriority(FujifilmCapture.priorityCamera, session: session, logger: logger)
            throw error
        }
    }

    private func setPriority(_ value: UInt16, session: PTPSession, logger: Logger) async throws {
        guard try await session.deviceInfo().devicePropertiesSupported.contains(FujifilmCapture.priorityModeProperty)
        else { return }
        do {
            try await session.setDevicePropValue(FujifilmCapture.priorityModeProperty, .uint16(value))
        } catch let error as PTPError where error.code == .deviceResponse {
            logger.warning("the Fujifilm camera refused PriorityMode (0xD207) = \(value) (\(error))")
        }
    }
}
