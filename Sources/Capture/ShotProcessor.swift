import DNG
import FoundationEssentials
import JPEG
import Logging
import OutputFiles
import RawDecoders
import RawExport
import RawImage

#if canImport(Glibc)
    import Glibc
#endif

/// The encode stage of the pipeline: turns one shot's downloaded objects into files (DNG, TIFF, JPEG), through
/// ``OutputStore`` and with a journal line for each file. Runs off the download path, so the next shot downloads
/// while this one encodes.
public struct ShotProcessor: Sendable {
    /// One downloaded shot.
    public struct Shot: Sendable {
        /// The frame's number in the run, from 1.
        public var frame: Int
        /// The shot's index in the run (0-based; the journal's `shot`).
        public var index: Int
        /// The bracket step, in EV.
        public var bracket: Double?
        /// When it was triggered.
        public var date: Date
        /// Sequence number for `{seq}`.
        public var sequence: Int
        /// The raw object and its bytes.
        public var raw: (object: AnnouncedObject, bytes: [UInt8])?
        /// The JPEG object and its bytes.
        public var jpeg: (object: AnnouncedObject, bytes: [UInt8])?
        /// Seconds from trigger to the last object announced.
        public var captureSeconds: Double
        /// Seconds spent downloading.
        public var downloadSeconds: Double
        /// When it was triggered, for the total time.
        public var triggered: ContinuousClock.Instant
        /// In a focus bracket, the lens's position (the journal's `focusStep`); written into the file's metadata.
        public var focusStep: Int?

        /// Creates a shot.
        public init(
            frame: Int, index: Int, bracket: Double?, date: Date, sequence: Int,
            raw: (object: AnnouncedObject, bytes: [UInt8])?, jpeg: (object: AnnouncedObject, bytes: [UInt8])?,
            captureSeconds: Double, downloadSeconds: Double, triggered: ContinuousClock.Instant, focusStep: Int? = nil
        ) {
            self.frame = frame
            self.index = index
            self.bracket = bracket
            self.date = date
            self.sequence = sequence
            self.raw = raw
            self.jpeg = jpeg
            self.captureSeconds = captureSeconds
            self.downloadSeconds = downloadSeconds
            self.triggered = triggered
            self.focusStep = focusStep
        }
    }

    /// What each shot becomes.
    public var format: ResolvedFormat
    /// Save the camera's JPEG beside the raw file.
    public var keepJPEG: Bool
    /// DNG options.
    public var options: DNGOptions
    /// Naming.
    public var namer: FileNamer
    /// The camera's model and serial number, for names, the journal and reports.
    public var camera: String
    /// The serial number.
    public var serial: String
    /// The folder.
    public var store: OutputStore
    /// The journal.
    public var journal: Journal
    /// Logs.
    public var logger: Logger
    /// Receives warnings and saved files.
    public var observer: @Sendable (CaptureEvent) -> Void

    /// Creates a processor.
    public init(
        format: ResolvedFormat, keepJPEG: Bool, options: DNGOptions, namer: FileNamer, camera: String, serial: String,
        store: OutputStore, journal: Journal, logger: Logger = Logger(label: "rawcap.capture"),
        observer: @escaping @Sendable (CaptureEvent) -> Void = { _ in }
    ) {
        self.format = format
        self.keepJPEG = keepJPEG
        self.options = options
        self.namer = namer
        self.camera = camera
        self.serial = serial
        self.store = store
        self.journal = journal
        self.logger = logger
        self.observer = observer
    }

