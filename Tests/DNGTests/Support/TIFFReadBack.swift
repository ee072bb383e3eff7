import CLibTIFF

/// A test-only reader over libtiff: the IFDs of a written DNG with their size tags and raw strip/tile bytes.
///
/// This is deliberately independent of the writer: it opens the file with plain `TIFFOpen`, follows IFD0's SubIFDs
/// with `TIFFSetSubDirectory`, and reads chunks with `TIFFReadRawStrip`/`TIFFReadRawTile`.
struct TIFFReadBack {
    struct Directory {
        var width = 0
        var height = 0
        var samplesPerPixel = 1
        var bitsPerSample = 0
        var compression = 0
        var photometric = 0
        var newSubfileType = 0
        var tileWidth: Int?
        var tileHeight: Int?
        var rowsPerStrip: Int?
        /// Raw strip or tile bytes in TIFF order.
        var chunks: [[UInt8]] = []
        var isTiled: Bool { tileWidth != nil }
    }

    var ifd0 = Directory()
    var subIFDs: [Directory] = []

    /// The raw image IFD (NewSubFileType 0).
    var raw: Directory? { ([ifd0] + subIFDs).first { $0.newSubfileType == 0 } }

    init(path: String) throws {
        // "c": no strip chopping, so the chunks are the strips as written (libtiff splits big strips when reading).
        guard let tif = TIFFOpen(path, "rc") else { throw TestFailure("TIFFOpen(\(path)) failed") }
        defer { TIFFClose(tif) }
        ifd0 = try Self.readDirectory(tif)
        var count: UInt16 = 0
        var offsets: UnsafeMutablePointer<UInt64>?
        var subOffsets: [UInt64] = []
        if rc_tiff_get_subifds(tif, &count, &offsets) == 1, let offsets {
            subOffsets = Array(UnsafeBufferPointer(start: offsets, count: Int(count)))
        }
        for offset in subOffsets {
            guard TIFFSetSubDirectory(tif, offset) == 1 else { throw TestFailure("TIFFSetSubDirectory(\(offset))") }
            subIFDs.append(try Self.readDirectory(tif))
        }
    }

    private static func readDirectory(_ tif: OpaquePointer) throws -> Directory {
        var directory = Directory()
        var u32: UInt32 = 0
        var u16: UInt16 = 0
        if rc_tiff_get_u32(tif, UInt32(TIFFTAG_IMAGEWIDTH), &u32) == 1 { directory.width = Int(u32) }
        if rc_tiff_get_u32(tif, UInt32(TIFFTAG_IMAGELENGTH), &u32) == 1 { directory.height = Int(u32) }
        if rc_tiff_get_u16(tif, UInt32(TIFFTAG_SAMPLESPERPIXEL), &u16) == 1 { directory.samplesPerPixel = Int(u16) }
        if rc_tiff_get_u16(tif, UInt32(TIFFTAG_BITSPERSAMPLE), &u16) == 1 { directory.bitsPerSample = Int(u16) }
        if rc_tiff_get_u16(tif, UInt32(TIFFTAG_COMPRESSION), &u16) == 1 { directory.compression = Int(u16) }
        if rc_tiff_get_u16(tif, UInt32(TIFFTAG_PHOTOMETRIC), &u16) == 1 { directory.photometric = Int(u16) }
        if rc_tiff_get_u32(tif, UInt32(TIFFTAG_SUBFILETYPE), &u32) == 1 { directory.newSubfileType = Int(u32) }
        if TIFFIsTiled(tif) != 0 {
            if rc_tiff_get_u32(tif, UInt32(TIFFTAG_TILEWIDTH), &u32) == 1 { directory.tileWidth = Int(u32) }
            if rc_tiff_get_u32(tif, UInt32(TIFFTAG_TILELENGTH), &u32) == 1 { directory.tileHeight = Int(u32) }
        } else if rc_tiff_get_u32(tif, UInt32(TIFFTAG_ROWSPERSTRIP), &u32) == 1 {
            directory.rowsPerStrip = Int(u32)
        }
        let chunkCount = Int(directory.isTiled ? TIFFNumberOfTiles(tif) : TIFFNumberOfStrips(tif))
        for index in 0..<chunkCount {
            let size = Int(TIFFGetStrileByteCount(tif, UInt32(index)))
            var bytes = [UInt8](repeating: 0, count: size)
            let read = bytes.withUnsafeMutableBytes { buffer in
                directory.isTiled
                    ? TIFFReadRawTile(tif, UInt32(index), buffer.baseAddress, tmsize_t(size))
                    : TIFFReadRawStrip(tif, UInt32(index), buffer.baseAddress, tmsize_t(size))
            }
            guard read == size else { throw TestFailure("chunk \(index): read \(read) of \(size) bytes") }
            directory.chunks.append(bytes)
        }
        return directory
    }

    /// The samples of an uncompressed strip image (8- or 16-bit little-endian), row-major, interleaved.
    static func uncompressedSamples(_ directory: Directory) throws -> [UInt16] {
        guard directory.compression == 1, !directory.isTiled else { throw TestFailure("not uncompressed strips") }
        let bytes = directory.chunks.flatMap { $0 }
        switch directory.bitsPerSample {
        case 8: return bytes.map(UInt16.init)
        case 16:
            return stride(from: 0, to: bytes.count - 1, by: 2).map { UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8 }
        default: throw TestFailure("unexpected BitsPerSample \(directory.bitsPerSample)")
        }
    }
}
