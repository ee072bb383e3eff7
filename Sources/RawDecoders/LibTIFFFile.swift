import CLibTIFF
import TIFFVocabulary
import WireFormat

/// libtiff opened over bytes in memory: the one place in RawDecoders that calls libtiff's C API.
///
/// The file is opened with `TIFFClientOpenExt` on read, seek, size and map procedures over the caller's buffer
/// (no copy: libtiff reads tag data straight from the mapped bytes and checks every offset against the size), with
/// `TIFFOpenOptions` that cap any single libtiff allocation at ``maxSingleAllocation`` and route libtiff's errors
/// and warnings to this file's own message list (`TIFFOpenOptionsSetErrorHandlerExtR`/`…WarningHandlerExtR`,
/// formatted with `rc_tiff_format_message`) instead of standard error. Every IFD is read once and copied into a
/// ``TIFFDirectory`` value; pixel data is never decoded by libtiff.
enum LibTIFFFile {
    /// Largest single allocation libtiff may make while reading directories: 64 MiB.
    ///
    /// Image data never goes through libtiff here (the strips are sliced from the caller's buffer), so libtiff
    /// only allocates tag arrays and strip tables: under 1 MiB of offsets for the largest accepted image
    /// (``WireFormat/WireLimits/maxImagePixels``), LinearizationTable 128 KiB, XMP and maker notes a few MiB.
    /// An absurd ImageLength with one row per strip would otherwise make libtiff allocate gigabytes of strip
    /// offsets. A tag larger than this (an embedded original raw file, DNG OriginalRawFileData) is dropped by
    /// libtiff with an error message, and the rest of the directory is still read.
    static let maxSingleAllocation = 64 * 1024 * 1024

    /// Most strips or tiles accepted in one IFD: one per row of the tallest accepted image, or 256×256 tiles over
    /// the largest, both far below this.
    static let maxStripsOrTiles = 1 << 20

