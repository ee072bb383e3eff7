import PlatformSupport
import RawImage
import WireFormat

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one entry point for reading raw files: recognises the format by content and hands the bytes to
/// ``TIFFRawReader`` (DNG, TIFF/EP) or ``LibRawDecoder`` (every other raw format).
///
/// Detection looks only at the bytes, never at a file name: a TIFF header whose IFD 0 carries DNGVersion is a DNG;
/// one whose IFD 0 is itself a CFA image stored uncompressed or as lossless JPEG is TIFF/EP (ISO 12234-2, what
/// cameras send for PTP format 0x3802). Vendor formats built on TIFF (NEF, CR2, ARW, PEF, …) keep their raw data
/// in SubIFDs or vendor IFDs with vendor compression and maker-note levels, and go to LibRaw with everything else.
public enum RawDecoder {
    /// The largest file read into memory: 1 GiB, several times the largest raw file a current camera writes
    /// (uncompressed 16-bit 150-megapixel medium format is about 300 MB).
    public static let maxFileSize = 1 << 30

    /// The format a file was recognised as.
    public enum Format: Hashable, Sendable, CustomStringConvertible {
        /// Adobe DNG: read by ``TIFFRawReader``.
        case dng
        /// TIFF/EP with the CFA image in IFD 0: read by ``TIFFRawReader``.
        case tiffEP
        /// Anything else: handed to LibRaw.
        case vendor

        public var description: String {
            switch self {
            case .dng: "DNG"
            case .tiffEP: "TIFF/EP"
            case .vendor: "vendor raw"
            }
        }
    }

    /// Recognises the format of `bytes` from their content.
    public static func detectFormat(_ bytes: ArraySlice<UInt8>) -> Format {
        guard let header = try? TIFFHeader(bytes) else { return .vendor }
        // A TIFF whose IFD 0 cannot even be listed goes to rawcap's own reader, which says precisely what is wrong.
        guard let entries = try? header.directory(at: header.firstIFDOffset, in: bytes).entries else { return .dng }
        if entries.contains(where: { $0.tag == .dngVersion }) { return .dng }
        let photometric = entries.first { $0.tag == .photometricInterpretation }.flatMap(header.inlineInteger)
        let compression = entries.first { $0.tag == .compression }.flatMap(header.inlineInteger) ?? 1
        if photometric == UInt64(TIFFPhotometric.cfa.rawValue), compression == 1 || compression == 7 {
            return .tiffEP
        }
        return .vendor
    }

    /// Decodes the raw image in `bytes`: a DNG or TIFF/EP with rawcap's reader, falling back to LibRaw when the
    /// reader does not decode the file's form (lossy JPEG tiles, another compression; ``RawFileInfo/reader`` says
    /// which decoded it); anything else with LibRaw. LibRaw runs in ``containedDecoder`` when one is set.
    ///
    /// - Throws: ``DecodeError``; for a DNG or TIFF/EP that neither decodes, rawcap's reader's error with LibRaw's
    ///   added to its detail.
    public static func decode(_ bytes: ArraySlice<UInt8>) throws(DecodeError) -> DecodedRaw {
        switch detectFormat(bytes) {
        case .dng, .tiffEP:
            do {
                return try TIFFRawReader.decode(bytes)
            } catch where error.code == .unsupported {
                return try decodeWithLibRaw(bytes, refusedBecause: error)
            }
        case .vendor:
            return try vendorDecode(bytes)
        }
    }

    /// A DNG or TIFF/EP that rawcap's reader refused as `.unsupported`, decoded by LibRaw; described as the TIFF
    /// reader sees it (container, compression, previews), without its NewRawImageDigest (LibRaw's samples of lossy
    /// data need not be the ones the digest was made from).
    static func decodeWithLibRaw(_ bytes: ArraySlice<UInt8>, refusedBecause refusal: DecodeError)
        throws(DecodeError) -> DecodedRaw
    {
        var decoded: DecodedRaw
        do {
            decoded = try vendorDecode(bytes)
        } catch {
            throw DecodeError(
                refusal.code, at: refusal.offset, "\(refusal.detail); LibRaw cannot decode it either: \(error)",
                libRawStatus: error.libRawStatus)
        }
        if let structure = try? TIFFRawReader.structure(of: bytes),
            let raw = try? TIFFRawReader.rawDirectory(in: structure)
        {
            var info = TIFFRawReader.fileInfo(structure, raw: raw)
            info.rawImageDigest = nil
            info.warnings += decoded.info.warnings
            decoded.info = info
        }
        decoded.info.reader = .libRaw
        decoded.info.warnings.insert("rawcap's reader does not decode this file (\(refusal.detail)); LibRaw did", at: 0)
        return decoded
    }

