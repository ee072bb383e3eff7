import CameraControl
import DNG
import FoundationEssentials
import Logging
import PTP
import PlatformSupport
import Synchronization

/// Runs a ``ShootPlan`` on one camera: negotiates the format, sets the camera up, shoots on schedule, downloads
/// each shot and hands it to the encode stage, journals everything, and puts the camera's settings back.
///
/// The pipeline has two stages: the camera side (trigger, wait for objects, download) runs in the caller's task;
/// encoding and writing run in a task of their own, one shot at a time. Shot *k + 1* downloads while shot *k*
/// encodes, and the camera side waits for shot *k*'s files before it starts downloading shot *k + 2*: at most one
/// shot being downloaded, one being encoded (its decoded frame included), whatever the length of the run.
///
/// The session must be open. The schedule is drift-free: frame group *k* (a frame, or a bracket) is due at
/// start + *k*·interval; one that starts late is journaled as `shot-overrun` and shot at once, never skipped.
public struct CaptureRunner: Sendable {
    /// What the run did. The per-file and per-frame records keep the last ``CaptureRunner/recordsKept`` of a run
    /// (every one of a short run) with their totals, so a run of any length ends with the memory it started with;
    /// the journal has them all.
    public struct Summary: Sendable {
        /// The files written, in order (the last ``CaptureRunner/recordsKept``; `files.total` counts them all).
        public var files: RecentRecords<SavedFile>
        /// The format produced.
        public var format: ResolvedFormat
        /// Each shot's scheduled start (seconds after the run's start), as the schedule computed it.
        public var scheduled: RecentRecords<Double>
        /// Each shot's actual start (`started.total`: the frames started).
        public var started: RecentRecords<Double>
        /// Shots that started later than scheduled.
        public var overruns: RecentRecords<Int>
        /// Whether a stop request ended the run early.
        public var interrupted: Bool
        /// Frames journaled as `shot-missed` (`--reconnect`: due while the camera was away, or lost with it).
        public var missed: RecentRecords<Int>

        /// An empty summary keeping the last `recordsKept` records of each kind.
        public init(format: ResolvedFormat, recordsKept: Int = RecentRecords<SavedFile>.defaultLimit) {
            files = RecentRecords(limit: recordsKept)
            self.format = format
            scheduled = RecentRecords(limit: recordsKept)
            started = RecentRecords(limit: recordsKept)
            overruns = RecentRecords(limit: recordsKept)
            interrupted = false
            missed = RecentRecords(limit: recordsKept)
        }
    }

    /// How late a frame may start before it counts as an overrun: more than timer and scheduling jitter, less than
    /// any real shot.
    public static let overrunTolerance = Duration.milliseconds(20)

    /// The session (open).
    public var session: PTPSession
    /// The plan.
    public var plan: ShootPlan
    /// The folder.
    public var store: OutputStore
    /// The journal.
    public var journal: Journal
    /// Logs.
    public var logger: Logger
    /// Receives progress.
    public var observer: @Sendable (CaptureEvent) -> Void
    /// Stops the run early.
    public var stop: StopSignal
    /// The camera's USB idVendor when it is on USB: with DeviceInfo it picks the ``CameraProfile``.
    public var usbVendorID: USBVendorID?
    /// The camera's USB idProduct when it is on USB: a Nikon's tells its image quality numbering.
    public var usbProductID: UInt16?
    /// With `--reconnect`: waits for the camera when it leaves the link and goes on with the run; `nil` lets the
    /// run fail (exit 74, `pull --resume` later).
    public var reconnector: CameraReconnector?
    /// During waits between frames, a GetDeviceInfo this often (`--keep-alive`); `nil` or zero for none.
    public var keepAlive: Duration?
    /// How many of each per-file and per-frame record the ``Summary`` keeps (the last ones; totals count all).
    public var recordsKept = RecentRecords<SavedFile>.defaultLimit