    /// Reads every IFD of the TIFF file in `bytes` (IFD0's chain, each IFD's SubIFDs depth-first, and the EXIF
    /// IFDs they point to).
    ///
    /// - Throws: ``DecodeError`` with code `.corrupt` or `.truncated` when libtiff cannot read an IFD (libtiff's
    ///   message is in the detail) or the IFDs form a cycle, `.tooLarge` past ``WireFormat/WireLimits/maxIFDDepth``,
    ///   ``WireFormat/WireLimits/maxIFDCount`` or ``maxStripsOrTiles``.
    static func readStructure(of bytes: ArraySlice<UInt8>) throws(DecodeError) -> TIFFStructure {
        let header: TIFFHeader
        do {
            header = try TIFFHeader(bytes)
        } catch {
            throw DecodeError(error, context: "TIFF header")
        }
        TIFFFieldRegistry.install()
        let result: Result<TIFFStructure, DecodeError> = bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else {
                return .failure(DecodeError(.truncated, at: 0, "empty file"))
            }
            let source = MemorySource(base: base, count: raw.count)
            do throws(DecodeError) {
                return .success(try read(header: header, bytes: bytes, source: source))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private static func read(
        header: TIFFHeader, bytes: ArraySlice<UInt8>, source: MemorySource
    ) throws(DecodeError) -> TIFFStructure {
        let handle = Unmanaged.passUnretained(source).toOpaque()
        guard let options = TIFFOpenOptionsAlloc() else { throw DecodeError(.tooLarge, "TIFFOpenOptionsAlloc failed") }
        TIFFOpenOptionsSetMaxSingleMemAlloc(options, tmsize_t(maxSingleAllocation))
        TIFFOpenOptionsSetErrorHandlerExtR(options, errorHandler, handle)
        TIFFOpenOptionsSetWarningHandlerExtR(options, warningHandler, handle)
        // "h": read the header only; every IFD, IFD0 included, is then read through TIFFSetSubDirectory so that
        // all of them pass the same cycle and limit checks. "c": no strip chopping, so the strips reported are
        // the strips stored.
        let tif = TIFFClientOpenExt(
            TIFFFieldRegistry.readerFileName, "rhc", handle, readProc, writeProc, seekProc, closeProc, sizeProc, mapProc,
            unmapProc, options)
        TIFFOpenOptionsFree(options)
        guard let tif else {
            throw DecodeError(.corrupt, at: 0, "libtiff cannot open the file: \(source.summary)")
        }
        defer { TIFFClose(tif) }

        var walker = Walker(tif: tif, header: header, bytes: bytes, source: source)
        var chainOffset = header.firstIFDOffset
        var chainIndex = 0
        while chainOffset != 0 {
            try walker.visit(
                offset: chainOffset, position: .chain(index: chainIndex), path: "IFD\(chainIndex)", depth: 0)
            do {
                chainOffset = try header.directory(at: chainOffset, in: bytes).nextOffset
            } catch {
                throw DecodeError(error, context: "IFD\(chainIndex)")
            }
            chainIndex += 1
        }
        var exif: [UInt64: [TIFFTag: TIFFTagValue]] = [:]
        for directory in walker.directories {
            guard let value = directory[.exifIFD]?.integers?.first, let offset = UInt64(exactly: value),
                exif[offset] == nil
            else { continue }
            // EXIF is metadata: a broken EXIF IFD leaves the fields unknown (libtiff's message is kept) rather
            // than failing a file whose image is intact.
            if TIFFReadEXIFDirectory(tif, offset) == 1 {
                let tags = customTags(tif, samplesPerPixel: 1)
                exif[offset] =
                    (try? fromFile(tags, at: offset, header: header, bytes: bytes, path: "EXIF").tags) ?? tags
            }
        }
        return TIFFStructure(
            header: header, directories: walker.directories, exifDirectories: exif, messages: source.messages)
    }

    /// Reads IFDs one by one, refusing cycles and enforcing the depth and count limits.
    private struct Walker {
        let tif: OpaquePointer
        let header: TIFFHeader
        let bytes: ArraySlice<UInt8>
        let source: MemorySource
        var directories: [TIFFDirectory] = []
        var visited: Set<UInt64> = []

        init(tif: OpaquePointer, header: TIFFHeader, bytes: ArraySlice<UInt8>, source: MemorySource) {
            (self.tif, self.header, self.bytes, self.source) = (tif, header, bytes, source)
        }

        mutating func visit(
            offset: UInt64, position: TIFFDirectory.Position, path: String, depth: Int
        ) throws(DecodeError) {
            guard depth <= WireLimits.maxIFDDepth else {
                throw DecodeError(.tooLarge, "\(path): SubIFDs nested deeper than \(WireLimits.maxIFDDepth)")
            }
            guard visited.insert(offset).inserted else {
                throw DecodeError(.corrupt, at: Int(exactly: offset), "\(path) points back to an IFD already read")
            }
            guard directories.count < WireLimits.maxIFDCount else {
                throw DecodeError(.tooLarge, "more than \(WireLimits.maxIFDCount) IFDs")
            }
            guard offset < UInt64(bytes.count) else {
                throw DecodeError(.truncated, at: Int(exactly: offset), "\(path) lies beyond the end of the file")
            }
            let before = source.messages.count
            guard TIFFSetSubDirectory(tif, offset) == 1 else {
                let messages = source.messages.dropFirst(before).map(\.text).joined(separator: "; ")
                throw DecodeError(.corrupt, at: Int(exactly: offset), "libtiff cannot read \(path): \(messages)")
            }
            var directory = try LibTIFFFile.snapshot(tif, offset: offset, position: position, path: path)
            directory = try LibTIFFFile.fromFile(directory, header: header, bytes: bytes)
            directories.append(directory)
            for (index, subOffset) in directory.subIFDOffsets.enumerated() {
                try visit(
                    offset: subOffset, position: .subIFD(parentOffset: offset, index: index, depth: depth + 1),
                    path: "\(path)/SubIFD\(index)", depth: depth + 1)
            }
        }
    }

    /// Corrects two things libtiff reports differently from what the file says, using the IFD's own entries:
    ///
    /// - libtiff replaces the byte count of a single uncompressed strip that is too small for the image by an
    ///   estimate ("Bogus StripByteCounts field, ignoring and calculating from imagelength"), which would make a
    ///   short strip read on into whatever follows it. The count the file states is put back, so a short strip is
    ///   reported as truncated.
    /// - libtiff passes rationals as `float` (dng-facts fact 5), which moves colour matrices by about 1e-8 and
    ///   would make a converted DNG differ from its source. RATIONAL and SRATIONAL values are read exactly.
    static func fromFile(
        _ tags: [TIFFTag: TIFFTagValue], at offset: UInt64, header: TIFFHeader, bytes: ArraySlice<UInt8>, path: String
    ) throws(DecodeError) -> (tags: [TIFFTag: TIFFTagValue], entries: [TIFFHeader.Entry]) {
        let entries: [TIFFHeader.Entry]
        do {
            entries = try header.directory(at: offset, in: bytes).entries
        } catch {
            throw DecodeError(error, context: path)
        }
        var corrected = tags
        for entry in entries where corrected[entry.tag] != nil {
            if let exact = header.rationals(entry, in: bytes) { corrected[entry.tag] = .reals(exact) }
        }
        return (corrected, entries)
    }

    private static func fromFile(
        _ directory: TIFFDirectory, header: TIFFHeader, bytes: ArraySlice<UInt8>
    ) throws(DecodeError) -> TIFFDirectory {
        let (tags, entries) = try fromFile(
            directory.tags, at: directory.offset, header: header, bytes: bytes, path: directory.path)
        var byteCounts = directory.dataByteCounts
        if byteCounts.count == 1,
            let entry = entries.first(where: { $0.tag == .stripByteCounts || $0.tag == .tileByteCounts }),
            entry.count == 1, let stored = header.inlineInteger(entry)
        {
            byteCounts = [stored]
        }
        return directory.replacing(byteCounts: byteCounts, tags: tags)
    }

    /// Copies the current directory out of libtiff.
    private static func snapshot(
        _ tif: OpaquePointer, offset: UInt64, position: TIFFDirectory.Position, path: String
    ) throws(DecodeError) -> TIFFDirectory {
        func u32(_ tag: Int32) -> UInt32? {
            var value: UInt32 = 0
            return rc_tiff_get_u32(tif, UInt32(tag), &value) == 1 ? value : nil
        }
        func u16(_ tag: Int32) -> UInt16? {
            var value: UInt16 = 0
            return rc_tiff_get_u16(tif, UInt32(tag), &value) == 1 ? value : nil
        }
        let width = Int(u32(TIFFTAG_IMAGEWIDTH) ?? 0)
        let height = Int(u32(TIFFTAG_IMAGELENGTH) ?? 0)
        let samplesPerPixel = Int(u16(TIFFTAG_SAMPLESPERPIXEL) ?? 1)
        let tiled = TIFFIsTiled(tif) != 0
        let layout: TIFFDirectory.Layout
        let count: UInt32
        if tiled {
            layout = .tiles(width: Int(u32(TIFFTAG_TILEWIDTH) ?? 0), height: Int(u32(TIFFTAG_TILELENGTH) ?? 0))
            count = TIFFNumberOfTiles(tif)
        } else {
            // libtiff's default RowsPerStrip is 2^32 - 1, "the whole image in one strip" (TIFF 6.0 §8).
            let rows = u32(TIFFTAG_ROWSPERSTRIP).map { Int($0) } ?? height
            layout = .strips(rowsPerStrip: max(1, min(rows, height)))
            count = TIFFNumberOfStrips(tif)
        }
        guard count <= maxStripsOrTiles else {
            throw DecodeError(.tooLarge, at: Int(exactly: offset), "\(path) has \(count) strips or tiles")
        }
        var offsets = [UInt64]()
        var byteCounts = [UInt64]()
        offsets.reserveCapacity(Int(count))
        byteCounts.reserveCapacity(Int(count))
        for index in 0..<count {
            var failed: Int32 = 0
            offsets.append(TIFFGetStrileOffsetWithErr(tif, index, &failed))
            byteCounts.append(TIFFGetStrileByteCountWithErr(tif, index, &failed))
            guard failed == 0 else {
                throw DecodeError(.corrupt, at: Int(exactly: offset), "\(path): unreadable strip or tile table")
            }
        }
        var subIFDCount: UInt16 = 0
        var subIFDPointer: UnsafeMutablePointer<UInt64>?
        var subIFDs: [UInt64] = []
        if rc_tiff_get_subifds(tif, &subIFDCount, &subIFDPointer) == 1, let subIFDPointer {
            subIFDs = Array(UnsafeBufferPointer(start: subIFDPointer, count: Int(subIFDCount)))
        }
        return TIFFDirectory(
            offset: offset, position: position, path: path,
            newSubfileType: u32(TIFFTAG_SUBFILETYPE) ?? 0,
            width: width, height: height,
            bitsPerSample: Int(u16(TIFFTAG_BITSPERSAMPLE) ?? 1),
            samplesPerPixel: samplesPerPixel,
            sampleFormat: Int(u16(TIFFTAG_SAMPLEFORMAT) ?? 1),
            compression: TIFFCompression(rawValue: u16(TIFFTAG_COMPRESSION) ?? 1),
            photometric: u16(TIFFTAG_PHOTOMETRIC).map(TIFFPhotometric.init(rawValue:)),
            planarConfiguration: Int(u16(TIFFTAG_PLANARCONFIG) ?? 1),
            fillOrder: Int(u16(TIFFTAG_FILLORDER) ?? 1),
            orientation: u16(TIFFTAG_ORIENTATION),
            layout: layout, dataOffsets: offsets, dataByteCounts: byteCounts, subIFDOffsets: subIFDs,
            tags: customTags(tif, samplesPerPixel: samplesPerPixel))
    }

    /// Every custom field of the current directory (libtiff's tag list), converted by its runtime description:
    /// passcount, read count, data type and set/get size (`TIFFFieldSetGetSize`: libtiff 4.5 stores rationals as
    /// `float`, later versions may use `double`), following `_TIFFVGetField`'s rules for custom values.
    private static func customTags(_ tif: OpaquePointer, samplesPerPixel: Int) -> [TIFFTag: TIFFTagValue] {
        var tags: [TIFFTag: TIFFTagValue] = [:]
        for index in 0..<max(0, TIFFGetTagListCount(tif)) {
            let tag = TIFFGetTagListEntry(tif, index)
            guard let tag16 = UInt16(exactly: tag), let field = TIFFFindField(tif, tag, TIFF_NOTYPE) else { continue }
            if let value = customValue(tif, tag: tag, field: field, samplesPerPixel: samplesPerPixel) {
                tags[TIFFTag(rawValue: tag16)] = value
            }
        }
        return tags
    }

    private static func customValue(
        _ tif: OpaquePointer, tag: UInt32, field: OpaquePointer, samplesPerPixel: Int
    ) -> TIFFTagValue? {
        let type = TIFFFieldDataType(field)
        let readCount = TIFFFieldReadCount(field)
        let elementSize = Int(TIFFFieldSetGetSize(field))
        if TIFFFieldPassCount(field) != 0 {
            var pointer: UnsafeMutableRawPointer?
            var count = 0
            if readCount == TIFF_VARIABLE2 {
                var count32: UInt32 = 0
                guard rc_tiff_get_array_c32(tif, tag, &count32, &pointer) == 1 else { return nil }
                count = Int(count32)
            } else {
                var count16: UInt16 = 0
                guard rc_tiff_get_array_c16(tif, tag, &count16, &pointer) == 1 else { return nil }
                count = Int(count16)
            }
            return convert(pointer.map(UnsafeRawPointer.init), count: count, type: type, elementSize: elementSize)
        }
        if type == TIFF_ASCII {
            var pointer: UnsafeMutableRawPointer?
            guard rc_tiff_get_array(tif, tag, &pointer) == 1, let pointer else { return nil }
            // libtiff NUL-terminates every ASCII value it stores (TIFFFetchNormalTag, TIFF_SETGET_ASCII).
            return .text(String(cString: pointer.assumingMemoryBound(to: CChar.self)))
        }
        if readCount > 1 || readCount == TIFF_SPP {
            var pointer: UnsafeMutableRawPointer?
            guard rc_tiff_get_array(tif, tag, &pointer) == 1 else { return nil }
            let count = readCount == TIFF_SPP ? samplesPerPixel : Int(readCount)
            return convert(pointer.map(UnsafeRawPointer.init), count: count, type: type, elementSize: elementSize)
        }
        guard readCount == 1 else { return nil }
        // A scalar: libtiff writes at most 8 bytes of the field's C type; 16 aligned bytes leave room to spare.
        var scratch: (UInt64, UInt64) = (0, 0)
        return withUnsafeMutableBytes(of: &scratch) { buffer in
            guard let base = buffer.baseAddress, rc_tiff_get_scalar(tif, tag, base) == 1 else { return nil }
            return convert(UnsafeRawPointer(base), count: 1, type: type, elementSize: elementSize)
        }
    }

    /// Converts `count` elements of a libtiff custom value.
    private static func convert(
        _ pointer: UnsafeRawPointer?, count: Int, type: TIFFDataType, elementSize: Int
    ) -> TIFFTagValue? {
        guard count > 0, let pointer else { return count == 0 ? .integers([]) : nil }
        guard count <= TIFFDirectory.maxCopiedElements else { return .omitted(count: count) }
        func integers<T: FixedWidthInteger>(_: T.Type) -> TIFFTagValue? {
            guard elementSize == MemoryLayout<T>.size else { return nil }
            return .integers(
                (0..<count).map {
                    Int64(
                        truncatingIfNeeded: pointer.loadUnaligned(fromByteOffset: $0 * MemoryLayout<T>.size, as: T.self)
                    )
                })
        }
        switch type {
        case TIFF_BYTE: return integers(UInt8.self)
        case TIFF_SBYTE: return integers(Int8.self)
        case TIFF_UNDEFINED: return .bytes(Array(UnsafeRawBufferPointer(start: pointer, count: count)))
        case TIFF_ASCII:
            let raw = UnsafeRawBufferPointer(start: pointer, count: count)
            return .text(String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self))
        case TIFF_SHORT: return integers(UInt16.self)
        case TIFF_SSHORT: return integers(Int16.self)
        case TIFF_LONG, TIFF_IFD: return integers(UInt32.self)
        case TIFF_SLONG: return integers(Int32.self)
        case TIFF_LONG8, TIFF_IFD8:
            guard elementSize == 8 else { return nil }
            // Offsets above Int64.max cannot point into a file we hold in memory; clamp rather than trap.
            return .integers(
                (0..<count).map { Int64(clamping: pointer.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self)) })
        case TIFF_SLONG8: return integers(Int64.self)
        case TIFF_RATIONAL, TIFF_SRATIONAL, TIFF_FLOAT, TIFF_DOUBLE:
            switch elementSize {
            case 4:
                return .reals((0..<count).map { Double(pointer.loadUnaligned(fromByteOffset: $0 * 4, as: Float.self)) })
            case 8: return .reals((0..<count).map { pointer.loadUnaligned(fromByteOffset: $0 * 8, as: Double.self) })
            default: return nil
            }
        default: return nil
        }
    }
}

