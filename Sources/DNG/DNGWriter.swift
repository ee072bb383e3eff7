import CLibTIFF
import OutputFiles
import RawImage
import TIFFVocabulary

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a ``DNGPlan`` with libtiff: the small adapter between the pure plan and the file.
///
/// Order of writing: the EXIF IFD first (`TIFFCreateEXIFDirectory` + `TIFFWriteCustomDirectory`, so that IFD0 can be
/// written once with the EXIF offset already known), then IFD0 with its thumbnail strip, then each SubIFD in order
/// (libtiff links them into IFD0's SubIFDs array). Pixel data is written with `TIFFWriteRawStrip`/`TIFFWriteRawTile`,
/// so libtiff never re-encodes it: lossless JPEG tiles are rawcap's own (libtiff's JPEG codec is DCT only) and the
/// preview JPEG is stored as it came.
///
/// libtiff's errors are caught per file (`TIFFOpenExt`-style options with `TIFFOpenOptionsSetErrorHandlerExtR`) and
/// the file IO goes through `TIFFClientOpenExt` callbacks, so a failing `write(2)` surfaces with its errno
/// (ENOSPC → ``DNGError/Code/diskFull``) rather than as libtiff's generic "Write error".
public enum DNGWriter {
    /// What a write produced.
    public struct Result: Sendable, Hashable {
        /// The file's size in bytes.
        public let byteCount: Int
        /// Where the file is: the path asked for, or the next free name when that was taken meanwhile
        /// (``OutputFile/WhenTaken/nextFree(stem:fileExtension:companions:)``).
        public internal(set) var path: String
        /// Warnings libtiff printed while writing (none are expected; kept for diagnostics).
        public let warnings: [String]
        /// The file's SHA-256, when ``DNGOptions/computesFileSHA256`` asked for it (`nil` also when the finished file
        /// could not be read back; the file is published then all the same).
        public var sha256: [UInt8]?
    }

    /// Writes `plan` as a new file at `path` through ``OutputFile``: a temporary file, `fsync`, then published without
    /// ever replacing an existing file. On any error nothing is left behind.
    @discardableResult
    public static func write(_ plan: DNGPlan, to path: String) throws(DNGError) -> Result {
        let file = try OutputFile.creatingDNG(at: path)
        var result = try write(plan, fileDescriptor: file.fileDescriptor, name: path)
        try file.commitDNG()
        result.path = file.path
        return result
    }

    /// Encodes `frame` and writes it to a new file at `path`; the file is byte-identical to planning with
    /// ``DNGEncoder/plan(for:previews:)-(RawFrame,_)`` and writing with ``write(_:to:)``, only faster.
    ///
    /// The raw digest (``RawImageDigest``, a multi-lane MD5 pass over every sample) runs on background threads while
    /// the planned file is written; the plan carries zero placeholders that are overwritten in place before the file
    /// is synced and published.
    @discardableResult
    public static func write(
        _ frame: RawFrame, previews: DNGPreviews, options: DNGOptions = DNGOptions(), to path: String,
        whenTaken: OutputFile.WhenTaken = .refuse
    ) throws(DNGError) -> Result {
        var encoder = DNGEncoder(options: options)
        encoder.streamsLosslessTiles = true
        return try write(
            to: path, whenTaken: whenTaken, pending: options.writesRawDigest ? encoder.pendingDigest(for: frame) : nil,
            fileDigest: options.computesFileSHA256
        ) { handling throws(DNGError) in
            try encoder.plan(for: frame, previews: .ready(previews), digest: handling)
        }
    }

