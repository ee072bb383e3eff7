import DNG
import OutputFiles
import PTP
import RawDecoders

/// Downloads camera objects: in chunks with GetPartialObject when the camera has it (a timeout or stall resumes
/// from the last byte), else with GetObject; always bounded by the object's announced size.
public struct ObjectDownloader: Sendable {
    /// The largest object rawcap downloads into memory (``RawDecoders/RawDecoder/maxFileSize``).
    public static let maxObjectByteCount = RawDecoder.maxFileSize

    /// Whether the camera has GetPartialObject.
    public var usesPartialObject: Bool

    /// Creates a downloader for a camera whose DeviceInfo lists `operations`.
    public init(operations: [OperationCode]) {
        usesPartialObject = operations.contains(.getPartialObject)
    }

    /// Downloads `object` into memory.
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/badObject`` when the camera sends another size than it
    ///   announced, or what the session throws.
    public func download(
        _ object: AnnouncedObject, session: PTPSession, progress: @escaping @Sendable (Int) -> Void
    ) async throws -> [UInt8] {
        let limit = try Self.limit(object)
        let buffer = DownloadBuffer(limit: limit, floor: await Self.floor(session), progress: progress)
        try await fetch(object, session: session, into: buffer)
        let bytes = await buffer.take()
        try Self.checkSize(object, received: bytes.count)
        return bytes
    }

    /// Downloads `object` straight into a new file at `path` (``DownloadFile``), for the caller to commit; on any
    /// failure the temporary file is removed before this throws.
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/badObject`` when the camera sends another size than it
    ///   announced, ``OutputFiles/OutputFileError`` when the file cannot be created or written, or what the session
    ///   throws.
    public func download(
        _ object: AnnouncedObject, session: PTPSession, toFileAt path: String,
        whenTaken: OutputFile.WhenTaken = .refuse, progress: @escaping @Sendable (Int) -> Void
    ) async throws -> DownloadFile {
        let limit = try Self.limit(object)
        let file = try DownloadFile(
            creatingAt: path, whenTaken: whenTaken, limit: limit, floor: await Self.floor(session), progress: progress)
        do {
            try await fetch(object, session: session, into: file)
            try Self.checkSize(object, received: file.byteCount)
        } catch {
            file.discard()
            throw error
        }
        return file
    }

    /// The most bytes `object` may have: its announced size, which must be within ``maxObjectByteCount``.
    private static func limit(_ object: AnnouncedObject) throws -> Int {
        let announced = object.info.byteCount
        if let announced, announced > UInt64(maxObjectByteCount) {
            throw CaptureError(
                .badObject,
                "\(object.info.filename) is \(announced) bytes, more than rawcap downloads (\(maxObjectByteCount))")
        }
        return Int(announced ?? UInt64(maxObjectByteCount))
    }

    /// A camera that trickles bytes just often enough never trips the session's per-read timeout: the floor
    /// stops it once the timeout's worth of grace is over.
    private static func floor(_ session: PTPSession) async -> DownloadBuffer.RateFloor {
        .standard(grace: max(await session.configuration.timeout * 2, .seconds(2)))
    }

    private func fetch(_ object: AnnouncedObject, session: PTPSession, into sink: any PTPDataSink) async throws {
        if usesPartialObject, let announced = object.info.byteCount, announced > 0 {
            try await session.downloadObject(object.handle, byteCount: announced, into: sink)
        } else {
            try await session.getObject(object.handle, into: sink)
        }
    }

    private static func checkSize(_ object: AnnouncedObject, received: Int) throws {
        if let announced = object.info.byteCount, UInt64(received) != announced {
            throw CaptureError(
                .badObject, "\(object.info.filename): the camera sent \(received) of \(announced) bytes")
        }
    }
}

extension ObjectDownloader {
    /// A shot's object in memory: the bytes the driver already read (`AnnouncedObject.data`), else downloaded; either
    /// way journaled as `object-downloaded` for shot `shot` with its size and time.
    func fetch(
        _ object: AnnouncedObject, shot: Int, session: PTPSession, journal: Journal,
        progress: @escaping @Sendable (Int) -> Void
    ) async throws -> [UInt8] {
        let clock = ContinuousClock()
        let began = clock.now
        let bytes: [UInt8]
        if let prefetched = object.data {
            bytes = prefetched
            progress(prefetched.count)
        } else {
            bytes = try await download(object, session: session, progress: progress)
        }
        var entry = JournalEntry(JournalEntry.Event.objectDownloaded)
        entry.shot = shot
        entry.handle = object.handle.rawValue
        entry.size = UInt64(bytes.count)
        entry.seconds = (clock.now - began).seconds
        try journal.record(entry)
        return bytes
    }
}