    /// Writes the shot's files; returns them in the order written (the raw product first).
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/badObject`` when a needed object is missing or does not
    ///   decode, `DNGError` or `OutputFileError` when a file cannot be written (nothing partial is left).
    public func process(_ shot: Shot) throws -> [SavedFile] {
        let clock = ContinuousClock()
        let started = clock.now
        var extensions: [String]
        switch format.product {
        case .bayer, .linear: extensions = ["dng"]
        case .tiff: extensions = ["tif"]
        case .jpeg: extensions = ["jpg"]
        }
        let savesJPEG = format.product != .jpeg && keepJPEG && shot.jpeg != nil
        if savesJPEG { extensions.append("jpg") }
        let values = FileNamer.Values(
            date: shot.date, sequence: shot.sequence, frameNumber: shot.frame, camera: camera, serial: serial,
            bracket: shot.bracket, cameraFile: (shot.raw ?? shot.jpeg)?.object.info.filename ?? "")
        // Another process writing into the folder may take a name meanwhile: the file then moves to the next free
        // one (`STEM-N`), its JPEG with it.
        let namedStem = namer.stem(values)
        try store.makeSubfolders(for: namedStem)
        // A name taken meanwhile moves within its subfolder: `nextFree` takes the file's own name.
        let baseStem = FileNamer.leaf(namedStem)
        let stem = store.reserveStem(namedStem, extensions: extensions)
        defer { store.release(stem, extensions: extensions) }
        if keepJPEG, format.product != .jpeg, shot.jpeg == nil {
            warn("frame \(shot.frame): --keep-jpeg, but the camera stored no JPEG for this shot", shot: shot)
        }

        var saved: [SavedFile] = []
        func record(
            path: String, size: Int, sha256: String, kind: String, formatName: String,
            object: AnnouncedObject, exposure: SavedFile.Exposure?
        ) throws {
            let now = clock.now
            let file = SavedFile(
                path: path, size: size, sha256: sha256, camera: camera, serial: serial, format: formatName,
                frame: shot.frame, bracket: shot.bracket, handle: object.handle.rawValue,
                cameraFile: object.info.filename, exposure: exposure,
                timings: SavedFile.Timings(
                    capture: shot.captureSeconds, download: shot.downloadSeconds,
                    encode: (now - started).seconds, total: (now - shot.triggered).seconds))
            var entry = JournalEntry(JournalEntry.Event.fileWritten)
            entry.shot = shot.index
            entry.handle = object.handle.rawValue
            entry.cameraFile = object.info.filename
            entry.captureDate = object.info.captureDate
            entry.path = path
            entry.size = UInt64(size)
            entry.sha256 = sha256
            entry.kind = kind
            entry.format = formatName
            try journal.record(entry)
            saved.append(file)
            observer(.saved(file))
        }

        if format.product == .jpeg {
            guard let jpeg = shot.jpeg else {
                throw CaptureError(.badObject, "frame \(shot.frame): the camera stored no JPEG")
            }
            let written = try Exporter.export(
                .original(jpeg.bytes),
                ExportRequest(
                    product: .original(fileExtension: "jpg"), compression: options.compression, computesSHA256: true,
                    destination: ExportDestination(pathStem: store.path(stem), freeStem: baseStem)))
            try record(
                path: written.path, size: written.byteCount, sha256: MessageDigest.hex(written.sha256 ?? []),
                kind: "jpeg", formatName: "jpeg", object: jpeg.object, exposure: nil)
            return saved
        }

        guard let raw = shot.raw else {
            throw CaptureError(
                .badObject,
                "frame \(shot.frame): the camera stored no raw file (only \(shot.jpeg?.object.info.filename ?? "nothing"))"
            )
        }
        // Beside the raw decoding and encoding, on other threads: the camera's JPEG is made into the DNG's previews,
        // and, with --keep-jpeg, written to its temporary file and synced (it is published only after the raw file
        // is safe and journaled, as before).
        let previewJob = shot.jpeg.map { jpeg in
            BackgroundJob { Result { try DNGPreviews.render(fromCameraJPEG: try JPEGImage(validating: jpeg.bytes)) } }
        }
        let jpegAhead =
            savesJPEG
            ? shot.jpeg.map {
                JPEGAhead(
                    $0.bytes, path: store.path(stem + ".jpg"),
                    whenTaken: .nextFree(stem: baseStem, fileExtension: "jpg"))
            } : nil
        defer { jpegAhead?.discard() }
        var decoded: DecodedRaw
        do {
            decoded = try RawDecoder.decode(raw.bytes[...])
            if let step = shot.focusStep { decoded.metadata.focusStep = step }
        } catch {
            throw CaptureError(.badObject, "frame \(shot.frame): \(raw.object.info.filename) does not decode: \(error)")
        }
        let cameraPreview = previewJob.flatMap { job -> DNGPreviews? in
            do {
                return try job.wait().get()
            } catch {
                warn(
                    "frame \(shot.frame): the camera's JPEG cannot be used as the preview (\(error)); rendering one",
                    shot: shot)
                return nil
            }
        }
        if format.product == .bayer, let frame = decoded.frame,
            let depth = format.rawBitDepth ?? format.expectedBitDepth, frame.bitsPerSample != depth
        {
            warn(
                "frame \(shot.frame): asked for \(depth)-bit raw, the camera sent \(frame.bitsPerSample)-bit",
                shot: shot)
        }
        let rawExtension = extensions.first ?? "dng"
        let product: ExportProduct
        switch format.product {
        case .bayer: product = .cfaDNG
        case .linear: product = .linearDNG
        case .tiff: product = .tiff
        case .jpeg: return saved  // handled above
        }
        // Linearisation, orientation, previews (the camera's JPEG, else rendered while the raw data is written), the
        // Software tag and the free name are the exporter's, as for convert.
        let request = ExportRequest(
            product: product, fallback: format.linearFallback ? .always : .never, compression: options.compression,
            previews: cameraPreview.map { .given($0) } ?? .rendered, computesSHA256: true,
            destination: ExportDestination(
                pathStem: store.path(stem), freeStem: baseStem, companions: savesJPEG ? ["jpg"] : []),
            dngOptions: options)
        let written: ExportResult
        do {
            written = try Exporter.export(.decoded(decoded), request)
        } catch let error as ExportError where error.code == .notCFA {
            throw CaptureError(
                .formatUnavailable,
                "\(format) needs Bayer data and the camera's raw is already demosaiced (LinearRaw); try --format linear or auto"
            )
        }
        switch written.fallback {
        case .alreadyLinear:
            warn(
                "auto: the camera's raw is already demosaiced (LinearRaw), so the DNG is linear, not Bayer", shot: shot)
        case .cfaRefused(let error):
            warn("auto: the raw cannot be stored as CFA data (\(error)); writing a linear DNG instead", shot: shot)
        case nil: break
        }
        let formatName: String
        switch written.kind {
        case .cfaDNG: formatName = "bayer\(written.bitsPerSample ?? 16)"
        case .linearDNG where format.product == .bayer: formatName = "linear"
        default: formatName = format.description
        }
        let exposure = written.metadata.map(Self.exposure)
        let final = written.path
        let kind = format.product == .tiff ? "tiff" : "dng"
        try record(
            path: final, size: written.byteCount, sha256: MessageDigest.hex(written.sha256 ?? []), kind: kind,
            formatName: formatName, object: raw.object, exposure: exposure)
        if let jpegAhead, let jpeg = shot.jpeg {
            // The JPEG keeps the raw file's stem, wherever that went.
            let finalName = final.split(separator: "/").last.map(String.init) ?? final
            let (path, sha256) = try jpegAhead.commit(name: String(finalName.dropLast(rawExtension.count)) + "jpg")
            try record(
                path: path, size: jpeg.bytes.count, sha256: sha256, kind: "jpeg", formatName: "jpeg",
                object: jpeg.object, exposure: exposure)
        }
        if !savesJPEG, let jpeg = shot.jpeg {
            var entry = JournalEntry(JournalEntry.Event.objectNotSaved)
            entry.shot = shot.index
            entry.handle = jpeg.object.handle.rawValue
            entry.cameraFile = jpeg.object.info.filename
            entry.captureDate = jpeg.object.info.captureDate
            entry.detail = "used as the DNG preview; not kept (no --keep-jpeg)"
            try journal.record(entry)
        }
        return saved
    }

