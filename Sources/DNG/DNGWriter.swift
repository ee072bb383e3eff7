import CLibTIFF
import RawImage

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
        /// Warnings libtiff printed while writing (none are expected; kept for diagnostics).
        public let warnings: [String]
    }

    /// Writes `plan` as a new file at `path` through ``OutputFile``: a temporary file, `fsync`, then published without
    /// ever replacing an existing file. On any error nothing is left behind.
    @discardableResult
    public static func write(_ plan: DNGPlan, to path: String) throws(DNGError) -> Result {
        let file = try OutputFile(creatingAt: path)
        let result = try write(plan, fileDescriptor: file.fileDescriptor, name: path)
        try file.commit()
        return result
    }

    /// Encodes `frame` and writes it to a new file at `path` (``DNGEncoder`` then ``write(_:to:)``).
    @discardableResult
    public static func write(
        _ frame: RawFrame, previews: DNGPreviews, options: DNGOptions = DNGOptions(), to path: String
    ) throws(DNGError) -> Result {
        // Fail on an existing name before spending time on encoding; OutputFile checks again when publishing.
        let file = try OutputFile(creatingAt: path)
        let plan = try DNGEncoder(options: options).plan(for: frame, previews: previews)
        let result = try write(plan, fileDescriptor: file.fileDescriptor, name: path)
        try file.commit()
        return result
    }

    /// Writes `plan` into an open, empty file descriptor (readable and writable: libtiff reads back directory
    /// links). The descriptor stays open; the caller syncs and closes it.
    ///
    /// - Parameter name: the name libtiff uses in its messages, and the path in thrown errors.
    /// - Throws: ``DNGError/Code/libtiff`` with libtiff's message, an IO error with errno from the failing call, or
    ///   ``DNGError/Code/invalidPlan`` when libtiff declares a tag with a different type than the plan.
    public static func write(_ plan: DNGPlan, fileDescriptor: Int32, name: String) throws(DNGError) -> Result {
        TIFFFieldRegistry.install()
        let context = TIFFFileContext(fileDescriptor: fileDescriptor, name: name)
        let handle = Unmanaged.passRetained(context)
        defer { handle.release() }
        let userData = handle.toOpaque()

        guard let options = TIFFOpenOptionsAlloc() else { throw DNGError(.libtiff, path: name, "out of memory") }
        defer { TIFFOpenOptionsFree(options) }
        TIFFOpenOptionsSetErrorHandlerExtR(options, tiffErrorHandler, userData)
        TIFFOpenOptionsSetWarningHandlerExtR(options, tiffWarningHandler, userData)

        // "w" creates a classic TIFF, "l" makes it little-endian ("II"), whatever the host (STYLE §1).
        guard
            let tif = TIFFClientOpenExt(
                name, "wl", userData, tiffRead, tiffWrite, tiffSeek, tiffClose, tiffSize, tiffMap, tiffUnmap, options)
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
        try DirectoryFixup(fileDescriptor: fileDescriptor, name: name).apply(to: plan)
        var info = stat()
        guard fstat(fileDescriptor, &info) == 0 else { throw DNGError.system("fstat", path: name, errno: errno) }
        return Result(byteCount: Int(info.st_size), warnings: context.warnings)
    }
}

/// Per-file state shared with libtiff's callbacks: the descriptor, the first IO error, and libtiff's messages.
final class TIFFFileContext {
    let fileDescriptor: Int32
    let name: String
    var ioError: DNGError?
    var errors: [String] = []
    var warnings: [String] = []

    init(fileDescriptor: Int32, name: String) {
        self.fileDescriptor = fileDescriptor
        self.name = name
    }

    /// The error to throw after a libtiff call failed: the underlying IO error when there was one (it explains
    /// libtiff's message), otherwise libtiff's own messages.
    func failure(_ call: String) -> DNGError {
        if let ioError { return ioError }
        let message = errors.isEmpty ? "no message from libtiff" : errors.joined(separator: "; ")
        return DNGError(.libtiff, path: name, "\(call) failed: \(message)")
    }

    static func from(_ handle: UnsafeMutableRawPointer?) -> TIFFFileContext? {
        handle.map { Unmanaged<TIFFFileContext>.fromOpaque($0).takeUnretainedValue() }
    }
}

// MARK: - libtiff callbacks (C function pointers; the context arrives as `thandle_t` or `user_data`)

private let tiffErrorHandler: TIFFErrorHandlerExtR = { _, userData, module, format, arguments in
    guard let arguments else { return 1 }
    TIFFFileContext.from(userData)?.errors.append(formatTIFFMessage(module, format, arguments))
    return 1  // handled: libtiff does not also print to stderr
}

private let tiffWarningHandler: TIFFErrorHandlerExtR = { _, userData, module, format, arguments in
    guard let arguments else { return 1 }
    TIFFFileContext.from(userData)?.warnings.append(formatTIFFMessage(module, format, arguments))
    return 1
}

private func formatTIFFMessage(
    _ module: UnsafePointer<CChar>?, _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer
) -> String {
    var buffer = [CChar](repeating: 0, count: 1024)
    if let format { _ = rc_tiff_format_message(&buffer, buffer.count, format, arguments) }
    let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard let module else { return text }
    return "\(String(cString: module)): \(text)"
}

private let tiffRead: TIFFReadWriteProc = { handle, buffer, requested in
    guard let context = TIFFFileContext.from(handle), let buffer, let size = Int(exactly: requested), size >= 0 else {
        return -1
    }
    var done = 0
    while done < size {
        let count = read(context.fileDescriptor, buffer + done, size - done)
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { break }
        done += count
    }
    return tmsize_t(done)
}

private let tiffWrite: TIFFReadWriteProc = { handle, buffer, requested in
    guard let context = TIFFFileContext.from(handle), let buffer, let size = Int(exactly: requested), size >= 0 else {
        return -1
    }
    var done = 0
    while done < size {
        let count = write(context.fileDescriptor, buffer + done, size - done)
        if count < 0 {
            if errno == EINTR { continue }
            if context.ioError == nil { context.ioError = DNGError.system("write", path: context.name, errno: errno) }
            return -1
        }
        if count == 0 {
            if context.ioError == nil { context.ioError = DNGError.system("write", path: context.name, errno: ENOSPC) }
            return -1
        }
        done += count
    }
    return tmsize_t(done)
}

private let tiffSeek: TIFFSeekProc = { handle, offset, whence in
    guard let context = TIFFFileContext.from(handle), let position = off_t(exactly: offset) else { return UInt64.max }
    let result = lseek(context.fileDescriptor, position, whence)
    guard result >= 0 else {
        if context.ioError == nil { context.ioError = DNGError.system("lseek", path: context.name, errno: errno) }
        return UInt64.max
    }
    return UInt64(result)
}

// The caller owns the descriptor (OutputFile syncs and closes it), so libtiff's close does nothing.
private let tiffClose: TIFFCloseProc = { _ in 0 }

private let tiffSize: TIFFSizeProc = { handle in
    guard let context = TIFFFileContext.from(handle) else { return 0 }
    var info = stat()
    guard fstat(context.fileDescriptor, &info) == 0 else { return 0 }
    return UInt64(max(0, info.st_size))
}

// No memory mapping: libtiff falls back to read(2) for the little it reads back.
private let tiffMap: TIFFMapFileProc = { _, _, _ in 0 }
private let tiffUnmap: TIFFUnmapFileProc = { _, _, _ in }