    /// Creates a runner.
    public init(
        session: PTPSession, plan: ShootPlan, store: OutputStore, journal: Journal,
        logger: Logger = Logger(label: "rawcap.capture"), stop: StopSignal = StopSignal(),
        usbVendorID: USBVendorID? = nil, usbProductID: UInt16? = nil,
        observer: @escaping @Sendable (CaptureEvent) -> Void = { _ in }
    ) {
        self.usbVendorID = usbVendorID
        self.usbProductID = usbProductID
        self.session = session
        self.plan = plan
        self.store = store
        self.journal = journal
        self.logger = logger
        self.stop = stop
        self.observer = observer
    }

    /// Runs the plan.
    ///
    /// - Throws: ``CaptureError`` (`.formatUnavailable` before anything is shot, `.cameraBusy`, `.cardFull`,
    ///   `.captureTimeout`, `.badObject`, `.interrupted` after a stop request), `TransportError` (disconnect,
    ///   stall), `DNGError` or `OutputFileError` (the folder or disk). The camera's settings are restored in every
    ///   case, and the journal ends with `run-finished` or `run-failed`.
    public func run() async throws -> Summary {
        let identity: CameraIdentity
        do {
            identity = try await session.cameraIdentity(usbVendorID: usbVendorID, usbProductID: usbProductID)
        } catch {
            // A camera that fails before the run starts still leaves its reason in the journal.
            recordFailure(error, restoreFailure: nil)
            throw error
        }
        let deviceInfo = identity.deviceInfo
        let camera = deviceInfo.model.isEmpty ? "camera" : deviceInfo.model
        let serial = deviceInfo.serialNumber
        journal.camera = camera
        journal.serial = serial
        var profile = CameraProfile.select(for: identity, logger: logger)
        let control = CameraControl.CameraSettings(session: session, deviceInfo: deviceInfo, logger: logger)
        var summary = Summary(format: ResolvedFormat(product: .bayer, rawBitDepth: nil), recordsKept: recordsKept)
        var restoreFailure: String?
        do {
            if plan.keepOnCard {
                // The family's card capture target, or exit 64 before anything is fired.
                profile.driver = try await profile.driver.keepingFilesOnCard(session: session)
            }
            try await profile.driver.prepare(session: session, logger: logger)
            let rawCatalog = try await profile.rawFormatCatalog(control)
            let format = try ResolvedFormat.choose(plan.format, from: rawCatalog)
            summary.format = format
            let qualities: FormatCatalog
            var warnings: [String] = []
            if let qualityControl = profile.qualityControl {
                qualities = try await qualityControl.read(session: session)
            } else {
                qualities = try await FormatCatalog.read(profile: profile, control: control)
                if let reason = qualities.valuesReason { logger.debug("image quality values: \(reason)") }
                if let code = profile.qualityProperty, qualities.qualities.isEmpty {
                    // Optional: without it the camera shoots what it is set to, and the run says so once, on
                    // standard error and in the journal.
                    let name = code.description(vendor: deviceInfo.cameraVendor)
                    let message: String
                    if let reason = qualities.refusalReason {
                        message = "the camera lists \(name) but \(reason); the image quality stays as set on the camera"
                    } else if let reason = qualities.undeterminedReason {
                        message =
                            "cannot tell what the values of \(name) mean on this camera (\(reason)); RAW or RAW+JPEG stays as set on the camera"
                    } else {
                        message = "the camera does not offer \(name); RAW or RAW+JPEG stays as set on the camera"
                    }
                    logger.warning("\(message)")
                    warnings.append(message)
                }
            }
            let quality = try qualities.quality(for: format, keepJPEG: plan.keepJPEG)
            // A vendor quality setting is not in the snapshot: it is put back by hand, however the run ends.
            let restoreQuality: ShotQuality? =
                profile.qualityControl == nil || quality == nil ? nil : qualities.currentQuality
            let brackets = try await BracketSetting.plan(plan.bracket, control: control)
            // `--exposure`: a shutter speed the camera has, or bulb; a camera with neither stops here, before
            // anything is fired (exit 64).
            var exposure: ExposureSetting?
            if let request = plan.exposure {
                let setting = try await ExposureSetting.resolve(
                    request, control: control, deviceInfo: deviceInfo, driver: profile.driver)
                if setting.property != nil, brackets.contains(where: { $0.property == .exposureTime }) {
                    throw CaptureError(
                        .invalidPlan,
                        "--bracket steps the shutter speed on this camera, so it cannot be combined with --exposure")
                }
                exposure = setting
            }
            // Everything the run may change is saved first, and put back however the run ends.
            var touched: [DevicePropertyCode] = brackets.map(\.property)
            // (A family's own shutter property is put back by hand: `restoreExposure`.)
            if exposure?.vendorProperty == nil, let code = exposure?.property { touched.append(code) }
            // After the exposure time: that is put back while the body is still in the run's program, then the program.
            if let code = exposure?.preset?.property { touched.append(code) }
            if quality != nil, let code = profile.qualityProperty { touched.append(code) }
            if format.rawBitDepth != nil, let code = profile.rawBitDepthProperty { touched.append(code) }
            var unique: [DevicePropertyCode] = []
            for code in touched where !unique.contains(code) { unique.append(code) }
            let snapshot = try await control.snapshot(unique.map { control.definition(for: $0) })
            let focusRun = try plan.focusBracket.map {
                try FocusBracketRun(bracket: $0, control: FocusControl(session: session, identity: identity, logger: logger))
            }
            do {
                try await shoot(
                    deviceInfo: deviceInfo, profile: profile, control: control, format: format, quality: quality,
                    qualityValue: quality.flatMap { qualities.values[$0] }, brackets: brackets, exposure: exposure,
                    camera: camera, serial: serial, warnings: warnings, focusRun: focusRun, summary: &summary)
                await focusRun?.finish()
            } catch {
                await focusRun?.finish()
                do {
                    try await restoreExposure(exposure, driver: profile.driver, control: control)
                    try await control.restore(snapshot)
                    if let restoreQuality { try await profile.qualityControl?.set(restoreQuality, session: session) }
                } catch let restoreError {
                    // The link that ended the run cannot put settings back: that is the run's error, said once.
                    if restoreError is TransportError {
                        logger.debug("settings not restored: \(restoreError)")
                    } else {
                        logger.warning("the camera's settings could not be put back: \(restoreError)")
                    }
                    restoreFailure = "\(restoreError)"
                }
                throw error
            }
            try await restoreExposure(exposure, driver: profile.driver, control: control)
            try await control.restore(snapshot)
            if let restoreQuality { try await profile.qualityControl?.set(restoreQuality, session: session) }
        } catch {
            await profile.driver.finish(session: session, logger: logger)
            recordFailure(error, restoreFailure: restoreFailure)
            throw error
        }
        await profile.driver.finish(session: session, logger: logger)
        // A Ctrl-C during the last frame lets that frame finish, and the loop then ends as if complete: the request
        // still decides how the run ends (exit 130), as it does for a Ctrl-C during an earlier frame (fault matrix).
        if stop.isRequested { summary.interrupted = true }
        var entry = JournalEntry(JournalEntry.Event.runFinished)
        entry.detail = summary.interrupted ? "interrupted" : "complete"
        entry.files = summary.files.total
        journal.recordQuietly(entry)
        if summary.interrupted {
            throw CaptureError(
                .interrupted,
                "stopped after \(summary.started.total)\(plan.isOpenEnded ? "" : " of \(plan.frameCount)") frames; "
                    + "\(summary.files.total) files saved"
            )
        }
        return summary
    }

