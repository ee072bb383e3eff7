import CameraControl
import DNG
import FoundationEssentials
import Logging
import PTP
import PlatformSupport

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
    /// What the run did.
    public struct Summary: Sendable {
        /// The files written, in order.
        public var files: [SavedFile]
        /// The format produced.
        public var format: ResolvedFormat
        /// Each shot's scheduled start (seconds after the run's start), as the schedule computed it.
        public var scheduled: [Double]
        /// Each shot's actual start.
        public var started: [Double]
        /// Shots that started later than scheduled.
        public var overruns: [Int]
        /// Whether a stop request ended the run early.
        public var interrupted: Bool
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
    ///   stall), `DNGError` (the folder or disk). The camera's settings are restored in every case, and the journal
    ///   ends with `run-finished` or `run-failed`.
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
        var summary = Summary(
            files: [], format: ResolvedFormat(product: .bayer, rawBitDepth: nil), scheduled: [], started: [],
            overruns: [], interrupted: false)
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
            if let code = exposure?.property { touched.append(code) }
            if quality != nil, let code = profile.qualityProperty { touched.append(code) }
            if format.rawBitDepth != nil, let code = profile.rawBitDepthProperty { touched.append(code) }
            var unique: [DevicePropertyCode] = []
            for code in touched where !unique.contains(code) { unique.append(code) }
            let snapshot = try await control.snapshot(unique.map { control.definition(for: $0) })
            do {
                try await shoot(
                    deviceInfo: deviceInfo, profile: profile, control: control, format: format, quality: quality,
                    qualityValue: quality.flatMap { qualities.values[$0] }, brackets: brackets, exposure: exposure,
                    camera: camera, serial: serial, warnings: warnings, summary: &summary)
            } catch {
                do {
                    try await control.restore(snapshot)
                    if let restoreQuality { try await profile.qualityControl?.set(restoreQuality, session: session) }
                } catch let restoreError {
                    logger.warning("after \(error): \(restoreError)")
                    restoreFailure = "\(restoreError)"
                }
                throw error
            }
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
        entry.files = summary.files.count
        journal.recordQuietly(entry)
        if summary.interrupted {
            throw CaptureError(
                .interrupted,
                "stopped after \(summary.started.count)\(plan.isOpenEnded ? "" : " of \(plan.frameCount)") frames; "
                    + "\(summary.files.count) files saved"
            )
        }
        return summary
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
        quality: ShotQuality?, qualityValue: PTPValue?, brackets: [BracketSetting], exposure: ExposureSetting?,
        camera: String, serial: String, warnings: [String], summary: inout Summary
    ) async throws {
        let history = Journal.read(folder: store.folder)
        let firstSequence =
            1 + history.filter { $0.event == JournalEntry.Event.shotRequested && $0.run != journal.runID }.count

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

        // Settings first: a refusal here stops the run before anything is shot.
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
        if let exposure, let code = exposure.property, let value = exposure.value {
            try await control.set(control.definition(for: code), to: value)
        }
        var timing = plan.timing
        if case .shutter(_, let seconds)? = exposure?.mode {
            // The camera times the exposure: the shot may take that much longer.
            timing.shotTimeout += .milliseconds(Int64(seconds * 1000))
        }
        let expecting = quality?.objectCount
        var downloader = ObjectDownloader(operations: deviceInfo.operationsSupported)
        if !profile.partialObjectDownloads { downloader.usesPartialObject = false }
        let processor = ShotProcessor(
            format: format, keepJPEG: plan.keepJPEG,
            options: DNGOptions(compression: plan.compression, software: "rawcap"), namer: plan.namer,
            camera: camera, serial: serial, store: store, journal: journal, logger: logger, observer: observer)

        let clock = ContinuousClock()
        let runStart = clock.now
        var encoding: Task<[SavedFile], any Error>?
        let steps: [BracketSetting?] = brackets.isEmpty ? [nil] : brackets
        var index = 0
        do {
            shots: for group in 0..<plan.count {
                for step in steps {
                    let dueOffset = plan.interval.map { $0 * group } ?? (clock.now - runStart)
                    let stopped = await stop.sleep(until: runStart + dueOffset)
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
                    var requested = JournalEntry(JournalEntry.Event.shotRequested)
                    requested.shot = index
                    requested.scheduled = dueOffset.seconds
                    requested.started = startedOffset.seconds
                    requested.bracket = step?.ev
                    requested.exposure = exposure?.request.duration.seconds
                    requested.exposureMode = exposure?.modeName
                    if case .shutter(_, let seconds)? = exposure?.mode { requested.shutterSeconds = seconds }
                    try journal.record(requested)
                    observer(.shotStarted(frame: index + 1))

                    if exposure?.isBulb == true, let previous = encoding {
                        // A bulb exposure opens once the previous shot's files are written: encoding, which keeps
                        // every core busy, must not delay the moment the shutter closes.
                        encoding = nil
                        summary.files += try await previous.value
                    }
                    let triggered = clock.now
                    let date = Date()
                    let shotIndex = index
                    let objects: [AnnouncedObject]
                    let announce: @Sendable (AnnouncedObject) async -> Void = { object in
                        var entry = JournalEntry(JournalEntry.Event.objectAnnounced)
                        entry.shot = shotIndex
                        entry.handle = object.handle.rawValue
                        entry.cameraFile = object.info.filename
                        entry.captureDate = object.info.captureDate
                        entry.objectFormat = object.info.objectFormat.rawValue
                        entry.size = object.info.byteCount
                        entry.detail = object.late ? "late" : nil
                        journal.recordQuietly(entry)
                    }
                    do {
                        if let exposure, exposure.isBulb {
                            // The shutter is held open for the requested time (a stop closes it early); the shot
                            // is then collected, saved and journaled like any other.
                            let hold = BulbHold(requested: exposure.request.duration, stop: stop)
                            let bulbObjects: [AnnouncedObject]
                            do {
                                bulbObjects = try await profile.driver.captureBulb(
                                    session: session, expecting: expecting, timing: timing, hold: hold,
                                    announce: announce)
                            } catch {
                                if let measured = hold.measured { recordBulb(shot: shotIndex, exposure, measured, hold) }
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
                    let captured = clock.now
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
                        let began = clock.now
                        let bytes: [UInt8]
                        if let prefetched = object.data {
                            bytes = prefetched
                            progress(prefetched.count)
                        } else {
                            bytes = try await downloader.download(object, session: session, progress: progress)
                        }
                        var entry = JournalEntry(JournalEntry.Event.objectDownloaded)
                        entry.shot = shotIndex
                        entry.handle = object.handle.rawValue
                        entry.size = UInt64(bytes.count)
                        entry.seconds = (clock.now - began).seconds
                        try journal.record(entry)
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
                        triggered: triggered)
                    // The previous shot's files must be done before this one starts encoding: one encode in flight.
                    if let previous = encoding {
                        encoding = nil
                        summary.files += try await previous.value
                    }
                    encoding = Task.detached { try processor.process(shot) }
                    index += 1
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
