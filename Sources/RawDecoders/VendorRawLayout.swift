import WireFormat

/// Where a vendor raw file keeps its samples, for the simple layouts rawcap decodes itself rather than through LibRaw:
/// uncompressed NEF (16-bit words, or 12-bit samples packed two in three bytes), uncompressed ARW and uncompressed
/// RAF (16-bit words). Everything else (compressed NEF, ARW 2, CR2, CR3, ORF, …) stays with LibRaw.
///
/// The file's metadata (levels, colour matrix, CFA pattern, capture data) still comes from LibRaw, which only
/// identifies the file (`libraw_open_buffer`, no `libraw_unpack`); rawcap then reads the samples in place with
/// ``decode(_:into:)`` only when LibRaw names the loader this layout corresponds to (``libRawLoader``) and the same
/// sensor size, so the samples are exactly LibRaw's:
///
/// - `unpacked_load_raw` (LibRaw `src/decoders/decoders_dcraw.cpp`, dcraw's loader of the same name): `read_shorts`
///   of `raw_width × raw_height` words in the file's byte order (`order`), each shifted right by `load_flags`, which
///   `apply_tiff` leaves at 0 for these files; samples above the white level are kept (LibRaw only reports them).
/// - `packed_load_raw` with `tiff_bps` 12 and `load_flags` 0 (LibRaw `apply_tiff`, `case 12` of the uncompressed
///   branch, when the strip holds `raw_width × raw_height × 3 / 2` bytes): bits taken most significant first, a byte
///   at a time (`bite` 8), 12 per sample, rows padded to whole bytes (`rbits`); for an even width two samples in
///   three bytes.
///
/// Which files: a TIFF-based file whose Make starts with `NIKON` or `SONY` (Nikon's and Sony's uncompressed layouts,
/// as ``CameraEmulator``'s `NEFWriter` and `ARWWriter` and the bodies write them: a SubIFD with NewSubfileType 0,
/// PhotometricInterpretation 32803, Compression 1, one strip), and a `FUJIFILM` RAF whose CFA block is a TIFF with
/// Fujifilm's raw IFD (tag 0xF000 in its IFD 0; 0xF001 width, 0xF002 height, 0xF003 bits per sample, 0xF007 strip
/// offset from the block, 0xF008 byte count: LibRaw `parse_tiff_ifd`, exiftool's FujiFilm RAF tables) whose strip
/// holds 16-bit words. The tag numbers are used here as plain numbers (the vendor tags are in no catalog).
struct VendorRawLayout: Hashable, Sendable, CustomStringConvertible {
    /// How the samples are stored.
    enum Packing: Hashable, Sendable {
        /// One 16-bit word per sample in this byte order.
        case words(ByteOrder)
        /// 12-bit samples, most significant bit first, two in three bytes.
        case packed12
    }

    /// The maker's format, for messages: `NEF`, `ARW`, `RAF`.
    let format: String
    /// The sensor readout's size, which LibRaw must report as `raw_width × raw_height`.
    let width: Int
    let height: Int
    /// Where the samples start in the file and how many bytes they take.
    let offset: Int
    let byteCount: Int
    let packing: Packing
    /// The bits per sample the file states.
    let storedBits: Int

    /// LibRaw's name for the loader that reads this layout (`libraw_get_decoder_info`).
    var libRawLoader: String {
        switch packing {
        case .words: "unpacked_load_raw()"
        case .packed12: "packed_load_raw()"
        }
    }

    /// The samples' bytes, as a range of file offsets.
    var dataRange: Range<Int> { offset..<(offset + byteCount) }

    var description: String {
        switch packing {
        case .words(let order):
            "uncompressed \(format), \(storedBits)-bit samples in \(order == .big ? "big" : "little")-endian words"
        case .packed12: "uncompressed \(format), 12-bit samples packed two in three bytes"
        }
    }

    // MARK: - Finding the layout

