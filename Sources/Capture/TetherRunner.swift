import CameraControl
import DNG
import FoundationEssentials
import Logging
import OutputFiles
import PTP
import PlatformSupport
import Synchronization

/// Host-triggered shots asked for during a tethered run (`rawcap tether`'s SIGUSR1): each request shoots one.
public final class HostTrigger: Sendable {
    private let pending = Mutex(0)

    /// Creates a trigger with nothing asked for.
    public init() {}

    /// Asks for one shot.
    public func request() { pending.withLock { $0 += 1 } }

    /// Takes one request, if any.
    public func take() -> Bool {
        pending.withLock { count in
            guard count > 0 else { return false }
            count -= 1
            return true
        }
    }
}

/// `rawcap tether`: waits for shots the camera takes by itself (its shutter button, a remote, its interval timer)
/// and saves each as `shoot` does: through ``ShotProcessor`` (DNG, TIFF, the camera's JPEG) or as the camera wrote
/// it, RAW+JPEG kept together as one shot, into ``OutputStore`` (never overwriting), with the journal and the
/// observer's progress and `--json` lines. Each family's body shots are read by its driver
/// (``CaptureDriver/bodyShot(session:expecting:timing:wait:seen:announce:)``, `BodyShots.swift`), so the run knows no
/// family.
///
/// The camera's settings are not changed (beyond what the driver needs to be in control: Nikon's RecordingMedia,
/// Canon's remote mode, put back when the run ends). How many objects a shot stores is read once from the image
/// quality (RAW+JPEG: two). A ``HostTrigger`` request shoots one frame through the driver's own capture, as `shoot`
/// does. The run ends when stopped (``StopSignal``), after `count` shots, or after `duration`. Downloading shot
/// *k + 1* overlaps saving shot *k*, as in ``CaptureRunner``. Nothing is deleted from the camera unless
/// `deleteAfter`, and then only the card objects whose files are on disk, once they are.
public struct TetherRunner: Sendable {
    /// What the run is asked to do.
    public struct Options: Sendable {
        /// The files each shot becomes (`auto`, `linear`, `tiff`, `jpeg`; a `bayerN` is checked per frame, not set).
        public var format: OutputFormat
        /// Save the camera's JPEG beside the raw file.
        public var keepJPEG: Bool
        /// Save every object as the camera wrote it, not converted.
        public var original: Bool
        /// DNG compression.
        public var compression: DNGOptions.Compression
        /// Names.
        public var namer: FileNamer
        /// Waits and retries of host-triggered shots, and how long a body shot's missing objects are waited for.
        public var timing: CaptureTiming
        /// Shots after which the run ends, or `nil`.
        public var count: Int?
        /// Time after which the run ends, or `nil`.
        public var duration: Duration?
        /// Delete each shot's objects from the camera's card once its files are on disk.
        public var deleteAfter: Bool

        /// Creates options.
        public init(
            format: OutputFormat = .auto, keepJPEG: Bool = false, original: Bool = false,
            compression: DNGOptions.Compression = .lossless, namer: FileNamer = .standard,
            timing: CaptureTiming = CaptureTiming(), count: Int? = nil, duration: Duration? = nil,
            deleteAfter: Bool = false
        ) {
            self.format = format
            self.keepJPEG = keepJPEG
            self.original = original
            self.compression = compression
            self.namer = namer
            self.timing = timing
            self.count = count
            self.duration = duration
            self.deleteAfter = deleteAfter
        }
    }

    /// What the run did.
    public struct Summary: Sendable {
        /// The files written, in order: the last ``RecentRecords/defaultLimit`` (`files.total` counts them all), so
        /// a run of any length ends with the memory it started with; the journal has every one.
        public var files: RecentRecords<SavedFile>
        /// Shots taken on the camera's body and saved.
        public var bodyShots: Int
        /// Shots the host triggered (``HostTrigger``) and saved.
        public var hostShots: Int
        /// Whether a stop request ended the run.
        public var interrupted: Bool
    }

