import DNG
import Dispatch
import FoundationEssentials
import Logging
import PTP
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `rawcap pull` and `rawcap ls`: objects already on the card, listed, or downloaded and saved (converted to DNG,
/// or as the camera wrote them), with the journal recording each file; `--resume` fetches what the journal says
/// was announced but never written (a run cut by a crash, a disconnect or Ctrl-C).
public struct Puller: Sendable {
    /// Which objects.
    public enum Selection: Hashable, Sendable {
        /// Every image object.
        case all
        /// Objects the journal has no file for.
        case new
        /// These handles.
        case handles([UInt32])
        /// Objects the journal saw announced and never wrote.
        case resume
    }

    /// The session (open).
    public var session: PTPSession
    /// The folder.
    public var store: OutputStore
    /// The journal.
    public var journal: Journal
    /// Logs.
    public var logger: Logger
    /// Receives progress.
    public var observer: @Sendable (CaptureEvent) -> Void
    /// Stops the pull after the file being written (Ctrl-C).
    public var stop: StopSignal
    /// How the DNGs store their raw data (`pull --compression`).
    public var compression: DNGOptions.Compression = .lossless
    /// What raw files become (`pull --format`): a CFA DNG, a LinearRaw DNG or a 16-bit TIFF rendering.
    public var product: ResolvedFormat.Product = .bayer
    /// File names from a template (`pull --name`); `nil` keeps the camera's names.
    public var namer: FileNamer?
    /// Pull files again that the folder already has (`pull --again`); otherwise `--all` skips them.
    public var again = false
    /// With `--reconnect`: waits for the camera when it leaves the link and goes on; `nil` lets the pull fail.
    public var reconnector: CameraReconnector?

    /// Creates a puller.
    public init(
        session: PTPSession, store: OutputStore, journal: Journal, logger: Logger, stop: StopSignal = StopSignal(),
        observer: @escaping @Sendable (CaptureEvent) -> Void = { _ in }
    ) {
        self.session = session
        self.store = store
        self.journal = journal
        self.logger = logger
        self.stop = stop
        self.observer = observer
    }

    /// Every image object on the camera (folders left out), in handle order.
    public func list() async throws -> [CardObject] {
        var objects: [CardObject] = []
        for handle in try await session.getObjectHandles() {
            let info = try await session.getObjectInfo(handle)
            guard info.objectFormat != .association else { continue }
            objects.append(CardObject(handle: handle, info: info))
        }
        return objects
    }

    /// Keys (``CardObject/key``) of the objects the journal has a file for, for camera `serial`.
    public static func pulledKeys(_ entries: [JournalEntry], serial: String) -> Set<String> {
        Set(
            entries.filter { $0.event == JournalEntry.Event.fileWritten && $0.serial == serial }
                .compactMap { entry in entry.cameraFile.map { "\($0)|\(entry.captureDate ?? "")" } })
    }

    /// Keys of objects the journal has a file for, for camera `serial`, whose file is still there (at its journaled
    /// path, or by its name in `folder` when the folder moved).
    public static func presentKeys(_ entries: [JournalEntry], serial: String, folder: String) -> Set<String> {
        Set(
            entries.filter { $0.event == JournalEntry.Event.fileWritten && $0.serial == serial }
                .compactMap { entry -> String? in
                    guard let cameraFile = entry.cameraFile, let path = entry.path else { return nil }
                    let name = path.split(separator: "/").last.map(String.init) ?? path
                    let there =
                        FileManager.default.fileExists(atPath: path)
                        || FileManager.default.fileExists(atPath: folder + "/" + name)
                    return there ? "\(cameraFile)|\(entry.captureDate ?? "")" : nil
                })
    }

    /// The stem `namer` gives the object (its capture date, or now), with the subfolders it names created.
    func namedStem(_ namer: FileNamer, object: CardObject, sequence: Int, frame: Int, camera: String, serial: String)
        throws -> String
    {
        let stem = namer.stem(
            FileNamer.Values(
                date: Self.captureDate(object) ?? Date(), sequence: sequence, frameNumber: frame, camera: camera,
                serial: serial, bracket: nil, cameraFile: object.info.filename))
        try store.makeSubfolders(for: stem)
        return stem
    }

    /// The object's capture date as a point in time (read as the host's local time, as cameras keep it).
    static func captureDate(_ object: CardObject) -> Date? {
        guard let date = object.info.captureDateTime else { return nil }
        var parts = tm()
        parts.tm_year = Int32(date.year - 1900)
        parts.tm_mon = Int32(date.month - 1)
        parts.tm_mday = Int32(date.day)
        parts.tm_hour = Int32(date.hour)
        parts.tm_min = Int32(date.minute)
        parts.tm_sec = Int32(date.second)
        parts.tm_isdst = -1
        let seconds = mktime(&parts)
        return seconds == -1 ? nil : Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Keys of objects announced for `serial` and never written (nor deliberately left, such as a JPEG used only
    /// as a preview).
    public static func unfinishedKeys(_ entries: [JournalEntry], serial: String) -> Set<String> {
        let announced = Set(
            entries.filter { $0.event == JournalEntry.Event.objectAnnounced && $0.serial == serial }
                .compactMap { entry in entry.cameraFile.map { "\($0)|\(entry.captureDate ?? "")" } })
        let settled = Set(
            entries.filter {
                ($0.event == JournalEntry.Event.fileWritten || $0.event == JournalEntry.Event.objectNotSaved)
                    && $0.serial == serial
            }.compactMap { entry in entry.cameraFile.map { "\($0)|\(entry.captureDate ?? "")" } })
        return announced.subtracting(settled)
    }

    /// The `object-announced` entries of objects announced for `serial`, never settled, and not among `onCamera`
    /// (one per object, the latest): what `--resume` cannot fetch any more.
    public static func unreachable(_ entries: [JournalEntry], serial: String, onCamera: [CardObject]) -> [JournalEntry] {
        let unfinished = unfinishedKeys(entries, serial: serial)
        let present = Set(onCamera.map(\.key))
        var latest: [String: JournalEntry] = [:]
        var order: [String] = []
        for entry in entries where entry.event == JournalEntry.Event.objectAnnounced && entry.serial == serial {
            guard let file = entry.cameraFile else { continue }
            let key = "\(file)|\(entry.captureDate ?? "")"
            guard unfinished.contains(key), !present.contains(key) else { continue }
            if latest[key] == nil { order.append(key) }
            latest[key] = entry
        }
        return order.compactMap { latest[$0] }
    }

    /// Why an announced object is no longer on the camera: one held in the camera's memory for the host (storage 0,
    /// or the memory handles Nikon's SDRAM capture 0xFFFF0001 and Sony's 0xFFFFC001 use) is let go when the session
    /// that announced it ends (libgphoto2 reads those only within the capture that made them: `camera_nikon_capture`,
    /// `camera_sony_capture`, and the EOS TransferComplete of `camera_canon_eos_capture`); one on a card was deleted
    /// there, or the card changed.
    static func lossReason(_ announced: JournalEntry) -> String {
        let memoryHandles: Set<UInt32> = [
            NikonCaptureSequence.sdramHandle.rawValue, SonyControl.capturedObjectHandle.rawValue,
        ]
        let run = announced.run.isEmpty ? "" : " (run \(announced.run))"
        if announced.storage == 0 || announced.handle.map(memoryHandles.contains) == true {
            return "lost: announced\(run) but not saved, and held only in the camera's memory for the host, not on "
                + "its card; the camera let go of it when that session ended"
        }
        return "lost: announced\(run) but not saved, and no longer on the camera's card (deleted there, or the card "
            + "was changed)"
    }

    /// Downloads the selected objects and saves them: raw objects as DNG (`original == false`; the JPEG of the
    /// same stem becomes the preview and is saved too), or every object as the camera wrote it. With
    /// `deleteAfter`, each object is deleted from the camera once its file is on disk and journaled.
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/invalidPlan`` for a handle that is not on the camera, or what the
    ///   session, decoder and writer throw.
    public func pull(_ selection: Selection, original: Bool, deleteAfter: Bool) async throws -> [SavedFile] {
        guard let reconnector else {
            return try await pull(selection, original: original, deleteAfter: deleteAfter, excluding: [])
        }
        // --reconnect: a camera that goes away is waited for, and the pull goes on with what this run has not
        // written yet (the journal's file-written entries of this run).
        // Every file saved, also by an attempt the camera's departure cut short.
        let collected = SavedFiles()
        var counting = self
        counting.observer = { [observer] event in
            if case .saved(let file) = event { collected.append(file) }
            observer(event)
        }
        var written: Set<String> = []
        let serial = try await session.deviceInfo().serialNumber
        while true {
            do {
                _ = try await counting.pull(selection, original: original, deleteAfter: deleteAfter, excluding: written)
                return collected.files
            } catch where !stop.isRequested && CameraReconnector.meansCameraGone(error) {
                let entries = Journal.read(folder: store.folder).filter { $0.run == journal.runID }
                written = Self.pulledKeys(entries, serial: serial)
                _ = try await reconnector.recover(
                    from: error, session: session, serialNumber: serial, shot: nil, journal: journal,
                    observer: observer, stop: stop, logger: logger)
            }
        }
    }

    private func pull(_ selection: Selection, original: Bool, deleteAfter: Bool, excluding written: Set<String>)
        async throws -> [SavedFile]
    {
        let deviceInfo = try await session.deviceInfo()
        let camera = deviceInfo.model.isEmpty ? "camera" : deviceInfo.model
        let serial = deviceInfo.serialNumber
        journal.camera = camera
        journal.serial = serial
        let objects = try await list()
        let entries = Journal.read(folder: store.folder)
        var chosen: [CardObject]
        // --resume: objects the journal has announced that the camera no longer has (journaled as lost below).
        var lost: [JournalEntry] = []
        switch selection {
        case .all where again:
            chosen = objects
        case .all:
            // What this folder already has (journaled and still on disk) is not copied again as -1 files.
            let present = Self.presentKeys(entries, serial: serial, folder: store.folder)
            chosen = objects.filter { !present.contains($0.key) }
            let skipped = objects.count - chosen.count
            if skipped > 0 {
                observer(
                    .warning(
                        "\(skipped) file\(skipped == 1 ? "" : "s") already pulled into \(store.folder) skipped "
                            + "(--again pulls them again)"))
            }
        case .new:
            let pulled = Self.pulledKeys(entries, serial: serial)
            chosen = objects.filter { !pulled.contains($0.key) }
        case .resume:
            let unfinished = Self.unfinishedKeys(entries, serial: serial)
            chosen = objects.filter { unfinished.contains($0.key) }
            lost = Self.unreachable(entries, serial: serial, onCamera: objects)
        case .handles(let handles):
            chosen = try handles.map { handle in
                guard let object = objects.first(where: { $0.handle.rawValue == handle }) else {
                    throw CaptureError(
                        .invalidPlan, "no object with handle \(handle) on the camera (rawcap ls lists them)")
                }
                return object
            }
        }
        // After a reconnect: what this run has written already is not pulled again.
        if !written.isEmpty { chosen = chosen.filter { !written.contains($0.key) } }
        var start = JournalEntry(JournalEntry.Event.runStarted)
        start.format = original ? "original" : "dng"
        start.detail =
            "pull \(selection): \(chosen.count) object(s)" + (written.isEmpty ? "" : " after the camera came back")
        try journal.record(start)
        // Each settled as not saved, with why: the next --resume does not look for it again.
        for announced in lost {
            var entry = JournalEntry(JournalEntry.Event.objectNotSaved)
            entry.handle = announced.handle
            entry.cameraFile = announced.cameraFile
            entry.captureDate = announced.captureDate
            entry.detail = Self.lossReason(announced)
            try journal.record(entry)
        }
        if !lost.isEmpty {
            let names = lost.compactMap(\.cameraFile).joined(separator: ", ")
            observer(
                .warning(
                    "\(lost.count) announced object\(lost.count == 1 ? "" : "s") the camera no longer has cannot be "
                        + "fetched (\(names)); the journal says why (object-not-saved)"))
        }
        observer(.started(frames: chosen.count, format: original ? "original" : "dng", camera: camera))

        var downloader = ObjectDownloader(operations: deviceInfo.operationsSupported)
        if let identity = await session.identity, !identity.allowsPartialObject { downloader.usesPartialObject = false }
        let progress: @Sendable (Int) -> Void = { [observer] count in observer(.bytesReceived(count)) }
        var saved: [SavedFile] = []
        var done: Set<ObjectHandle> = []
        // Saving (fsync and rename, converting to DNG and writing, the journal) runs on a thread of its own while
        // the next object downloads; one save at a time, so files and journal entries keep their order. Originals
        // are written into their temporary files as they download (DownloadFile), so their save is the commit.
        // With --delete-after each object is saved before it is deleted.
        let saveQueue = DispatchQueue(label: "rawcap.pull.save")
        var inFlight: BackgroundSave?
        // An original downloaded into its temporary file whose save has not started (the previous save failed).
        var unsaved: (file: DownloadFile, stem: String, ext: String)?
        // `frame` is a shot, as in shoot: the camera's files of one stem (a RAW file and its JPEG) share a number.
        var frames: [String: Int] = [:]
        do {
            for (index, object) in chosen.enumerated() where !done.contains(object.handle) {
                let frame = frames[object.stem] ?? frames.count + 1
                frames[object.stem] = frame
                if stop.isRequested {
                    if let job = inFlight { saved += try await job.value() }
                    inFlight = nil
                    var end = JournalEntry(JournalEntry.Event.runFinished)
                    end.detail = "interrupted"
                    end.files = saved.count
                    journal.recordQuietly(end)
                    throw CaptureError(
                        .interrupted, "stopped after \(saved.count) files; rawcap pull --new fetches the rest")
                }
                observer(.shotStarted(frame: index + 1))
                let announced = AnnouncedObject(handle: object.handle, info: object.info)
                let save: @Sendable () throws -> [SavedFile]
                var twin: CardObject?
                if original || !object.isRaw {
                    // Streamed into its temporary file as it arrives; the save below commits it.
                    let ext = object.originalExtension
                    let named =
                        try namer.map {
                            try namedStem($0, object: object, sequence: index + 1, frame: frame, camera: camera, serial: serial)
                        } ?? object.stem
                    let stem = store.reserveStem(named, extensions: [ext])
                    let file: DownloadFile
                    do {
                        file = try await downloader.download(
                            announced, session: session, toFileAt: store.path(stem + "." + ext),
                            whenTaken: .nextFree(stem: FileNamer.leaf(named), fileExtension: ext), progress: progress)
                    } catch {
                        store.release(stem, extensions: [ext])
                        throw error
                    }
                    unsaved = (file, stem, ext)
                    save = { [self] in
                        defer { store.release(stem, extensions: [ext]) }
                        return [
                            try saveOriginal(file, object: object, frame: frame, camera: camera, serial: serial)
                        ]
                    }
                } else {
                    // A raw object: its JPEG twin (same camera stem), when selected too, becomes the preview and is
                    // saved.
                    twin = chosen.first { $0.isJPEG && $0.stem == object.stem && !done.contains($0.handle) }
                    let rawBytes = try await downloader.download(announced, session: session, progress: progress)
                    var jpegPart: (object: AnnouncedObject, bytes: [UInt8])?
                    if let twin {
                        let twinObject = AnnouncedObject(handle: twin.handle, info: twin.info)
                        jpegPart = (
                            twinObject, try await downloader.download(twinObject, session: session, progress: progress)
                        )
                    }
                    let processor = ShotProcessor(
                        format: ResolvedFormat(product: product, rawBitDepth: nil, linearFallback: true, reason: "pull"),
                        keepJPEG: twin != nil, options: DNGOptions(compression: compression),
                        namer: namer ?? (try? FileNamer(template: object.stem)) ?? .standard, camera: camera,
                        serial: serial, store: store, journal: journal, logger: logger, observer: observer)
                    let shot = ShotProcessor.Shot(
                        frame: frame, index: frame - 1, bracket: nil, date: Self.captureDate(object) ?? Date(),
                        sequence: index + 1,
                        raw: (announced, rawBytes), jpeg: jpegPart, captureSeconds: 0, downloadSeconds: 0,
                        triggered: ContinuousClock().now)
                    save = { try processor.process(shot) }
                }
                if let job = inFlight { saved += try await job.value() }
                inFlight = BackgroundSave(queue: saveQueue, save)
                unsaved = nil
                done.insert(object.handle)
                if let twin { done.insert(twin.handle) }
                if deleteAfter, let job = inFlight {
                    saved += try await job.value()
                    inFlight = nil
                    try await delete(object)
                    if let twin { try await delete(twin) }
                }
            }
            if let job = inFlight { saved += try await job.value() }
            inFlight = nil
        } catch {
            // A failed download (or Ctrl-C) while a file is being saved: let that save finish, so no temporary file
            // is left half-written when the process exits.
            if let job = inFlight { _ = try? await job.value() }
            if let unsaved {
                unsaved.file.discard()
                store.release(unsaved.stem, extensions: [unsaved.ext])
            }
            throw error
        }
        var end = JournalEntry(JournalEntry.Event.runFinished)
        end.detail = "complete"
        end.files = saved.count
        journal.recordQuietly(end)
        return saved
    }

    /// Publishes an object downloaded as the camera sent it (`--original`, or a JPEG) and journals it.
    private func saveOriginal(_ file: DownloadFile, object: CardObject, frame: Int, camera: String, serial: String)
        throws -> SavedFile
    {
        let (size, sha256) = try file.commit()
        let saved = SavedFile(
            path: file.path, size: size, sha256: sha256, camera: camera, serial: serial,
            format: object.isJPEG ? "jpeg" : "original", frame: frame, bracket: nil, handle: object.handle.rawValue,
            cameraFile: object.info.filename, exposure: nil, timings: nil)
        try written(saved, object: object, kind: object.isJPEG ? "jpeg" : "original")
        return saved
    }

    private func written(_ file: SavedFile, object: CardObject, kind: String) throws {
        var entry = JournalEntry(JournalEntry.Event.fileWritten)
        entry.handle = object.handle.rawValue
        entry.cameraFile = object.info.filename
        entry.captureDate = object.info.captureDate
        entry.path = file.path
        entry.size = UInt64(file.size)
        entry.sha256 = file.sha256
        entry.kind = kind
        try journal.record(entry)
        observer(.saved(file))
    }

    private func delete(_ object: CardObject) async throws {
        try await session.deleteObject(object.handle)
        var entry = JournalEntry(JournalEntry.Event.objectDeleted)
        entry.handle = object.handle.rawValue
        entry.cameraFile = object.info.filename
        entry.captureDate = object.info.captureDate
        try journal.record(entry)
    }
}

/// One object's save, running on a Dispatch queue (not the two-thread concurrency pool: it blocks in `fsync`)
/// while the next object downloads.
final class BackgroundSave: @unchecked Sendable {
    private let group = DispatchGroup()
    // Written once on the queue before `group.leave()`, read only after the group is done.
    private var result: Result<[SavedFile], any Error>?

    init(queue: DispatchQueue, _ work: @escaping @Sendable () throws -> [SavedFile]) {
        group.enter()
        queue.async {
            self.result = Result { try work() }
            self.group.leave()
        }
    }

    /// Waits for the save (without holding a thread) and returns its files, or throws its error.
    func value() async throws -> [SavedFile] {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            group.notify(queue: .global()) { continuation.resume() }
        }
        guard let result else { preconditionFailure("BackgroundSave finished without a result") }
        return try result.get()
    }
}

/// Files saved so far, collected from a pull's observer.
private final class SavedFiles: Sendable {
    private let state = Mutex<[SavedFile]>([])

    func append(_ file: SavedFile) { state.withLock { $0.append(file) } }

    var files: [SavedFile] { state.withLock { $0 } }
}