    /// The layout of the raw data in `bytes` when it is one rawcap reads itself, else `nil` (the file goes to LibRaw
    /// whole). Only the structure is looked at; sizes are checked against ``WireFormat/WireLimits`` and the strip
    /// against the file (a strip past the end is left to ``decode(_:into:)``, which refuses it).
    static func find(in bytes: ArraySlice<UInt8>) -> VendorRawLayout? {
        if bytes.count >= 108, bytes.prefix(8).elementsEqual("FUJIFILM".utf8) { return fujifilm(bytes) }
        guard let header = try? TIFFHeader(bytes), !header.isBigTIFF else { return nil }
        // CR2 carries `CR` after the TIFF header: lossless JPEG, LibRaw's.
        if bytes.count > 10, bytes[bytes.startIndex + 8] == UInt8(ascii: "C"), bytes[bytes.startIndex + 9] == UInt8(ascii: "R") {
            return nil
        }
        var candidates: [(entries: [TIFFHeader.Entry], depth: Int)] = []
        var next = header.firstIFDOffset
        var visited: Set<UInt64> = []
        // IFD 0's chain and each IFD's SubIFDs, one level down: where Nikon and Sony keep the raw image.
        for _ in 0..<8 where next != 0 && visited.insert(next).inserted {
            guard let (entries, following) = try? header.directory(at: next, in: bytes) else { break }
            candidates.append((entries, 0))
            for offset in subIFDOffsets(entries, header: header, bytes: bytes).prefix(8)
            where visited.insert(offset).inserted {
                if let (subEntries, _) = try? header.directory(at: offset, in: bytes) {
                    candidates.append((subEntries, 1))
                }
            }
            next = following
        }
        guard let ifd0 = candidates.first?.entries,
            let make = ascii(ifd0, tag: 271, header: header, bytes: bytes)?.uppercased()
        else { return nil }
        let format: String
        if make.hasPrefix("NIKON") {
            format = "NEF"
        } else if make.hasPrefix("SONY") {
            format = "ARW"
        } else {
            return nil
        }
        var best: VendorRawLayout?
        for candidate in candidates {
            guard let layout = tiffStrip(candidate.entries, format: format, header: header) else { continue }
            // LibRaw takes the largest raw image; on a tie the first.
            if let current = best, layout.width * layout.height <= current.width * current.height { continue }
            best = layout
        }
        // Sony's packed 12-bit data is another layout; only Nikon's is read here.
        if let best, best.packing == .packed12, format != "NEF" || header.byteOrder != .big { return nil }
        return best
    }

    /// An uncompressed single-strip CFA image described by `entries`, when its strip has a size rawcap reads.
    private static func tiffStrip(_ entries: [TIFFHeader.Entry], format: String, header: TIFFHeader)
        -> VendorRawLayout?
    {
        func value(_ tag: UInt16) -> Int? {
            guard let entry = entries.first(where: { $0.tag.rawValue == tag }), entry.count == 1,
                let value = header.inlineInteger(entry)
            else { return nil }
            return Int(exactly: value)
        }
        guard value(254) ?? 0 == 0, value(262) == 32803, value(259) ?? 1 == 1, value(277) ?? 1 == 1,
            let width = value(256), let height = value(257), let bits = value(258),
            let offset = value(273), let byteCount = value(279)
        else { return nil }
        return checked(
            format: format, width: width, height: height, bits: bits, offset: offset, byteCount: byteCount,
            order: header.byteOrder)
    }

    /// The layout for these values when they describe one of the layouts read here.
    private static func checked(
        format: String, width: Int, height: Int, bits: Int, offset: Int, byteCount: Int, order: ByteOrder
    ) -> VendorRawLayout? {
        guard (1...WireLimits.maxImageDimension).contains(width), (1...WireLimits.maxImageDimension).contains(height),
            width * height <= WireLimits.maxImagePixels, offset >= 0
        else { return nil }
        let packing: Packing
        if (bits == 14 || bits == 16) && byteCount == width * height * 2 {
            packing = .words(order)
        } else if bits == 12 && width % 2 == 0 && byteCount == width * height * 3 / 2 {
            packing = .packed12
        } else {
            return nil
        }
        return VendorRawLayout(
            format: format, width: width, height: height, offset: offset, byteCount: byteCount, packing: packing,
            storedBits: bits)
    }

