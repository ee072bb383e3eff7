import PTP

/// The standard capture (ISO 15740 §10.5.14): InitiateCapture, then ObjectAdded per stored object and
/// CaptureComplete.
///
/// Real cameras bend this, and the driver copes: DeviceBusy (0x2019) while the previous shot is written is retried
/// a bounded number of times; objects announced after CaptureComplete (libgphoto2's order, RAW+JPEG on many
/// bodies) are waited for while fewer than expected have arrived; a lost CaptureComplete ends the wait once every
/// expected object is there; a lost ObjectAdded is made good by comparing the card's object list before and after
/// the shot. StoreFull as a response or an event is ``CaptureError/Code-swift.struct/cardFull``.
///
/// Checked against libgphoto2's generic capture (`library.c` `camera_capture`, commit 813de344): as there, a
/// GeneralError answer to InitiateCapture does not end the shot (a Nikon V1 answers it and shoots; the objects
/// decide), and a camera whose DeviceInfo lists no CaptureComplete event is done once its objects stop coming
/// (libgphoto2 keys this on a per-model flag; rawcap reads the camera's own event list). Kept on purpose: the card's
/// object list is read before every shot (libgphoto2 only for bodies it flags), so that a lost ObjectAdded is made
/// good from the card.
public struct StandardCaptureDriver: CaptureDriver {
    /// `standard`.
    public var name: String { "standard" }

    /// An event of the next body shot read early (`BodyShots.swift`).
    let carriedEvents = BodyShotCarry<PTPEvent>()
    /// The store InitiateCapture (and InitiateOpenCapture) names: 0 lets the camera choose.
    public var storage: StorageID

    /// Creates the driver; `storage` 0 lets the camera choose where shots go.
    public init(storage: StorageID = StorageID(rawValue: 0)) { self.storage = storage }

    /// `--keep-on-card`: InitiateCapture names the camera's removable store (ISO 15740 §10.5.14: its StorageID
    /// parameter selects where the objects go, 0 the camera's choice), the first with StorageType removable RAM or
    /// ROM; objects stored there stay, since rawcap deletes nothing.
    public func keepingFilesOnCard(session: PTPSession) async throws -> any CaptureDriver {
        for id in try await session.getStorageIDs() {
            let info = try await session.getStorageInfo(id)
            if info.storageType == .removableRAM || info.storageType == .removableROM {
                return StandardCaptureDriver(storage: id)
            }
        }
        throw CaptureError(.cardCopyUnavailable, "--keep-on-card: the camera reports no removable store (card)")
    }

    /// Takes one shot (see the type's description).
    public func capture(
        session: PTPSession, expecting: Int?, timing: CaptureTiming,
        announce: @Sendable (AnnouncedObject) async -> Void
    ) async throws -> [AnnouncedObject] {
        let before = Set(try await session.getObjectHandles())
        // Events left from before this shot (a previous shot's stragglers) must not be taken for this one's.
        while let stale = try await session.nextEvent(timeout: .milliseconds(1)) {
            if stale.code == .storeFull { throw CaptureError(.cardFull, "the camera's card is full") }
        }
        var initiateAnswer: String?
        do {
            try await Self.initiate(session: session, timing: timing, storage: storage)
        } catch let error as PTPError where error.response == .generalError {
            initiateAnswer = "\(error)"
        }
        return try await collect(
            session: session, before: before, expecting: expecting, timing: timing, initiateAnswer: initiateAnswer,
            announce: announce)
    }

    /// The standard bulb needs both open-capture operations (ISO 15740 §10.5.21, §10.5.26).
    public func bulbUnavailableReason(deviceInfo: DeviceInfo) -> String? {
        deviceInfo.supports(.initiateOpenCapture) && deviceInfo.supports(.terminateOpenCapture)
            ? nil : "it lists no InitiateOpenCapture/TerminateOpenCapture (0x101C/0x1018) for bulb"
    }

    /// The standard bulb: InitiateOpenCapture (0x101C, storage and format 0: the camera's choice) opens the shutter,
    /// TerminateOpenCapture (0x1018) with the opening request's transaction ID closes it, and the shot's objects
    /// come as after InitiateCapture (ObjectAdded, CaptureComplete). libgphoto2 drives the same pair from
    /// `config.c` `_put_OpenCapture` (`ptp_initiateopencapture(params, 0, 0)`, then
    /// `ptp_terminateopencapture(params, params->opencapture_transid)`).
    public func captureBulb(
        session: PTPSession, expecting: Int?, timing: CaptureTiming, hold: BulbHold,
        announce: @Sendable (AnnouncedObject) async -> Void
    ) async throws -> [AnnouncedObject] {
        let before = Set(try await session.getObjectHandles())
        while let stale = try await session.nextEvent(timeout: .milliseconds(1)) {
            if stale.code == .storeFull { throw CaptureError(.cardFull, "the camera's card is full") }
        }
        hold.opening()
        let opened: PTPResponse
        do {
            opened = try await session.execute(.initiateOpenCapture, parameters: [storage.rawValue, 0])
        } catch let error as PTPError where error.response == .deviceBusy {
            throw CaptureError(.cameraBusy, "the camera answered DeviceBusy to InitiateOpenCapture")
        } catch let error as PTPError where error.response == .storeFull {
            throw CaptureError(.cardFull, "the camera's card is full (StoreFull)")
        }
        await hold.hold()
        try await session.execute(.terminateOpenCapture, parameters: [opened.transactionID])
        return try await collect(
            session: session, before: before, expecting: expecting, timing: timing, initiateAnswer: nil,
            announce: announce)
    }

