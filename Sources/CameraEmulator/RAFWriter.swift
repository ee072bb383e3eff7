import RawImage
import WireFormat

/// Writes a ``RawImage/RawFrame`` as a Fujifilm RAF file in its simplest form, uncompressed X-Trans (what X-series
/// bodies write with "RAW Recording: Uncompressed"), so that LibRaw identifies the body and applies its colour
/// matrix.
///
/// The layout is the one LibRaw's `open_datastream` reads for a `FUJIFILM` header (`parse_fuji` for the metadata
/// block, `parse_tiff` for the embedded JPEG's EXIF and for the CFA block, whose Fujifilm tags 0xF000–0xF00A
/// `parse_tiff_ifd` knows), as exiftool's FujiFilm RAF tables document it:
///
/// | offset | big-endian header field |
/// |---|---|
/// | 0 | `FUJIFILMCCD-RAW ` (16 bytes), format version `0201`, camera ID (8 bytes) |
/// | 28 | camera model, 32 bytes, NUL-padded (LibRaw's model) |
/// | 60 | directory version `0100`, then 20 reserved bytes |
/// | 84, 88 | JPEG offset and length: the preview, with an EXIF APP1 (Make `FUJIFILM`, Model, exposure) |
/// | 92, 96 | metadata offset and length: UINT32 count, then records (UINT16 tag, UINT16 size, data) |
/// | 100, 104 | CFA offset and length |
///
/// | metadata record | content |
/// |---|---|
/// | 0x0100 RawImageFullSize, 0x0121 RawImageCroppedSize | height, width (UINT16 each) |
/// | 0x0130 FujiLayout | 0x00 0x08 0x00 0x00: not a SuperCCD layout (LibRaw's `fuji_layout` and `fuji_width` 0) |
/// | 0x0131 XTransLayout | the 6×6 pattern of the active area's top-left, 36 bytes last to first (0 R, 1 G, 2 B) |
/// | 0x2FF0 WB_GRGBLevels | the as-shot multipliers G, R, G, B (the reciprocal of AsShotNeutral, green 302) |
///
/// The CFA block is a little-endian TIFF whose IFD 0 holds one entry, 0xF000, pointing to Fujifilm's raw IFD:
/// 0xF001 width, 0xF002 height, 0xF003 bits per sample, 0xF007 strip offset and 0xF008 byte count (from the CFA
/// block's start), 0xF00A black levels (36 LONGs, one per pattern position). Only the active area is stored, as
/// 16-bit little-endian words.
public enum RAFWriter {
    /// The Make in the preview's EXIF; LibRaw takes the maker from it.
    public static let make = "FUJIFILM"
    /// WB_GRGBLevels' green multiplier, as Fujifilm bodies write it.
    static let greenMultiplier = 302.0

    /// Encodes the active area of `frame` as an uncompressed RAF, with `preview` (a baseline JPEG starting with
    /// SOI) as its embedded JPEG.
    ///
    /// - Throws: ``EmulatorError/Code-swift.struct/invalidConfiguration`` for a pattern other than 6×6 X-Trans, a
    ///   preview that is not a JPEG, or a frame past the format's 16-bit sizes and 32-bit offsets.
    public static func encode(_ frame: RawFrame, preview: [UInt8], software: String) throws(EmulatorError) -> [UInt8] {
        let active = frame.activeArea
        guard frame.cfa.width == 6, frame.cfa.height == 6 else {
            throw EmulatorError(.invalidConfiguration, "this RAF writer stores X-Trans (6×6) data, not \(frame.cfa)")
        }
        guard active.width <= Int(UInt16.max), active.height <= Int(UInt16.max) else {
            throw EmulatorError(.invalidConfiguration, "RAF sizes are 16-bit: \(active.width)×\(active.height)")
        }
        guard preview.count >= 4, preview[0] == 0xFF, preview[1] == 0xD8 else {
            throw EmulatorError(.invalidConfiguration, "the RAF preview must be a JPEG")
        }
        let sampleBytes = active.width * active.height * 2
        guard sampleBytes < Int(UInt32.max) - (1 << 24) else {
            throw EmulatorError(.invalidConfiguration, "a \(active.width)×\(active.height) frame exceeds RAF's 4 GiB")
        }
        let jpeg = try previewWithEXIF(preview, metadata: frame.metadata, software: software)
        let metadataBlock = self.metadataBlock(frame)
        let cfaHeader = cfaDirectories(frame, sampleBytes: sampleBytes)

        let headerByteCount = 160
        let jpegOffset = headerByteCount
        let metadataOffset = jpegOffset + jpeg.count
        let cfaOffset = TIFFEPWriter.align(metadataOffset + metadataBlock.count, to: 16)
        let cfaByteCount = cfaHeader.count + sampleBytes

        var header = WireWriter(byteOrder: .big, capacity: headerByteCount)
        header.write(bytes: Array("FUJIFILMCCD-RAW 0201FF129502".utf8))
        header.write(bytes: fixedASCII(frame.metadata.model ?? "", count: 32))
        header.write(bytes: Array("0100".utf8))
        header.write(bytes: [UInt8](repeating: 0, count: 20))
        for value in [jpegOffset, jpeg.count, metadataOffset, metadataBlock.count, cfaOffset, cfaByteCount] {
            header.write(UInt32(value))
        }
        header.write(bytes: [UInt8](repeating: 0, count: headerByteCount - header.count))

        var bytes = header.bytes
        bytes.reserveCapacity(cfaOffset + cfaByteCount)
        bytes += jpeg
        bytes += metadataBlock
        bytes += [UInt8](repeating: 0, count: cfaOffset - bytes.count)
        bytes += cfaHeader
        for row in active.y..<active.bottom {
            let start = row * frame.width + active.x
            for sample in frame.samples[start..<(start + active.width)] {
                bytes.append(UInt8(truncatingIfNeeded: sample))
                bytes.append(UInt8(truncatingIfNeeded: sample >> 8))
            }
        }
        return bytes
    }