    private func warn(_ message: String, shot: Shot) {
        // The observer shows it (rawcap's progress prints it once); the log keeps it for -v.
        logger.debug("\(message)")
        var entry = JournalEntry(JournalEntry.Event.warning)
        entry.shot = shot.index
        entry.detail = message
        journal.recordQuietly(entry)
        observer(.warning(message))
    }

    /// The exposure fields of `metadata`.
    static func exposure(_ metadata: CaptureMetadata) -> SavedFile.Exposure {
        SavedFile.Exposure(
            time: metadata.exposureTime?.description, seconds: metadata.exposureTime?.doubleValue,
            fNumber: metadata.fNumber, iso: metadata.iso, bias: metadata.exposureBias?.doubleValue)
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}

/// A camera JPEG written to its temporary file, synced and hashed on a background thread while the shot's raw file is
/// decoded and encoded (``ShotProcessor/process(_:)``); ``commit()`` then only publishes it. Until then it is a hidden
/// temporary file, removed by ``discard()``, so a shot whose raw file fails leaves no JPEG, as when the JPEG was
/// written after the raw file.
private final class JPEGAhead: Sendable {
    /// The file and its SHA-256, made on the job's thread and used after `wait()` only.
    private struct Prepared: @unchecked Sendable {
        let file: OutputFile
        let sha256: String
    }

    private let job: BackgroundJob<Result<Prepared, OutputFileError>>

    init(_ bytes: [UInt8], path: String, whenTaken: OutputFile.WhenTaken) {
        job = BackgroundJob {
            Result { () throws(OutputFileError) in
                let file = try OutputFile(creatingAt: path, whenTaken: whenTaken)
                try file.write(bytes)
                try file.sync()
                return Prepared(file: file, sha256: MessageDigest.hex(MessageDigest.hash(.sha256, bytes)))
            }
        }
    }

    /// Publishes the file as `name` in its folder (``OutputFiles/OutputFile/commit()``; the next free name when that is
    /// taken) and returns where it is and its SHA-256 in lowercase hex.
    ///
    /// - Throws: ``OutputFiles/OutputFileError`` when it could not be written or published; nothing is left then.
    func commit(name: String) throws(OutputFileError) -> (path: String, sha256: String) {
        let prepared = try job.wait().get()
        prepared.file.rename(to: name)
        try prepared.file.commit()
        return (prepared.file.path, prepared.sha256)
    }

    /// Waits for the job and removes the temporary file unless ``commit()`` published it.
    func discard() {
        if case .success(let prepared) = job.wait() { prepared.file.discard() }
    }
}