    /// The process-wide ``ContainedDecoder`` that vendor raw files are decoded in, or `nil` (the default) to call
    /// LibRaw in this process. The rawcap binary sets one at start (its own `decode-worker` subcommand).
    public static var containedDecoder: ContainedDecoder? {
        get { vendorDecoderSetting.get() }
        set { vendorDecoderSetting.set(newValue) }
    }

    private static let vendorDecoderSetting = LockedSetting()

    /// ``LibRawDecoder/decode(_:)``, contained when ``containedDecoder`` is set; for the simple layouts
    /// ``VendorRawLayout`` knows (uncompressed NEF, ARW, RAF), LibRaw only identifies the file and rawcap reads the
    /// samples in place (``decodeInPlace(_:layout:)``).
    public static func vendorDecode(_ bytes: ArraySlice<UInt8>) throws(DecodeError) -> DecodedRaw {
        if let layout = VendorRawLayout.find(in: bytes), let decoded = try decodeInPlace(bytes, layout: layout) {
            return decoded
        }
        if let contained = containedDecoder { return try contained.decode(bytes) }
        return try LibRawDecoder.decode(bytes)
    }

    /// The file decoded with LibRaw's description (from the contained worker when ``containedDecoder`` is set,
    /// which is sent the file without its samples) and rawcap's reading of the samples in `layout`; `nil` when LibRaw
    /// reads the file with another loader or sees another sensor size, so that LibRaw decodes it all.
    ///
    /// - Throws: LibRaw's errors identifying the file, and ``VendorRawLayout/decode(_:into:)``'s (a strip that runs
    ///   past the end of the file).
    static func decodeInPlace(_ bytes: ArraySlice<UInt8>, layout: VendorRawLayout) throws(DecodeError)
        -> DecodedRaw?
    {
        try layout.checkFits(bytes)
        let frame: DecoderWire.Frame
        if let contained = containedDecoder {
            frame = try contained.identify(bytes, omitting: layout.dataRange)
        } else {
            let result: Result<DecoderWire.Frame, DecodeError> = bytes.withUnsafeBytes { raw in
                do throws(DecodeError) {
                    return .success(try LibRawDecoder.identify(raw))
                } catch {
                    return .failure(error)
                }
            }
            frame = try result.get()
        }
        guard frame.decoder == layout.libRawLoader, frame.width == layout.width, frame.height == layout.height else {
            return nil
        }
        var decoded = try frame.decoded(bitsFromSamples: true) { (buffer) throws(DecodeError) -> UInt16 in
            try layout.decode(bytes, into: buffer)
        }
        let make = decoded.frame?.metadata.make
        decoded.info.container = .vendor(LibRawDecoder.vendorFormatName(bytes, make: make))
        decoded.info.storage.layout += ", \(layout) (LibRaw \(frame.decoder)'s layout, read by rawcap)"
        decoded.info.reader = .rawcap
        return decoded
    }