    /// Longest single wait for a body shot before the run looks at its stop request, trigger and deadline again.
    static let waitSlice = Duration.milliseconds(200)

    /// The session (open).
    public var session: PTPSession
    /// The options.
    public var options: Options
    /// The folder.
    public var store: OutputStore
    /// The journal.
    public var journal: Journal
    /// Logs.
    public var logger: Logger
    /// Ends the run (Ctrl-C, SIGTERM).
    public var stop: StopSignal
    /// Host-triggered shots (SIGUSR1).
    public var trigger: HostTrigger
    /// The camera's USB idVendor when on USB.
    public var usbVendorID: USBVendorID?
    /// The camera's USB idProduct when on USB.
    public var usbProductID: UInt16?
    /// Receives progress.
    public var observer: @Sendable (CaptureEvent) -> Void
    /// With `--reconnect`: waits for the camera when it leaves the link, prepares it again and goes on; the shot
    /// whose download the departure cut is downloaded again when its objects are still there. `nil`: the run fails.
    public var reconnector: CameraReconnector?
    /// With a reconnector: a cheap request this often while no shot comes (a family that waits on its event
    /// channel sends nothing meanwhile, and the camera may sleep); `nil` for none.
    public var keepAlive: Duration?

    /// Creates a runner.
    public init(
        session: PTPSession, options: Options, store: OutputStore, journal: Journal,
        logger: Logger = Logger(label: "rawcap.tether"), stop: StopSignal = StopSignal(),
        trigger: HostTrigger = HostTrigger(), usbVendorID: USBVendorID? = nil, usbProductID: UInt16? = nil,
        observer: @escaping @Sendable (CaptureEvent) -> Void = { _ in }
    ) {
        self.session = session
        self.options = options
        self.store = store
        self.journal = journal
        self.logger = logger
        self.stop = stop
        self.trigger = trigger
        self.usbVendorID = usbVendorID
        self.usbProductID = usbProductID
        self.observer = observer
    }

    /// Runs until stopped, `count` shots, or `duration`.
    ///
    /// - Throws: ``CaptureError`` (`.formatUnavailable` before the run starts, `.cardFull`, `.badObject`,
    ///   `.interrupted` after a stop request), `TransportError`, `DNGError`, `OutputFileError`. The journal ends with
    ///   `run-finished` or `run-failed`, and the driver puts back what it changed in every case.
    public func run() async throws -> Summary {
        let identity: CameraIdentity
        do {
            identity = try await session.cameraIdentity(usbVendorID: usbVendorID, usbProductID: usbProductID)
        } catch {
            journal.recordQuietly(CaptureRunner.failureEntry(error))
            throw error
        }
        let deviceInfo = identity.deviceInfo
        let camera = deviceInfo.model.isEmpty ? "camera" : deviceInfo.model
        journal.camera = camera
        journal.serial = deviceInfo.serialNumber
        let profile = CameraProfile.select(for: identity, logger: logger)
        var summary = Summary(files: RecentRecords(), bodyShots: 0, hostShots: 0, interrupted: false)
        do {
            try await profile.driver.prepare(session: session, logger: logger)
            try await tether(
                deviceInfo: deviceInfo, profile: profile, camera: camera, serial: deviceInfo.serialNumber,
                summary: &summary)
        } catch {
            await profile.driver.finish(session: session, logger: logger)
            journal.recordQuietly(CaptureRunner.failureEntry(error))
            throw error
        }
        await profile.driver.finish(session: session, logger: logger)
        if stop.isRequested { summary.interrupted = true }
        var entry = JournalEntry(JournalEntry.Event.runFinished)
        entry.detail = summary.interrupted ? "interrupted" : "complete"
        entry.files = summary.files.total
        journal.recordQuietly(entry)
        if summary.interrupted {
            let shots = summary.bodyShots + summary.hostShots
            throw CaptureError(
                .interrupted,
                "stopped after \(shots) shot\(shots == 1 ? "" : "s"); \(summary.files.total) file\(summary.files.total == 1 ? "" : "s") saved")
        }
        return summary
    }