    /// SubIFDs (330): one inline LONG, or a list of LONGs elsewhere in the file.
    private static func subIFDOffsets(_ entries: [TIFFHeader.Entry], header: TIFFHeader, bytes: ArraySlice<UInt8>)
        -> [UInt64]
    {
        guard let entry = entries.first(where: { $0.tag.rawValue == 330 }), entry.type == 4 || entry.type == 13,
            (1...16).contains(entry.count)
        else { return [] }
        if entry.count == 1 { return header.inlineInteger(entry).map { [$0] } ?? [] }
        guard let pointer = header.inlineInteger(TIFFHeader.Entry(tag: entry.tag, type: 4, count: 1, valueField: entry.valueField)),
            let start = Int(exactly: pointer), start <= bytes.count - Int(entry.count) * 4
        else { return [] }
        var reader = WireReader(bytes.dropFirst(start), byteOrder: header.byteOrder)
        return (0..<Int(entry.count)).compactMap { _ in (try? reader.read(UInt32.self)).map(UInt64.init) }
    }

    /// An ASCII entry's text (up to 64 bytes), inline or elsewhere in the file.
    private static func ascii(_ entries: [TIFFHeader.Entry], tag: UInt16, header: TIFFHeader, bytes: ArraySlice<UInt8>)
        -> String?
    {
        guard let entry = entries.first(where: { $0.tag.rawValue == tag }), entry.type == 2, entry.count >= 1 else {
            return nil
        }
        let count = Int(min(entry.count, 64))
        let text: [UInt8]
        if entry.count <= 4 {
            text = Array(entry.valueField.prefix(count))
        } else {
            guard let pointer = header.inlineInteger(TIFFHeader.Entry(tag: entry.tag, type: 4, count: 1, valueField: entry.valueField)),
                let start = Int(exactly: pointer), start <= bytes.count - count
            else { return nil }
            text = Array(bytes.dropFirst(start).prefix(count))
        }
        return String(decoding: text.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// An uncompressed RAF: the header's CFA block (big-endian offset and length at bytes 100 and 104) is a TIFF
    /// whose IFD 0 points (0xF000) to Fujifilm's raw IFD.
    private static func fujifilm(_ bytes: ArraySlice<UInt8>) -> VendorRawLayout? {
        var reader = WireReader(bytes.dropFirst(100), byteOrder: .big)
        guard let blockOffset = try? reader.read(UInt32.self), let blockLength = try? reader.read(UInt32.self),
            Int(blockOffset) < bytes.count
        else { return nil }
        // A file cut short inside the block keeps what it has: the strip's end is checked when it is decoded.
        let start = bytes.startIndex + Int(blockOffset)
        let block = bytes[start..<(start + min(Int(blockLength), bytes.count - Int(blockOffset)))]
        guard let header = try? TIFFHeader(block), !header.isBigTIFF,
            let (entries, _) = try? header.directory(at: header.firstIFDOffset, in: block),
            let pointer = entries.first(where: { $0.tag.rawValue == 0xF000 }).flatMap(header.inlineInteger),
            let (raw, _) = try? header.directory(at: pointer, in: block)
        else { return nil }
        func value(_ tag: UInt16) -> Int? {
            guard let entry = raw.first(where: { $0.tag.rawValue == tag }), entry.count == 1,
                let value = header.inlineInteger(entry)
            else { return nil }
            return Int(exactly: value)
        }
        guard let width = value(0xF001), let height = value(0xF002), let bits = value(0xF003),
            let dataOffset = value(0xF007), let byteCount = value(0xF008)
        else { return nil }
        let layout = checked(
            format: "RAF", width: width, height: height, bits: bits, offset: Int(blockOffset) + dataOffset,
            byteCount: byteCount, order: header.byteOrder)
        return layout?.packing == .packed12 ? nil : layout
    }

    // MARK: - Decoding

    /// Checks that the samples lie inside `bytes`, before anything is allocated for them.
    ///
    /// - Throws: ``DecodeError`` `.truncated` when the strip runs past the end of the file.
    func checkFits(_ bytes: ArraySlice<UInt8>) throws(DecodeError) {
        guard offset <= bytes.count, byteCount <= bytes.count - offset else {
            throw DecodeError(
                .truncated, at: bytes.count,
                "the \(format) image data (\(byteCount) bytes at \(offset)) runs past the end of the \(bytes.count)-byte file")
        }
    }

    /// Rows per piece when the samples are decoded on several cores.
    static let rowsPerPieceMinimum = 64

    /// Decodes the samples from `bytes` into `output` (`width × height` of them, row by row) and returns the largest.
    ///
    /// - Throws: ``DecodeError`` `.truncated` when the strip runs past the end of the file, `.corrupt` when `output`
    ///   is not the layout's size.
    func decode(_ bytes: ArraySlice<UInt8>, into output: UnsafeMutableBufferPointer<UInt16>) throws(DecodeError)
        -> UInt16
    {
        guard output.count == width * height else {
            throw DecodeError(.corrupt, "\(output.count) samples for a \(width)×\(height) \(format) image")
        }
        try checkFits(bytes)
        let rowBytes = byteCount / height
        let (width, packing) = (self.width, self.packing)
        let maxima: [UInt16] = bytes.withUnsafeBytes { file in
            guard let fileBase = file.baseAddress, let outputBase = output.baseAddress else { return [0] }
            nonisolated(unsafe) let source = fileBase + offset
            nonisolated(unsafe) let target = outputBase
            return ParallelRanges.map(height, minimum: Self.rowsPerPieceMinimum) { rows in
                var largest: UInt16 = 0
                for row in rows {
                    let input = source + row * rowBytes
                    let line = target + row * width
                    switch packing {
                    case .words(let order):
                        largest = max(largest, Self.words(input, into: line, count: width, big: order == .big))
                    case .packed12:
                        largest = max(largest, Self.packed12(input, into: line, count: width))
                    }
                }
                return largest
            }
        }
        return maxima.max() ?? 0
    }

    private static func words(_ input: UnsafeRawPointer, into line: UnsafeMutablePointer<UInt16>, count: Int, big: Bool)
        -> UInt16
    {
        var largest: UInt16 = 0
        // The file's words may sit at any byte offset: loadUnaligned.
        if big {
            for column in 0..<count {
                let sample = UInt16(bigEndian: input.loadUnaligned(fromByteOffset: column * 2, as: UInt16.self))
                line[column] = sample
                largest = max(largest, sample)
            }
        } else {
            for column in 0..<count {
                let sample = UInt16(littleEndian: input.loadUnaligned(fromByteOffset: column * 2, as: UInt16.self))
                line[column] = sample
                largest = max(largest, sample)
            }
        }
        return largest
    }

    private static func packed12(_ input: UnsafeRawPointer, into line: UnsafeMutablePointer<UInt16>, count: Int)
        -> UInt16
    {
        let bytes = input.assumingMemoryBound(to: UInt8.self)
        var largest: UInt16 = 0
        for pair in 0..<(count / 2) {
            let (a, b, c) = (UInt16(bytes[pair * 3]), UInt16(bytes[pair * 3 + 1]), UInt16(bytes[pair * 3 + 2]))
            let first = a << 4 | b >> 4
            let second = (b & 0xF) << 8 | c
            line[pair * 2] = first
            line[pair * 2 + 1] = second
            largest = max(largest, first, second)
        }
        return largest
    }
}
