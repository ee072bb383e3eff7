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
        let announced = object.info.byteCount
        if let announced, announced > UInt64(Self.maxObjectByteCount) {
            throw CaptureError(
                .badObject,
                "\(object.info.filename) is \(announced) bytes, more than rawcap downloads (\(Self.maxObjectByteCount))"
            )
        }
        // A camera that trickles bytes just often enough never trips the session's per-read timeout: the floor
        // stops it once the timeout's worth of grace is over.
        let grace = max(await session.configuration.timeout * 2, .seconds(2))
        let buffer = DownloadBuffer(
            limit: Int(announced ?? UInt64(Self.maxObjectByteCount)), floor: .standard(grace: grace),
            progress: progress)
        if usesPartialObject, let announced, announced > 0 {
            try await session.downloadObject(object.handle, byteCount: announced, into: buffer)
        } else {
            try await session.getObject(object.handle, into: buffer)
        }
        let bytes = await buffer.take()
        if let announced, UInt64(bytes.count) != announced {
            throw CaptureError(
                .badObject, "\(object.info.filename): the camera sent \(bytes.count) of \(announced) bytes")
        }
        return bytes
    }
}