/// The buffer libtiff reads from, and the messages it reported; passed to every procedure as `thandle_t` and to
/// the message handlers as `user_data`.
private final class MemorySource {
    let base: UnsafeRawPointer
    let count: Int
    var position: UInt64 = 0
    var messages: [TIFFStructure.Message] = []

    init(base: UnsafeRawPointer, count: Int) {
        self.base = base
        self.count = count
    }

    func record(_ severity: TIFFStructure.Message.Severity, module: String, text: String) {
        guard messages.count < TIFFStructure.maxMessages else { return }
        messages.append(TIFFStructure.Message(severity: severity, module: module, text: text))
    }

    var summary: String {
        let errors = messages.filter { $0.severity == .error }.map(\.text)
        return errors.isEmpty ? "no message" : errors.joined(separator: "; ")
    }

    static func from(_ handle: UnsafeMutableRawPointer?) -> MemorySource? {
        handle.map { Unmanaged<MemorySource>.fromOpaque($0).takeUnretainedValue() }
    }
}

private func readProc(_ handle: thandle_t?, _ buffer: UnsafeMutableRawPointer?, _ size: tmsize_t) -> tmsize_t {
    guard let source = MemorySource.from(handle), let buffer, size >= 0 else { return -1 }
    guard source.position < UInt64(source.count) else { return 0 }
    let start = Int(source.position)
    let length = min(Int(size), source.count - start)
    buffer.copyMemory(from: source.base + start, byteCount: length)
    source.position += UInt64(length)
    return tmsize_t(length)
}