    /// Puts a family's own shutter speed property (``ExposureSetting/vendorProperty``) back to its value before the
    /// run, before the standard settings (a Nikon-style program preset is not used with one).
    private func restoreExposure(
        _ exposure: ExposureSetting?, driver: any CaptureDriver, control: CameraControl.CameraSettings
    ) async throws {
        guard let exposure, exposure.vendorProperty != nil, let before = exposure.vendorValueBefore,
            before != exposure.value, let vendor = driver.shutterSpeedControl
        else { return }
        try await vendor.set(before, session: session, control: control)
    }

    /// Journals a bulb exposure's requested and measured open time (`bulb-closed`), and whether a stop cut it short.
    private func recordBulb(shot: Int, _ exposure: ExposureSetting, _ measured: Duration, _ hold: BulbHold) {
        var entry = JournalEntry(JournalEntry.Event.bulbClosed)
        entry.shot = shot
        entry.exposure = exposure.request.duration.seconds
        entry.openSeconds = measured.seconds
        entry.detail = hold.wasInterrupted ? "interrupted: the shutter closed early on a stop request" : nil
        journal.recordQuietly(entry)
        if hold.wasInterrupted {
            observer(.warning("bulb closed after \(String(cFormat: "%.3f", measured.seconds)) s (stop requested)"))
        }
    }

