import DNG
import FoundationEssentials
import RawDecoders
import RawImage

#if canImport(Glibc)
    import Glibc
#endif

/// A raw file named on the command line, read whole into memory.
struct InputFile {
    /// The path as given.
    let path: String
    /// The file's bytes.
    let bytes: [UInt8]

    /// Reads `path`.
    ///
    /// - Throws: ``CommandFailure`` with ``SysExit/noInput`` when the file does not exist, cannot be opened or is
    ///   not a regular file (a FIFO, a device: refused at once rather than read until they end, if ever),
    ///   ``SysExit/dataError`` when it is too large, ``SysExit/ioError`` when reading fails part-way.
    init(path: String) throws(CommandFailure) {
        self.path = path
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw CommandFailure(SysExit.noInput, "\(path): \(errno == ENOENT ? "no such file" : Self.errorText())")
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw CommandFailure(SysExit.noInput, "\(path): is a folder")
        default: throw CommandFailure(SysExit.noInput, "\(path): not a regular file")
        }
        guard access(path, R_OK) == 0 else {
            throw CommandFailure(SysExit.noInput, "\(path): permission denied")
        }
        do {
            bytes = try RawDecoder.readFile(path)
        } catch {
            throw CommandFailure(SysExit.status(for: error), error.description)
        }
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }

    /// Whether `bytes` start with a TIFF header (`II*\0`, `MM\0*`).
    static func isTIFF(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 4 && (bytes[0..<4] == [0x49, 0x49, 42, 0] || bytes[0..<4] == [0x4D, 0x4D, 0, 42])
    }

    /// Whether rawcap's own readers took the file (a DNG or TIFF/EP they refused is not "a picture").
    private var isTIFFEPOrDNG: Bool {
        let format = RawDecoder.detectFormat(bytes[...])
        return format == .dng || format == .tiffEP
    }

    /// Decodes the file.
    func decode() throws(CommandFailure) -> DecodedRaw {
        do {
            return try RawDecoder.decode(bytes[...])
        } catch {
            let status = SysExit.status(for: error)
            if error.code == .unsupported, Self.isTIFF(bytes), !isTIFFEPOrDNG {
                // A TIFF LibRaw does not take either: a picture (rawcap's own --format tiff rendering), not raw data.
                throw CommandFailure(
                    status,
                    "\(path): a TIFF without raw sensor data (a processed picture): rawcap reads DNG, TIFF/EP and camera raw files"
                )
            }
            throw CommandFailure(status, "\(path): \(error)")
        }
    }

    /// What the file's NewRawImageDigest says about its samples.
    enum DigestCheck: String, Sendable {
        /// The samples hash to the stored digest: the pixel data is intact.
        case verified
        /// They do not: the file was damaged after it was written (or its writer computed the digest wrongly).
        case mismatch
        /// The file carries no NewRawImageDigest (TIFF/EP, vendor raw, DNGs written without one).
        case absent
    }

    /// Compares the decoded samples (as stored, before any linearization) with the file's NewRawImageDigest,
    /// computed as the DNG SDK does (``DNG/RawImageDigest``).
    static func checkDigest(of decoded: DecodedRaw) -> DigestCheck {
        guard let stored = decoded.info.rawImageDigest else { return .absent }
        // The SDK hashes 8-bit data, and data whose LinearizationTable has at most 256 entries, as single bytes.
        let tableEntries = decoded.linearizationTable?.count ?? decoded.linearImage?.linearizationTable?.count
        let byteSized = decoded.storedBitsPerSample <= 8 || (tableEntries.map { $0 <= 256 } ?? false)
        let (width, height) = decoded.size
        let samples: [UInt16]
        let planes: Int
        switch decoded.image {
        case .cfa(let frame): (samples, planes) = (frame.samples, 1)
        case .linear(let image): (samples, planes) = (image.samples, 3)
        }
        let computed = samples.withUnsafeBufferPointer { buffer in
            RawImageDigest.compute(
                samples: buffer, width: width, height: height, planes: planes, bytesPerSample: byteSized ? 1 : 2,
                threadCount: DNGOptions.onlineCoreCount)
        }
        return computed == stored ? .verified : .mismatch
    }

    /// Decodes the file and checks its NewRawImageDigest when it has one.
    ///
    /// - Throws: ``CommandFailure`` with ``SysExit/dataError`` when the samples do not match the digest, besides
    ///   the errors of ``decode()``.
    func decodeVerified() throws(CommandFailure) -> DecodedRaw {
        let decoded = try decode()
        if Self.checkDigest(of: decoded) == .mismatch {
            throw CommandFailure(
                SysExit.dataError,
                "\(path): the raw data does not match the file's NewRawImageDigest; the file is damaged")
        }
        return decoded
    }
}