private func writeProc(_ handle: thandle_t?, _ buffer: UnsafeMutableRawPointer?, _ size: tmsize_t) -> tmsize_t {
    0  // read-only
}

private func seekProc(_ handle: thandle_t?, _ offset: toff_t, _ whence: Int32) -> toff_t {
    guard let source = MemorySource.from(handle) else { return toff_t.max }
    // libtiff passes SEEK_CUR/SEEK_END displacements as two's-complement toff_t.
    let displacement = Int64(bitPattern: offset)
    let origin: Int64
    switch whence {
    case 0: origin = 0
    case 1: origin = Int64(clamping: source.position)
    case 2: origin = Int64(source.count)
    default: return toff_t.max
    }
    let (target, overflow) = whence == 0 ? (displacement, false) : origin.addingReportingOverflow(displacement)
    guard !overflow, target >= 0 else { return toff_t.max }
    source.position = UInt64(target)
    return source.position
}

private func closeProc(_ handle: thandle_t?) -> Int32 { 0 }

private func sizeProc(_ handle: thandle_t?) -> toff_t {
    MemorySource.from(handle).map { toff_t($0.count) } ?? 0
}

private func mapProc(
    _ handle: thandle_t?, _ base: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ size: UnsafeMutablePointer<toff_t>?
) -> Int32 {
    guard let source = MemorySource.from(handle), let base, let size else { return 0 }
    // libtiff only reads through the mapping of a file opened "r".
    base.pointee = UnsafeMutableRawPointer(mutating: source.base)
    size.pointee = toff_t(source.count)
    return 1
}

private func unmapProc(_ handle: thandle_t?, _ base: UnsafeMutableRawPointer?, _ size: toff_t) {}

private func errorHandler(
    _ tif: OpaquePointer?, _ userData: UnsafeMutableRawPointer?, _ module: UnsafePointer<CChar>?,
    _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?
) -> Int32 {
    handleMessage(.error, userData, module, format, arguments)
}

private func warningHandler(
    _ tif: OpaquePointer?, _ userData: UnsafeMutableRawPointer?, _ module: UnsafePointer<CChar>?,
    _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?
) -> Int32 {
    handleMessage(.warning, userData, module, format, arguments)
}

/// Formats and records one libtiff message; returning 1 tells libtiff not to call its global handler as well.
private func handleMessage(
    _ severity: TIFFStructure.Message.Severity, _ userData: UnsafeMutableRawPointer?,
    _ module: UnsafePointer<CChar>?, _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?
) -> Int32 {
    guard let source = MemorySource.from(userData), let format, let arguments else { return 1 }
    var buffer = [CChar](repeating: 0, count: 512)
    _ = rc_tiff_format_message(&buffer, buffer.count, format, arguments)
    let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    source.record(severity, module: module.map { String(cString: $0) } ?? "libtiff", text: text)
    return 1
}