    /// The product and the number of objects per shot, from the camera's settings as they are.
    private func resolve(
        deviceInfo: DeviceInfo, profile: CameraProfile, control: CameraControl.CameraSettings
    ) async throws -> (format: ResolvedFormat, quality: ShotQuality?) {
        var format: ResolvedFormat
        if options.original {
            format = ResolvedFormat(product: .bayer, rawBitDepth: nil, reason: "original: the camera's files as they are")
        } else {
            format = try ResolvedFormat.choose(options.format, from: try await profile.rawFormatCatalog(control))
            // Nothing is set on the camera: a bit depth asked for is checked frame by frame instead.
            if let depth = format.rawBitDepth {
                format.expectedBitDepth = options.format.bayerBitDepth.map { _ in depth }
                format.rawBitDepth = nil
            }
        }
        let qualities: FormatCatalog
        if let qualityControl = profile.qualityControl {
            qualities = try await qualityControl.read(session: session)
        } else {
            qualities = try await FormatCatalog.read(profile: profile, control: control)
        }
        return (format, qualities.currentQuality)
    }

    private func tether(
        deviceInfo: DeviceInfo, profile: CameraProfile, camera: String, serial: String, summary: inout Summary
    ) async throws {
        let control = CameraControl.CameraSettings(session: session, deviceInfo: deviceInfo, logger: logger)
        let (format, quality) = try await resolve(deviceInfo: deviceInfo, profile: profile, control: control)
        try await profile.driver.prepareBodyShots(session: session, logger: logger)
        let expecting = quality?.objectCount
        // Objects already on the card are not the run's: families that find new objects by listing compare with
        // these (a camera that refuses the listing, such as a Sony in PC Remote, has none to compare). Read before
        // the run says it has started, so a shot taken from then on is never among them.
        var seen = Set((try? await session.getObjectHandles()) ?? [])
        let history = Journal.read(folder: store.folder)
        let firstSequence = 1 + JournalEntry.shotsTaken(in: history, outside: journal.runID)

        var start = JournalEntry(JournalEntry.Event.runStarted)
        start.format = options.original ? "original" : format.description
        start.detail =
            "tether: shots taken on the camera"
            + (options.count.map { ", until \($0) shot\($0 == 1 ? "" : "s")" } ?? "")
            + (options.duration.map { ", for \($0.seconds) s" } ?? "")
            + (quality.map { ", the camera's quality \($0)" } ?? ", the camera's quality unknown")
            + "; \(format.reason); driver \(profile.driver.name), profile \(profile.name)"
        try journal.record(start)
        logger.debug("\(start.detail ?? "")")
        if options.format == .jpeg, let quality, !quality.includesJPEG {
            let message = "--format jpeg, but the camera is set to \(quality): its shots have no JPEG to save"
            var entry = JournalEntry(JournalEntry.Event.warning)
            entry.detail = message
            try journal.record(entry)
            observer(.warning(message))
        }
        observer(.started(frames: options.count, format: start.format ?? format.description, camera: camera))

        var downloader = ObjectDownloader(operations: deviceInfo.operationsSupported)
        if !profile.partialObjectDownloads { downloader.usesPartialObject = false }
        let dngOptions = DNGOptions(compression: options.compression)
        let processor = ShotProcessor(
            format: format, keepJPEG: options.keepJPEG, options: dngOptions, namer: options.namer, camera: camera,
            serial: serial, store: store, journal: journal, logger: logger, observer: observer)
        // A shot with only a JPEG (the body set to JPEG) is saved as its JPEG.
        let jpegProcessor = ShotProcessor(
            format: ResolvedFormat(product: .jpeg, rawBitDepth: nil, reason: "the camera's JPEG"), keepJPEG: false,
            options: dngOptions, namer: options.namer, camera: camera, serial: serial, store: store,
            journal: journal, logger: logger, observer: observer)
        let originals = OriginalSaver(
            namer: options.namer, camera: camera, serial: serial, store: store, journal: journal, observer: observer)

        let clock = ContinuousClock()
        let runStart = clock.now
        var encoding: (task: Task<[SavedFile], any Error>, delete: [AnnouncedObject])?
        var index = 0
        // --reconnect: the objects of the shot whose download the camera's departure cut, fetched again once it is
        // back; and the last request the camera answered, for the keep-alive.
        var interrupted: [AnnouncedObject] = []
        var retry: [AnnouncedObject]?
        var lastRequest = clock.now
        func collect() async throws {
            guard let pending = encoding else { return }
            encoding = nil
            let files = try await pending.task.value
            summary.files += files
            // Only what is on disk: a JPEG used only as the DNG's preview stays on the card.
            for object in pending.delete where files.contains(where: { $0.handle == object.handle.rawValue }) {
                try await deleteFromCamera(object)
            }
        }
        do {
            while true {
                if stop.isRequested {
                    summary.interrupted = true
                    break
                }
                if let count = options.count, index >= count { break }
                var wait = Self.waitSlice
                if let duration = options.duration {
                    let left = runStart + duration - clock.now
                    if left <= .zero { break }
                    wait = min(wait, left)
                }
                let shotIndex = index
                let first = FirstAnnouncement()
                do {
                let journal = journal
                let announce: @Sendable (AnnouncedObject) async -> Void = { object in
                    if let offset = first.mark(since: runStart) {
                        var taken = JournalEntry(JournalEntry.Event.shotTaken)
                        taken.shot = shotIndex
                        taken.started = offset
                        journal.recordQuietly(taken)
                    }
                    journal.recordQuietly(JournalEntry.announced(object, shot: shotIndex))
                }
                var objects: [AnnouncedObject] = []
                let triggered: ContinuousClock.Instant
                let isRetry = retry != nil
                var byHost = !isRetry && trigger.take()
                if let again = retry {
                    // The shot the camera's departure cut: its objects, once more.
                    retry = nil
                    objects = again
                } else if byHost {
                    // Body shots the camera has announced go first: a host capture may take the camera's buffer for
                    // its own (Sony's drops what waits at 0xFFFFC001 before its press). One poll's worth.
                    let waiting = try await profile.driver.bodyShot(
                        session: session, expecting: expecting, timing: options.timing,
                        wait: bodyShotPollInterval + .milliseconds(10), seen: seen, announce: announce)
                    if !waiting.isEmpty || first.instant != nil {
                        trigger.request()
                        byHost = false
                        objects = waiting
                    }
                }
                if isRetry {
                    observer(.shotStarted(frame: shotIndex + 1))
                    triggered = clock.now
                } else if byHost {
                    var requested = JournalEntry(JournalEntry.Event.shotRequested)
                    requested.shot = shotIndex
                    requested.started = (clock.now - runStart).seconds
                    requested.detail = "SIGUSR1"
                    try journal.record(requested)
                    observer(.shotStarted(frame: shotIndex + 1))
                    triggered = clock.now
                    first.markRequested()
                    objects = try await profile.driver.captureBetweenBodyShots(
                        session: session, expecting: expecting, timing: options.timing, announce: announce)
                } else {
                    if first.instant == nil {
                        objects = try await profile.driver.bodyShot(
                            session: session, expecting: expecting, timing: options.timing, wait: wait, seen: seen,
                            announce: announce)
                    }
                    guard let at = first.instant else {
                        // No shot yet: a cheap request now and then keeps a camera that waits on its event channel
                        // from sleeping (and finds one that left).
                        if let keepAlive, clock.now - lastRequest >= keepAlive {
                            try await profile.driver.keepAlive(session: session)
                            lastRequest = clock.now
                        }
                        continue
                    }
                    observer(.shotStarted(frame: shotIndex + 1))
                    triggered = at
                }
                guard !objects.isEmpty else { continue }
                lastRequest = clock.now
                interrupted = objects
                let captured = clock.now
                let progress: @Sendable (Int) -> Void = { [observer] count in observer(.bytesReceived(count)) }
                let product = options.original ? nil : format.product
                var downloaded: [(AnnouncedObject, [UInt8])] = []
                for object in objects {
                    // The raw file is not needed for a JPEG product; everything is for originals.
                    if product == .jpeg, !object.isJPEG { continue }
                    let bytes = try await downloader.fetch(
                        object, shot: shotIndex, session: session, journal: journal, progress: progress)
                    downloaded.append((object, bytes))
                }
                try await profile.driver.downloaded(objects, session: session)
                interrupted = []
                for object in objects where object.info.storageID.rawValue != 0 && object.data == nil {
                    seen.insert(object.handle)
                }
                let done = clock.now
                let raw = downloaded.first { !$0.0.isJPEG }
                let jpeg = downloaded.first { $0.0.isJPEG }
                let shot = ShotProcessor.Shot(
                    frame: shotIndex + 1, index: shotIndex, bracket: nil, date: Date(),
                    sequence: firstSequence + shotIndex, raw: raw, jpeg: jpeg,
                    captureSeconds: (captured - triggered).seconds, downloadSeconds: (done - captured).seconds,
                    triggered: triggered)
                let chosen = raw == nil && product != .jpeg ? jpegProcessor : processor
                if raw == nil, product != .jpeg, !options.original {
                    let message = "shot \(shotIndex + 1): the camera stored only a JPEG; it is saved as it is"
                    var entry = JournalEntry(JournalEntry.Event.warning)
                    entry.shot = shotIndex
                    entry.detail = message
                    journal.recordQuietly(entry)
                    observer(.warning(message))
                }
                // One shot saving at a time: the previous one's files first.
                try await collect()
                let toDelete = options.deleteAfter ? objects.filter(\.isOnCard) : []
                let originalObjects = downloaded
                encoding = (
                    Task.detached {
                        if options.original { return try originals.save(shot: shot, objects: originalObjects) }
                        return try chosen.process(shot)
                    }, toDelete
                )
                if byHost { summary.hostShots += 1 } else { summary.bodyShots += 1 }
                index += 1
                } catch let error
                    where reconnector != nil && !stop.isRequested && CameraReconnector.meansCameraGone(error)
                {
                    guard let reconnector else { throw error }
                    var loss: any Error = error
                    while true {
                        _ = try await reconnector.recover(
                            from: loss, session: session, serialNumber: serial, shot: index, journal: journal,
                            observer: observer, stop: stop, logger: logger)
                        do {
                            // The camera may have forgotten the remote session and the body-shot setup.
                            try await profile.driver.prepare(session: session, logger: logger)
                            try await profile.driver.prepareBodyShots(session: session, logger: logger)
                            break
                        } catch let again where !stop.isRequested && CameraReconnector.meansCameraGone(again) {
                            loss = again
                        }
                    }
                    lastRequest = clock.now
                    // The shot in flight: its objects again when they are still the camera's (a card file is; what
                    // a power cycle wiped from its memory is journaled as not saved when the download fails).
                    if !interrupted.isEmpty {
                        retry = interrupted.filter { $0.data == nil }
                        if retry?.isEmpty == true { retry = nil }
                        interrupted = []
                    }
                }
            }
        } catch {
            if let pending = encoding { summary.files += (try? await pending.task.value) ?? [] }
            throw error
        }
        try await collect()
    }