    /// The preview with an APP1 EXIF segment right after SOI: IFD 0 with Make, Model, Software and the EXIF IFD
    /// (exposure, dates, lens), little-endian, offsets from the TIFF header (EXIF 2.3 §4.5.4).
    static func previewWithEXIF(
        _ preview: [UInt8], metadata: CaptureMetadata, software: String
    ) throws(EmulatorError) -> [UInt8] {
        var ifd0: [TIFFEntry] = [.ascii(271, make), .ascii(305, software), .long(34665, [0])]
        if let model = metadata.model { ifd0.append(.ascii(272, model)) }
        ifd0.sort { $0.tag < $1.tag }
        let exif = TIFFEPWriter.exifDirectory(metadata)
        let exifOffset = 8 + TIFFEPWriter.directoryByteCount(ifd0)
        ifd0 = ifd0.map { $0.tag == 34665 ? TIFFEntry.long(34665, [UInt32(exifOffset)]) : $0 }
        var tiff = WireWriter(byteOrder: .little)
        tiff.write(bytes: [0x49, 0x49])
        tiff.write(UInt16(42))
        tiff.write(UInt32(8))
        TIFFEPWriter.writeDirectory(ifd0, at: 8, into: &tiff)
        TIFFEPWriter.writeDirectory(exif, at: exifOffset, into: &tiff)
        let payload = Array("Exif".utf8) + [0, 0] + tiff.bytes
        guard payload.count + 2 <= Int(UInt16.max) else {
            throw EmulatorError(.invalidConfiguration, "the preview's EXIF exceeds a JPEG segment")
        }
        var segment = WireWriter(byteOrder: .big)
        segment.write(bytes: [0xFF, 0xE1])
        segment.write(UInt16(payload.count + 2))
        segment.write(bytes: payload)
        return Array(preview[0..<2]) + segment.bytes + Array(preview[2...])
    }

    /// The metadata block (see the type's description).
    static func metadataBlock(_ frame: RawFrame) -> [UInt8] {
        let active = frame.activeArea
        var records: [(UInt16, [UInt8])] = []
        func sizes(_ height: Int, _ width: Int) -> [UInt8] {
            var writer = WireWriter(byteOrder: .big)
            writer.write(UInt16(height))
            writer.write(UInt16(width))
            return writer.bytes
        }
        records.append((0x0100, sizes(active.height, active.width)))
        records.append((0x0121, sizes(active.height, active.width)))
        records.append((0x0130, [0x00, 0x08, 0x00, 0x00]))
        records.append((0x0131, frame.cfa.colors.reversed().map(\.rawValue)))
        let neutral = frame.color.asShotNeutral
        if neutral.count == 3, neutral.allSatisfy({ $0 > 0 && $0.isFinite }) {
            func level(_ index: Int) -> UInt16 {
                UInt16(clamping: Int((greenMultiplier * neutral[1] / neutral[index]).rounded()))
            }
            var writer = WireWriter(byteOrder: .big)
            for value in [level(1), level(0), level(1), level(2)] { writer.write(value) }
            records.append((0x2FF0, writer.bytes))
        }
        var writer = WireWriter(byteOrder: .big)
        writer.write(UInt32(records.count))
        for (tag, data) in records {
            writer.write(tag)
            writer.write(UInt16(data.count))
            writer.write(bytes: data)
        }
        return writer.bytes
    }

    /// The CFA block's TIFF header and directories, padded so the samples start on a 16-byte boundary.
    static func cfaDirectories(_ frame: RawFrame, sampleBytes: Int) -> [UInt8] {
        let active = frame.activeArea
        let storedBits: UInt32 = frame.bitsPerSample > 14 ? 16 : 14
        let pointer: [TIFFEntry] = [.long(0xF000, [0])]
        let rawOffset = 8 + TIFFEPWriter.directoryByteCount(pointer)
        let levels = (0..<36).map { UInt32(clamping: Int(frame.blackLevels[$0 % frame.blackLevels.count].rounded())) }
        func raw(_ dataOffset: Int) -> [TIFFEntry] {
            [
                .long(0xF001, [UInt32(active.width)]), .long(0xF002, [UInt32(active.height)]),
                .long(0xF003, [storedBits]), .long(0xF007, [UInt32(dataOffset)]),
                .long(0xF008, [UInt32(sampleBytes)]), .long(0xF00A, levels),
            ]
        }
        let dataOffset = TIFFEPWriter.align(rawOffset + TIFFEPWriter.directoryByteCount(raw(0)), to: 16)
        var writer = WireWriter(byteOrder: .little, capacity: dataOffset)
        writer.write(bytes: [0x49, 0x49])
        writer.write(UInt16(42))
        writer.write(UInt32(8))
        TIFFEPWriter.writeDirectory([.long(0xF000, [UInt32(rawOffset)])], at: 8, into: &writer)
        TIFFEPWriter.writeDirectory(raw(dataOffset), at: rawOffset, into: &writer)
        writer.write(bytes: [UInt8](repeating: 0, count: dataOffset - writer.count))
        return writer.bytes
    }

    private static func fixedASCII(_ text: String, count: Int) -> [UInt8] {
        let ascii = text.unicodeScalars.map { $0.isASCII && $0.value != 0 ? UInt8($0.value) : UInt8(ascii: "?") }
        return Array(ascii.prefix(count - 1)) + [UInt8](repeating: 0, count: count - min(ascii.count, count - 1))
    }
}
