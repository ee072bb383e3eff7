import CLibTIFF

#if canImport(Glibc)
    import Glibc
#endif

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

// libtiff's callbacks: C function pointers, so they capture nothing; the context arrives as `thandle_t` (IO) or
// `user_data` (messages).
extension TIFFFileContext {
    static let tiffErrorHandler: TIFFErrorHandlerExtR = { _, userData, module, format, arguments in
        guard let arguments else { return 1 }
        TIFFFileContext.from(userData)?.errors.append(formatTIFFMessage(module, format, arguments))
        return 1  // handled: libtiff does not also print to stderr
    }

    static let tiffWarningHandler: TIFFErrorHandlerExtR = { _, userData, module, format, arguments in
        guard let arguments else { return 1 }
        TIFFFileContext.from(userData)?.warnings.append(formatTIFFMessage(module, format, arguments))
        return 1
    }

    private static func formatTIFFMessage(
        _ module: UnsafePointer<CChar>?, _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer
    ) -> String {
        var buffer = [CChar](repeating: 0, count: 1024)
        if let format { _ = rc_tiff_format_message(&buffer, buffer.count, format, arguments) }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let module else { return text }
        return "\(String(cString: module)): \(text)"
    }

    static let tiffRead: TIFFReadWriteProc = { handle, buffer, requested in
        guard let context = TIFFFileContext.from(handle), let buffer, let size = Int(exactly: requested), size >= 0
        else {
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

    static let tiffWrite: TIFFReadWriteProc = { handle, buffer, requested in
        guard let context = TIFFFileContext.from(handle), let buffer, let size = Int(exactly: requested), size >= 0
        else {
            return -1
        }
        var done = 0
        while done < size {
            let count = write(context.fileDescriptor, buffer + done, size - done)
            if count < 0 {
                if errno == EINTR { continue }
                if context.ioError == nil {
                    context.ioError = DNGError.system("write", path: context.name, errno: errno)
                }
                return -1
            }
            if count == 0 {
                if context.ioError == nil {
                    context.ioError = DNGError.system("write", path: context.name, errno: ENOSPC)
                }
                return -1
            }
            done += count
        }
        return tmsize_t(done)
    }

    static let tiffSeek: TIFFSeekProc = { handle, offset, whence in
        guard let context = TIFFFileContext.from(handle), let position = off_t(exactly: offset) else {
            return UInt64.max
        }
        let result = lseek(context.fileDescriptor, position, whence)
        guard result >= 0 else {
            if context.ioError == nil { context.ioError = DNGError.system("lseek", path: context.name, errno: errno) }
            return UInt64.max
        }
        return UInt64(result)
    }

    // The caller owns the descriptor (OutputFile syncs and closes it), so libtiff's close does nothing.
    static let tiffClose: TIFFCloseProc = { _ in 0 }

    static let tiffSize: TIFFSizeProc = { handle in
        guard let context = TIFFFileContext.from(handle) else { return 0 }
        var info = stat()
        guard fstat(context.fileDescriptor, &info) == 0 else { return 0 }
        return UInt64(max(0, info.st_size))
    }

    // No memory mapping: libtiff falls back to read(2) for the little it reads back.
    static let tiffMap: TIFFMapFileProc = { _, _, _ in 0 }
    static let tiffUnmap: TIFFUnmapFileProc = { _, _, _ in }
}