    /// rawcap's own reading of the samples of a vendor raw file in a layout it reads in place (``VendorRawLayout``),
    /// without asking LibRaw anything: the sensor readout's size and its samples, row by row; `nil` for other files.
    /// For fuzzing and tests: ``decode(_:)`` also has LibRaw confirm the layout and describe the file.
    ///
    /// - Throws: ``DecodeError`` `.truncated` when the samples run past the end of the file.
    public static func vendorSamplesInPlace(_ bytes: ArraySlice<UInt8>) throws(DecodeError)
        -> (width: Int, height: Int, samples: [UInt16])?
    {
        guard let layout = VendorRawLayout.find(in: bytes) else { return nil }
        try layout.checkFits(bytes)
        var failure: DecodeError?
        let samples = [UInt16](unsafeUninitializedCapacity: layout.width * layout.height) { buffer, initialized in
            do throws(DecodeError) {
                _ = try layout.decode(bytes, into: buffer)
                initialized = buffer.count
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return (layout.width, layout.height, samples)
    }

    /// ``LibRawDecoder/preview(_:)``, contained when ``containedDecoder`` is set.
    public static func vendorPreview(_ bytes: ArraySlice<UInt8>) throws(DecodeError) -> EmbeddedPreview? {
        if let contained = containedDecoder { return try contained.preview(bytes) }
        return try LibRawDecoder.preview(bytes)
    }

    /// Reads and decodes the file at `path`.
    ///
    /// - Throws: ``DecodeError`` `.io` when the file cannot be read, `.tooLarge` above ``maxFileSize``, and the
    ///   errors of ``decode(_:)``.
    public static func decode(contentsOf path: String) throws(DecodeError) -> DecodedRaw {
        try decode(try readFile(path)[...])
    }

    /// The largest preview embedded in `bytes`: a DNG or TIFF/EP preview IFD, or LibRaw's thumbnail of a vendor
    /// file; `nil` when there is none.
    public static func embeddedPreview(_ bytes: ArraySlice<UInt8>) throws(DecodeError) -> EmbeddedPreview? {
        switch detectFormat(bytes) {
        case .dng, .tiffEP: try TIFFRawReader.embeddedPreview(in: TIFFRawReader.structure(of: bytes), bytes: bytes)
        case .vendor: try vendorPreview(bytes)
        }
    }

    /// The bytes of the file at `path`, checked against ``maxFileSize`` before they are read.
    ///
    /// The buffer is not zeroed first, and a large file is read in a few pieces at once (`pread`), one per core: most
    /// of the time a fresh 50 MB buffer takes goes to page faults, which run in parallel (issue 7).
    public static func readFile(_ path: String) throws(DecodeError) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO for reading otherwise waits for a writer, forever (issue 17). It changes
        // nothing for the regular files that are read.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw DecodeError(.io, "\(path): \(errorText())") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw DecodeError(.io, "\(path): \(errorText())") }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw DecodeError(.io, "\(path): not a regular file") }
        guard let size = Int(exactly: status.st_size), size <= maxFileSize else {
            throw DecodeError(.tooLarge, "\(path): \(status.st_size) bytes exceed \(maxFileSize)")
        }
        var failure: String?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            HugePages.advise(UnsafeMutableRawBufferPointer(buffer))
            nonisolated(unsafe) let target = UnsafeMutableRawPointer(base)
            let failures = ParallelRanges.map(size, minimum: readPieceMinimum) { range in
                readFully(descriptor, into: target, range)
            }
            failure = failures.lazy.compactMap { $0 }.first
            // On failure the array is thrown away; nothing reads the part that was not filled.
            initialized = failure == nil ? size : 0
        }
        if let failure { throw DecodeError(.io, "\(path): \(failure)") }
        return bytes
    }

    /// Files below twice this size are read by one thread.
    static let readPieceMinimum = 8 << 20

    /// Reads bytes `range` of the file into the same range of `buffer`, retrying short reads; the error text, or
    /// `nil` when every byte arrived.
    private static func readFully(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer, _ range: Range<Int>)
        -> String?
    {
        var filled = range.lowerBound
        while filled < range.upperBound {
            let count = pread(descriptor, buffer + filled, range.upperBound - filled, off_t(filled))
            if count < 0 {
                if errno == EINTR { continue }
                return errorText()
            }
            if count == 0 { return "file shrank to \(filled) bytes while being read" }
            filled += count
        }
        return nil
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}

/// A ``ContainedDecoder`` setting read and written from any thread.
private final class LockedSetting: @unchecked Sendable {
    private let lock = ThreadCondition()
    private var value: ContainedDecoder?

    func get() -> ContainedDecoder? {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func set(_ newValue: ContainedDecoder?) {
        lock.lock()
        defer { lock.unlock() }
        value = newValue
    }
}