    /// Deletes `object` from the card (`--delete`), once its shot's files are on disk; journaled as `object-deleted`.
    private func deleteFromCamera(_ object: AnnouncedObject) async throws {
        try await session.deleteObject(object.handle)
        var entry = JournalEntry(JournalEntry.Event.objectDeleted)
        entry.handle = object.handle.rawValue
        entry.cameraFile = object.info.filename
        try journal.record(entry)
    }
}

extension AnnouncedObject {
    /// Whether it is a file on a card (not an object held in the camera's memory for the host, nor one read once
    /// from a buffer): what `--delete` may delete.
    var isOnCard: Bool { info.storageID.rawValue != 0 && data == nil && handle.rawValue < 0x8000_0000 }
}

/// When a shot's first object was announced: the start of its timings, and the moment its `shot-taken` line goes
/// in the journal (before its objects').
private final class FirstAnnouncement: Sendable {
    private let state = Mutex<(at: ContinuousClock.Instant?, requested: Bool)>((nil, false))

    /// A host-triggered shot: its `shot-requested` line is already in the journal.
    func markRequested() { state.withLock { $0.requested = true } }

    /// Notes an announcement; the first time, for a body shot, returns its offset from `start` in seconds.
    func mark(since start: ContinuousClock.Instant) -> Double? {
        state.withLock { state in
            guard state.at == nil else { return nil }
            let now = ContinuousClock.now
            state.at = now
            return state.requested ? nil : (now - start).seconds
        }
    }