    /// Ends the journal with `run-failed`: the error's code and text, and a failed restore's reason.
    private func recordFailure(_ error: any Error, restoreFailure: String?) {
        journal.recordQuietly(Self.failureEntry(error, restoreFailure: restoreFailure))
    }

    /// The `run-failed` entry for `error`.
    public static func failureEntry(_ error: any Error, restoreFailure: String? = nil) -> JournalEntry {
        var entry = JournalEntry(JournalEntry.Event.runFailed)
        entry.code =
            (error as? CaptureError)?.code.rawValue ?? (error as? CameraControlError)?.code.rawValue
            ?? String(describing: type(of: error))
        entry.detail = "\(error)" + (restoreFailure.map { "; \($0)" } ?? "")
        return entry
    }

    private func shoot(
        deviceInfo: DeviceInfo, profile: CameraProfile, control: CameraControl.CameraSettings, format: ResolvedFormat,
        quality: ShotQuality?, qualityValue: PTPValue?, brackets: [BracketSetting], exposure: ExposureSetting? = nil,
        camera: String, serial: String, warnings: [String], focusRun: FocusBracketRun? = nil, summary: inout Summary
    ) async throws {
        let history = Journal.read(folder: store.folder)
        let firstSequence = 1 + JournalEntry.shotsTaken(in: history, outside: journal.runID)

        var start = JournalEntry(JournalEntry.Event.runStarted)
        start.format = format.description
        start.detail =
            "\(format.reason); \(plan.isOpenEnded ? "frames until stopped" : "\(plan.frameCount) frames")"
            + (plan.interval.map { ", every \($0.seconds) s" } ?? "")
            + (plan.bracket.isEmpty
                ? "" : ", bracket \(plan.bracket.map { FileNamer.bracketLabel($0) }.joined(separator: " "))")
            + (quality.map { ", quality \($0)" } ?? "")
            + (plan.keepOnCard ? ", files kept on the camera's card" : "")
            + (exposure.map { ", exposure \(ExposureSetting.format($0.request.duration.seconds)) (\($0.modeName))" } ?? "")
            + (exposure?.preset.map { preset in
                let definition = control.definition(for: preset.property)
                return ", \(definition.name) \(definition.style.format(preset.value)) for it"
            } ?? "")
            + ", driver \(profile.driver.name), profile \(profile.name)"
        try journal.record(start)
        logger.debug("\(start.detail ?? "")")
        // What the run found before it started (a setting it goes on without) follows its start in the journal.
        for message in warnings {
            var entry = JournalEntry(JournalEntry.Event.warning)
            entry.detail = message
            try journal.record(entry)
        }
        observer(.started(frames: plan.isOpenEnded ? nil : plan.frameCount, format: format.description, camera: camera))

        // Settings first: a refusal here stops the run before anything is shot. After a reconnect they are set
        // again: a camera that slept or was switched off may have forgotten them.
        func applySettings() async throws {
            if let quality, let qualityControl = profile.qualityControl {
                try await qualityControl.set(quality, session: session)
            } else if let qualityValue, let code = profile.qualityProperty {
                try await control.set(control.definition(for: code), to: qualityValue)
            }
            if let depth = format.rawBitDepth, let code = profile.rawBitDepthProperty {
                let definition = control.definition(for: code)
                let description = try await control.descriptor(definition)
                try await control.set(definition, to: try profile.rawBitDepthValue(for: depth, type: description.dataType))
            }
            if let preset = exposure?.preset {
                try await control.set(control.definition(for: preset.property), to: preset.value)
            }
            if let exposure, exposure.vendorProperty != nil, let value = exposure.value,
                let vendor = profile.driver.shutterSpeedControl
            {
                try await vendor.set(value, session: session, control: control)
            } else if let exposure, let code = exposure.property, let value = exposure.value {
                try await control.set(control.definition(for: code), to: value)
            }
        }
        var timing = plan.timing
        if case .shutter(_, let seconds)? = exposure?.mode {
            // The camera times the exposure: the shot may take that much longer.
            timing.shotTimeout += .milliseconds(Int64(seconds * 1000))
        }
        try await applySettings()
        let expecting = quality?.objectCount
        var downloader = ObjectDownloader(operations: deviceInfo.operationsSupported)
        if !profile.partialObjectDownloads { downloader.usesPartialObject = false }
        let processor = ShotProcessor(
            format: format, keepJPEG: plan.keepJPEG,
            options: DNGOptions(compression: plan.compression), namer: plan.namer,
            camera: camera, serial: serial, store: store, journal: journal, logger: logger, observer: observer)

        let clock = ContinuousClock()
        let runStart = clock.now
        var encoding: Task<[SavedFile], any Error>?
        let steps: [BracketSetting?] = brackets.isEmpty ? [nil] : brackets
        var index = 0
        // In a focus bracket, the lens position of the frame in flight (into its files' metadata).
        var frameFocusStep: Int?
        // With --reconnect: the times the camera was away (from the run's start). Frames that fell due in one are
        // missed, never fired late in a burst; frames a slow run had not reached before the camera left stay
        // (they start late, as overruns do).
        var absences: [Range<Duration>] = []
        func fellDueWhileAway(_ due: Duration?) -> Bool {
            guard let due else { return false }
            return absences.contains { $0.contains(due) }
        }

        /// Sleeps until `deadline` (a stop request wakes it: `true`); with a keep-alive, sends the driver's keep-alive
        /// (``CaptureDriver/keepAlive(session:)``: GetDeviceInfo, Canon EOS KeepDeviceOn) every `keepAlive`
        /// meanwhile, so a body that sleeps when idle stays awake where it allows it.
        func wait(until deadline: ContinuousClock.Instant) async throws -> Bool {
            guard let keepAlive, keepAlive > .zero else { return await stop.sleep(until: deadline) }
            while true {
                let next = min(deadline, clock.now + keepAlive)
                if await stop.sleep(until: next) { return true }
                if clock.now >= deadline { return false }
                logger.debug("keep-alive (\(profile.driver.name))")
                try await profile.driver.keepAlive(session: session)
            }
        }

        /// Journals frame `shot` as missed.
        func miss(_ shot: Int, due: Duration?, _ detail: String) throws {
            var entry = JournalEntry(JournalEntry.Event.shotMissed)
            entry.shot = shot
            entry.scheduled = due?.seconds
            entry.detail = detail
            try journal.record(entry)
            summary.missed.append(shot)
            observer(.shotMissed(frame: shot + 1, detail: detail))
        }

        /// Downloads a shot's objects and hands them to the encode stage, once the previous shot's files are done.
        func deliver(
            _ objects: [AnnouncedObject], step: BracketSetting?, date: Date, triggered: ContinuousClock.Instant,
            captured: ContinuousClock.Instant
        ) async throws {
            let shotIndex = index
            let raw = objects.first { !$0.isJPEG }
            let jpeg = objects.first { $0.isJPEG }
            let progress: @Sendable (Int) -> Void = { [observer] count in observer(.bytesReceived(count)) }
            var rawBytes: [UInt8]?
            var jpegBytes: [UInt8]?
            // Only what the output needs is downloaded; the rest stays on the card (pull fetches it).
            for object in [raw, jpeg].compactMap({ $0 }) {
                // The JPEG is always wanted: the file itself, or the DNG's preview.
                let needed = object.isJPEG || format.product != .jpeg
                guard needed else { continue }
                let bytes = try await downloader.fetch(
                    object, shot: shotIndex, session: session, journal: journal, progress: progress)
                if object.isJPEG { jpegBytes = bytes } else { rawBytes = bytes }
            }
            try await profile.driver.downloaded(objects, session: session)
            let downloaded = clock.now
            let shot = ShotProcessor.Shot(
                frame: index + 1, index: index, bracket: step?.ev, date: date, sequence: firstSequence + index,
                raw: raw.flatMap { object in rawBytes.map { (object, $0) } },
                jpeg: jpeg.flatMap { object in jpegBytes.map { (object, $0) } },
                captureSeconds: (captured - triggered).seconds,
                downloadSeconds: (downloaded - captured).seconds,
                triggered: triggered, focusStep: frameFocusStep)
            // The previous shot's files must be done before this one starts encoding: one encode in flight.
            if let previous = encoding {
                encoding = nil
                summary.files += try await previous.value
            }
            encoding = Task.detached { try processor.process(shot) }
        }

        do {
            shots: for group in 0..<plan.count {
                for step in steps {
                    let groupDue = plan.interval.map { $0 * group }
                    if fellDueWhileAway(groupDue) {
                        try miss(index, due: groupDue, "fell due while the camera was away")
                        index += 1
                        continue
                    }
                    // Objects of this frame announced before the camera went away: fetched once it is back.
                    var recovering: (objects: [AnnouncedObject], date: Date, triggered: ContinuousClock.Instant)?
                    frame: while true {
                        let announced = AnnouncedObjects()
                        var requested = recovering != nil
                        do {
                            if let pending = recovering {
                                do {
                                    try await deliver(
                                        pending.objects, step: step, date: pending.date, triggered: pending.triggered,
                                        captured: pending.triggered)
                                } catch let error as PTPError where !CameraReconnector.meansCameraGone(error) {
                                    // The camera forgot the shot (a body whose memory a power cycle cleared).
                                    try miss(index, due: groupDue, "the camera no longer has the shot's objects: \(error)")
                                }
                                index += 1
                                break frame
                            }
                            let dueOffset = groupDue ?? (clock.now - runStart)
                            let stopped = try await wait(until: runStart + dueOffset)
                            if stopped {
                                summary.interrupted = true
                                break shots
                            }
                            let startedOffset = clock.now - runStart
                            summary.scheduled.append(dueOffset.seconds)
                            summary.started.append(startedOffset.seconds)
                            if plan.interval != nil, step == steps.first, startedOffset - dueOffset > Self.overrunTolerance {
                                summary.overruns.append(index)
                                var overrun = JournalEntry(JournalEntry.Event.shotOverrun)
                                overrun.shot = index
                                overrun.scheduled = dueOffset.seconds
                                overrun.started = startedOffset.seconds
                                overrun.detail =
                                    "started \(String(cFormat: "%.3f", (startedOffset - dueOffset).seconds)) s late: the previous frame overran the interval"
                                try journal.record(overrun)
                                observer(.warning("frame \(index + 1) \(overrun.detail ?? "")"))
                            }
                            if let step { try await control.set(control.definition(for: step.property), to: step.value) }
                            var requestedEntry = JournalEntry(JournalEntry.Event.shotRequested)
                            requestedEntry.shot = index
                            requestedEntry.scheduled = dueOffset.seconds
                            requestedEntry.started = startedOffset.seconds
                            requestedEntry.bracket = step?.ev
                            requestedEntry.exposure = exposure?.request.duration.seconds
                            requestedEntry.exposureMode = exposure?.modeName
                            if case .shutter(_, let seconds)? = exposure?.mode { requestedEntry.shutterSeconds = seconds }
                            if let focusRun {
                                requestedEntry.focusStep = try await focusRun.before(frame: index)
                                frameFocusStep = requestedEntry.focusStep
                            }
                            try journal.record(requestedEntry)
                            requested = true
                            observer(.shotStarted(frame: index + 1))

                            if exposure?.isBulb == true, let previous = encoding {
                                // A bulb exposure opens once the previous shot's files are written: encoding, which
                                // keeps every core busy, must not delay the moment the shutter closes.
                                encoding = nil
                                summary.files += try await previous.value
                            }

                            let triggered = clock.now
                            let date = Date()
                            let shotIndex = index
                            let objects: [AnnouncedObject]
                            let announce: @Sendable (AnnouncedObject) async -> Void = { object in
                                announced.append(object, date: date, triggered: triggered)
                                journal.recordQuietly(JournalEntry.announced(object, shot: shotIndex))
                            }
                            do {
                                if let exposure, exposure.isBulb {
                                    // The shutter is held open for the requested time (a stop closes it early); the
                                    // shot is then collected, saved and journaled like any other.
                                    let hold = BulbHold(requested: exposure.request.duration, stop: stop)
                                    let bulbObjects: [AnnouncedObject]
                                    do {
                                        bulbObjects = try await profile.driver.captureBulb(
                                            session: session, expecting: expecting, timing: timing, hold: hold,
                                            announce: announce)
                                    } catch {
                                        if let measured = hold.measured {
                                            recordBulb(shot: shotIndex, exposure, measured, hold)
                                        }
                                        throw error
                                    }
                                    if let measured = hold.measured { recordBulb(shot: shotIndex, exposure, measured, hold) }
                                    objects = bulbObjects
                                } else {
                                    objects = try await profile.driver.capture(
                                        session: session, expecting: expecting, timing: timing, announce: announce)
                                }
                            } catch let error as CaptureError
                                where stop.isRequested && [.cameraBusy, .captureTimeout].contains(error.code)
                            {
                                // Ctrl-C while the camera kept answering DeviceBusy or the shot was awaited: the user's
                                // stop ends the run (130, journal "interrupted"), not the wait it cut short (fault matrix).
                                logger.info("stopped while waiting for frame \(index + 1): \(error)")
                                summary.interrupted = true
                                break shots
                            }
                            try await deliver(objects, step: step, date: date, triggered: triggered, captured: clock.now)
                            index += 1
                            break frame
                        } catch let error
                            where reconnector != nil && !stop.isRequested && CameraReconnector.meansCameraGone(error)
                        {
                            guard let reconnector else { throw error }
                            let lostAt = clock.now - runStart
                            let lostObjects = recovering ?? announced.taken
                            var loss: any Error = error
                            while true {
                                _ = try await reconnector.recover(
                                    from: loss, session: session, serialNumber: serial, shot: requested ? index : nil,
                                    journal: journal, observer: observer, stop: stop, logger: logger)
                                do {
                                    // The camera may have forgotten the remote session and the run's settings.
                                    try await profile.driver.prepare(session: session, logger: logger)
                                    try await applySettings()
                                    break
                                } catch let again
                                    where !stop.isRequested && CameraReconnector.meansCameraGone(again)
                                {
                                    // Gone again before it was ready (a camera that sleeps at once): wait again.
                                    loss = again
                                }
                            }
                            if plan.interval != nil { absences.append(lostAt..<(clock.now - runStart)) }
                            if requested {
                                if let lostObjects, !lostObjects.objects.isEmpty {
                                    recovering = lostObjects
                                    continue frame
                                }
                                try miss(index, due: groupDue, "the camera went away before it announced the shot")
                                index += 1
                                break frame
                            }
                            // Lost while waiting for the frame (a keep-alive found it gone): the frame is still to
                            // come unless it fell due meanwhile.
                            if fellDueWhileAway(groupDue) {
                                try miss(index, due: groupDue, "fell due while the camera was away")
                                index += 1
                                break frame
                            }
                        }
                    }
                }
            }
        } catch {
            // The shot being encoded is finished (or its temporary removed) before the error goes on, so the
            // journal's last lines and the folder agree.
            if let last = encoding { summary.files += (try? await last.value) ?? [] }
            throw error
        }
        if let last = encoding {
            encoding = nil
            summary.files += try await last.value
        }
    }
}

/// The objects a shot announced so far, kept for a reconnect (`announce` is called from the driver's task).
private final class AnnouncedObjects: Sendable {
    private let state = Mutex<(objects: [AnnouncedObject], date: Date, triggered: ContinuousClock.Instant)?>(nil)

    func append(_ object: AnnouncedObject, date: Date, triggered: ContinuousClock.Instant) {
        state.withLock { state in
            if state == nil { state = ([], date, triggered) }
            state?.objects.append(object)
        }
    }

    /// What was announced, with the shot's date and trigger instant; `nil` when nothing was.
    var taken: (objects: [AnnouncedObject], date: Date, triggered: ContinuousClock.Instant)? { state.withLock { $0 } }
}