    /// Waits for the objects of a shot that has been started (see the type's description).
    private func collect(
        session: PTPSession, before: Set<ObjectHandle>, expecting: Int?, timing: CaptureTiming,
        initiateAnswer: String?, announce: @Sendable (AnnouncedObject) async -> Void
    ) async throws -> [AnnouncedObject] {
        let clock = ContinuousClock()
        // Without CaptureComplete in its event list, a camera's shot is over once its objects stop coming.
        let announcesCompletion = try await session.deviceInfo().eventsSupported.contains(.captureComplete)
        var lastObjectAt: ContinuousClock.Instant?
        let started = clock.now
        var objects: [AnnouncedObject] = []
        var completedAt: ContinuousClock.Instant?
        var allArrivedAt: ContinuousClock.Instant?
        func have(_ handle: ObjectHandle) -> Bool { objects.contains { $0.handle == handle } }

        while true {
            let now = clock.now
            if let expecting, objects.count >= expecting {
                if completedAt != nil { break }
                // Every object is here but CaptureComplete is not: it may have been lost.
                allArrivedAt = allArrivedAt ?? now
                if let since = allArrivedAt, now - since >= timing.lateGrace { break }
            }
            if let completedAt {
                if expecting == nil, now - completedAt >= .milliseconds(300) { break }
                if now - completedAt >= timing.lateGrace { break }
            }
            if !announcesCompletion, let lastObjectAt, now - lastObjectAt >= timing.lateGrace { break }
            if now - started >= timing.shotTimeout { break }
            guard let event = try await session.nextEvent(timeout: .milliseconds(100)) else { continue }
            switch event.code {
            case .objectAdded:
                guard let raw = event.parameters.first else { continue }
                let handle = ObjectHandle(rawValue: raw)
                guard !before.contains(handle), !have(handle) else { continue }
                let info = try await session.getObjectInfo(handle)
                // Folders (associations) are announced too by some cameras when they start a new one.
                guard info.objectFormat != .association else { continue }
                let object = AnnouncedObject(handle: handle, info: info, late: completedAt != nil)
                objects.append(object)
                lastObjectAt = clock.now
                await announce(object)
            case .captureComplete:
                completedAt = completedAt ?? clock.now
            case .storeFull:
                throw CaptureError(.cardFull, "the camera's card filled up during the shot")
            default:
                continue
            }
        }
        if let expecting, objects.count < expecting {
            // ObjectAdded lost: whatever is new on the card belongs to this shot.
            let after = try await session.getObjectHandles()
            for handle in after where !before.contains(handle) && !have(handle) {
                let info = try await session.getObjectInfo(handle)
                guard info.objectFormat != .association else { continue }
                let object = AnnouncedObject(handle: handle, info: info, late: true)
                objects.append(object)
                await announce(object)
            }
        }
        if objects.isEmpty {
            if let initiateAnswer { throw CaptureError(.captureTimeout, "InitiateCapture failed (\(initiateAnswer)) and the camera stored nothing") }
            throw CaptureError(
                .captureTimeout,
                completedAt == nil
                    ? "the camera stored nothing within \(timing.shotTimeout) of InitiateCapture"
                    : "the camera reported the shot complete but stored nothing")
        }
        return objects
    }

    /// InitiateCapture, retried with a doubling delay while the camera answers DeviceBusy (also the Fujifilm
    /// driver's release).
    static func initiate(
        session: PTPSession, timing: CaptureTiming, storage: StorageID = StorageID(rawValue: 0)
    ) async throws {
        var delay = timing.busyDelay
        var attempt = 1
        while true {
            do {
                try await session.initiateCapture(storage: storage)
                return
            } catch let error as PTPError where error.response == .deviceBusy {
                guard attempt < timing.busyAttempts else {
                    throw CaptureError(
                        .cameraBusy, "the camera answered DeviceBusy to \(attempt) capture requests in a row")
                }
                attempt += 1
                try await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(1))
            } catch let error as PTPError where error.response == .storeFull {
                throw CaptureError(.cardFull, "the camera's card is full (StoreFull)")
            }
        }
    }
}