    /// Encodes `frame` and writes it to a new file at `path` while its previews are still being rendered; the file
    /// is byte-identical to ``write(_:previews:options:to:)-(RawFrame,DNGPreviews,_,_)`` with the finished previews.
    ///
    /// The raw data is written first (the kernel starts writing it back to the disk while the previews render), the
    /// preview JPEG when the writer reaches the last SubIFD, and the thumbnail, which precedes the raw data, over the
    /// zeros that held its place. When the rendering fails or has another shape than ``PendingPreviews/expected``,
    /// the half-written file is discarded and the frame is written again with what was rendered.
    ///
    /// - Throws: ``DNGError``, or the error the rendering threw.
    @discardableResult
    public static func write(
        _ frame: RawFrame, previews: PendingPreviews, options: DNGOptions = DNGOptions(), to path: String,
        whenTaken: OutputFile.WhenTaken = .refuse
    ) throws -> Result {
        var encoder = DNGEncoder(options: options)
        encoder.streamsLosslessTiles = true
        do {
            return try write(
                to: path, whenTaken: whenTaken,
                pending: options.writesRawDigest ? encoder.pendingDigest(for: frame) : nil,
                fileDigest: options.computesFileSHA256, thumbnail: previews
            ) { handling throws(DNGError) in
                try encoder.plan(for: frame, previews: .pending(previews), digest: handling)
            }
        } catch {
            guard !previews.fitsPlan() else { throw error }
            return try write(frame, previews: try previews.wait(), options: options, to: path, whenTaken: whenTaken)
        }
    }

    /// Encodes a LinearRaw `image` and writes it to a new file at `path`, like
    /// ``write(_:previews:options:to:)-(RawFrame,_,_,_)``.
    @discardableResult
    public static func write(
        _ image: LinearImage, previews: DNGPreviews, options: DNGOptions = DNGOptions(), to path: String,
        whenTaken: OutputFile.WhenTaken = .refuse
    ) throws(DNGError) -> Result {
        var encoder = DNGEncoder(options: options)
        encoder.streamsLosslessTiles = true
        return try write(
            to: path, whenTaken: whenTaken, pending: options.writesRawDigest ? encoder.pendingDigest(for: image) : nil,
            fileDigest: options.computesFileSHA256
        ) { handling throws(DNGError) in
            try encoder.plan(for: image, previews: .ready(previews), digest: handling)
        }
    }

    /// Plans and writes a new file at `path`, computing `pending`'s digests alongside; with `thumbnail`, the plan's
    /// IFD0 strip is a placeholder that gets those previews' thumbnail at the end; with `fileDigest`, the finished
    /// file's SHA-256 is read back on another thread while this one syncs and publishes it.
    private static func write(
        to path: String, whenTaken: OutputFile.WhenTaken, pending: DNGEncoder.PendingDigest?, fileDigest: Bool,
        thumbnail previews: PendingPreviews? = nil,
        plan makePlan: (DNGEncoder.DigestHandling) throws(DNGError) -> DNGPlan
    ) throws(DNGError) -> Result {
        // Fail on an existing name before spending time on encoding (unless the file may move to a free name);
        // OutputFile checks again when publishing.
        let file = try OutputFile.creatingDNG(at: path, whenTaken: whenTaken)
        let plan = try makePlan(pending == nil ? .omitted : .placeholder)
        // Lossless tiles are still being encoded while the file is written (the plan's chunks wait for them). The
        // digest starts once they are all encoded, so that its threads never compete with the encoder's (two pools
        // on the same cores made two encoder threads slower than one); it overlaps the rest of the write and the
        // kernel's writeback instead, which leave the cores mostly idle.
        let digestJob = pending.map { pending in
            BackgroundJob {
                plan.waitUntilEncoded()
                return pending.compute()
            }
        }
        // On every way out, errors included: a digest thread still inside libcrypto while the process exits (a
        // failed write is often followed by exit) crashed rawcap after "disk full" (fault matrix).
        defer { _ = digestJob?.wait() }
        do throws(DNGError) {
            let thumbnail = { () throws(DNGError) -> [UInt8]? in
                guard let previews else { return nil }
                guard let pixels = previews.thumbnailPixels() else { throw PendingPreviews.changed }
                return pixels
            }
            var result = try write(plan, fileDescriptor: file.fileDescriptor, name: path, thumbnail: thumbnail) {
                guard let digests = digestJob?.wait() else { return [:] }
                return [
                    TIFFTag.newRawImageDigest.rawValue: digests.newRawImageDigest,
                    TIFFTag.rawDataUniqueID.rawValue: digests.rawDataUniqueID,
                ]
            }
            // The file is complete: its SHA-256 is read through a descriptor of its own (commit closes the file's).
            let fileDigestJob: BackgroundJob<Swift.Result<[UInt8], OutputFileError>>?
            do {
                fileDigestJob =
                    try fileDigest ? MessageDigest.hashFileInBackground(file.fileDescriptor, name: path) : nil
            } catch {
                throw DNGError(error)
            }
            do throws(DNGError) {
                try file.commitDNG()
            } catch {
                _ = fileDigestJob?.wait()
                throw error
            }
            // A file published but not read back is not a failed write: the caller, left without a digest, reads
            // the file itself and reports what it finds.
            result.sha256 = fileDigestJob.flatMap { try? $0.wait().get() }
            result.path = file.path
            return result
        } catch {
            // A failed write (disk full, a bad sample) stops the tiles not yet encoded.
            plan.cancelEncoding()
            throw error
        }
    }

