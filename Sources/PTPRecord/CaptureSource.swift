#if canImport(Glibc)
    import Glibc
#endif

/// Random access to the bytes of a capture: a file read with `pread`, or bytes in memory (tests, fuzzing).
///
/// ``CaptureFileReader`` reads each block's header first and asks for the block only once its length passed the
/// limits, so a hostile length never becomes an allocation.
public protocol CaptureSource: Sendable {
    /// The total size in bytes.
    var byteCount: UInt64 { get }
    /// Exactly `count` bytes from `offset`.
    ///
    /// - Throws: ``PcapError/Code/truncated`` when the source ends first, ``PcapError/Code/ioError`` when it cannot
    ///   be read.
    func read(at offset: UInt64, count: Int) throws(PcapError) -> [UInt8]
}

/// A capture held in memory.
public struct MemoryCaptureSource: CaptureSource {
    /// The bytes.
    public let bytes: [UInt8]

    /// Wraps bytes.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The number of bytes.
    public var byteCount: UInt64 { UInt64(bytes.count) }

    /// Exactly `count` bytes from `offset`.
    public func read(at offset: UInt64, count: Int) throws(PcapError) -> [UInt8] {
        guard count >= 0, offset <= byteCount, UInt64(count) <= byteCount - offset else {
            throw PcapError(.truncated, at: offset, "need \(count) bytes, the capture has \(byteCount)")
        }
        let start = Int(offset)
        return Array(bytes[start..<(start + count)])
    }
}

/// A capture file, read with `pread(2)` as blocks are needed: a recording of a 100 MB download is never read
/// whole into memory.
public final class FileCaptureSource: CaptureSource {
    /// The file's path.
    public let path: String
    /// The file's size when it was opened.
    public let byteCount: UInt64
    private let descriptor: Int32

    /// Opens `path` for reading.
    ///
    /// - Throws: ``PcapError/Code/ioError`` when it cannot be opened.
    public init(path: String) throws(PcapError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw PcapError(.ioError, "cannot open \(path): \(String(cString: strerror(errno)))") }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_size >= 0 else {
            Glibc.close(fd)
            throw PcapError(.ioError, "cannot stat \(path)")
        }
        self.path = path
        descriptor = fd
        byteCount = UInt64(status.st_size)
    }

    deinit { Glibc.close(descriptor) }

    /// Exactly `count` bytes from `offset`.
    public func read(at offset: UInt64, count: Int) throws(PcapError) -> [UInt8] {
        guard count >= 0, offset <= byteCount, UInt64(count) <= byteCount - offset else {
            throw PcapError(.truncated, at: offset, "need \(count) bytes, \(path) has \(byteCount)")
        }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress.map { $0 + done }, count - done, off_t(offset) + off_t(done))
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw PcapError(.ioError, at: offset, "reading \(path): \(String(cString: strerror(errno)))")
            }
            if got == 0 { throw PcapError(.truncated, at: offset, "\(path) ends early") }
            done += got
        }
        return bytes
    }
}