    /// The first announcement, or `nil` before any.
    var instant: ContinuousClock.Instant? { state.withLock { $0.at } }
}

/// `--original`: a shot's objects saved as the camera wrote them, under one stem (a RAW+JPEG pair as one shot), each
/// with its camera extension, through ``OutputStore`` (never overwriting), journaled as `file-written` with kind
/// `original` (the camera's JPEG: `jpeg`), as `pull --original` does.
struct OriginalSaver: Sendable {
    var namer: FileNamer
    var camera: String
    var serial: String
    var store: OutputStore
    var journal: Journal
    var observer: @Sendable (CaptureEvent) -> Void

    func save(shot: ShotProcessor.Shot, objects: [(AnnouncedObject, [UInt8])]) throws -> [SavedFile] {
        let clock = ContinuousClock()
        let started = clock.now
        let values = FileNamer.Values(
            date: shot.date, sequence: shot.sequence, frameNumber: shot.frame, camera: camera, serial: serial,
            bracket: nil, cameraFile: objects.first?.0.info.filename ?? "")
        let extensions = objects.map { Self.fileExtension(of: $0.0) }
        // As ShotProcessor names a shot: subfolders made, a name taken meanwhile moving within its subfolder.
        let namedStem = namer.stem(values)
        try store.makeSubfolders(for: namedStem)
        let baseStem = FileNamer.leaf(namedStem)
        let stem = store.reserveStem(namedStem, extensions: extensions)
        defer { store.release(stem, extensions: extensions) }
        var saved: [SavedFile] = []
        for ((object, bytes), fileExtension) in zip(objects, extensions) {
            let path = try store.write(
                bytes, name: stem + "." + fileExtension, whenTaken: .nextFree(stem: baseStem, fileExtension: fileExtension))
            let sha256 = MessageDigest.hex(MessageDigest.hash(.sha256, bytes))
            let now = clock.now
            // As `pull --original` names them: the camera's JPEG is `jpeg`, any other file `original`.
            let kind = object.isJPEG ? "jpeg" : "original"
            let file = SavedFile(
                path: path, size: bytes.count, sha256: sha256, camera: camera, serial: serial, format: kind,
                frame: shot.frame, bracket: nil, handle: object.handle.rawValue, cameraFile: object.info.filename,
                exposure: nil,
                timings: SavedFile.Timings(
                    capture: shot.captureSeconds, download: shot.downloadSeconds, encode: (now - started).seconds,
                    total: (now - shot.triggered).seconds))
            var entry = JournalEntry(JournalEntry.Event.fileWritten)
            entry.shot = shot.index
            entry.handle = object.handle.rawValue
            entry.cameraFile = object.info.filename
            entry.captureDate = object.info.captureDate
            entry.path = path
            entry.size = UInt64(bytes.count)
            entry.sha256 = sha256
            entry.kind = kind
            entry.format = kind
            try journal.record(entry)
            saved.append(file)
            observer(.saved(file))
        }
        return saved
    }

    /// The camera file's extension in lower case (letters and digits only), or one from its format.
    static func fileExtension(of object: AnnouncedObject) -> String {
        let name = object.info.filename
        if let dot = name.lastIndex(of: "."), name.index(after: dot) < name.endIndex {
            let candidate = name[name.index(after: dot)...].lowercased()
            if candidate.count <= 8, candidate.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
                return candidate
            }
        }
        return object.isJPEG ? "jpg" : "raw"
    }
}