    /// Writes `plan` into an open, empty file descriptor (readable and writable: libtiff reads back directory
    /// links). The descriptor stays open; the caller syncs and closes it.
    ///
    /// - Parameter name: the name libtiff uses in its messages, and the path in thrown errors.
    /// - Throws: ``DNGError/Code/libtiff`` with libtiff's message, an IO error with errno from the failing call, or
    ///   ``DNGError/Code/invalidPlan`` when libtiff declares a tag with a different type than the plan.
    public static func write(_ plan: DNGPlan, fileDescriptor: Int32, name: String) throws(DNGError) -> Result {
        try write(plan, fileDescriptor: fileDescriptor, name: name) { [:] }
    }

    /// Writes `plan`, then replaces IFD0 BYTE values with the ones `replacements` returns and IFD0's strip with the
    /// bytes `thumbnail` returns, if any (both called after libtiff has written the file and the kernel has been
    /// asked to start writing it back, so a slow computation such as the raw digest overlaps with the disk).
    static func write(
        _ plan: DNGPlan, fileDescriptor: Int32, name: String,
        thumbnail: () throws(DNGError) -> [UInt8]? = { nil }, replacements: () -> [UInt16: [UInt8]]
    ) throws(DNGError) -> Result {
        TIFFFieldRegistry.install()
        let context = TIFFFileContext(fileDescriptor: fileDescriptor, name: name)
        let handle = Unmanaged.passRetained(context)
        defer { handle.release() }
        let userData = handle.toOpaque()

        guard let options = TIFFOpenOptionsAlloc() else { throw DNGError(.libtiff, path: name, "out of memory") }
        defer { TIFFOpenOptionsFree(options) }
        TIFFOpenOptionsSetErrorHandlerExtR(options, TIFFFileContext.tiffErrorHandler, userData)
        TIFFOpenOptionsSetWarningHandlerExtR(options, TIFFFileContext.tiffWarningHandler, userData)

        // "w" creates a classic TIFF, "l" makes it little-endian ("II"), whatever the host (STYLE §1).
        guard
            let tif = TIFFClientOpenExt(
                name, "wl", userData, TIFFFileContext.tiffRead, TIFFFileContext.tiffWrite, TIFFFileContext.tiffSeek,
                TIFFFileContext.tiffClose, TIFFFileContext.tiffSize, TIFFFileContext.tiffMap, TIFFFileContext.tiffUnmap,
                options)
        else { throw context.failure("TIFFClientOpenExt") }

        do throws(DNGError) {
            let adapter = LibTIFFAdapter(tif: tif, context: context)
            try adapter.write(plan)
            guard TIFFFlush(tif) == 1 else { throw context.failure("TIFFFlush") }
        } catch {
            // TIFFCleanup frees without flushing, so a failed file gets no further writes.
            TIFFCleanup(tif)
            throw error
        }
        TIFFClose(tif)
        if let ioError = context.ioError { throw ioError }
        OutputFile.startWriteback(fileDescriptor)
        try DirectoryFixup(fileDescriptor: fileDescriptor, name: name)
            .apply(to: plan, replacing: replacements(), thumbnail: try thumbnail())
        var info = stat()
        guard fstat(fileDescriptor, &info) == 0 else { throw DNGError.system("fstat", path: name, errno: errno) }
        return Result(byteCount: Int(info.st_size), path: name, warnings: context.warnings, sha256: nil)
    }
}
