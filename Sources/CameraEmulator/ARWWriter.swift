import RawImage
import WireFormat

/// Writes a ``RawImage/RawFrame`` as a Sony ARW file in its simplest form, uncompressed ARW 2 (what Alpha bodies
/// write with "RAW File Type: Uncompressed"), so that LibRaw identifies the body and applies its colour matrix.
///
/// The layout follows what LibRaw's TIFF parser needs (`parse_tiff_ifd`, `apply_tiff`: an uncompressed CFA IFD of
/// 14- or 16-bit samples goes to `unpacked_load_raw`; Sony's black levels come from tag 0x7310) and the structure
/// of Sony's files described in lclevy's "Sony RAW file formats" and exiftool's Sony tag tables:
///
/// | IFD | tags |
/// |---|---|
/// | IFD 0 | NewSubfileType 1, Make `SONY`, Model, Orientation, Software, DateTime, SubIFDs → raw IFD, ExifIFD |
/// | raw IFD | NewSubfileType 0, the active area's size, BitsPerSample 14 (16 above 14 bits), Compression 1, Photometric 32803, one strip, CFARepeatPatternDim/CFAPattern, SonyBlackLevel 0x7310 (one level per CFA position, 4 SHORTs) |
/// | Exif IFD | exposure time, f-number, ISO, bias, focal length, dates, lens, body serial |
///
/// Only the active area is stored: LibRaw treats an ARW's whole strip as image (Sony's masked pixels are not in the
/// file either), so the masked margin of the emulated sensor is left out. Samples are little-endian 16-bit words.
public enum ARWWriter {
    /// Sony's SonyBlackLevel tag (0x7310), read by LibRaw's `parse_tiff_ifd` as four SHORTs.
    static let blackLevelTag: UInt16 = 0x7310
    /// The Make Sony writes; LibRaw recognises the body from it and the Model.
    public static let make = "SONY"

    /// Encodes the active area of `frame` as an uncompressed ARW.
    ///
    /// - Throws: ``EmulatorError/Code-swift.struct/invalidConfiguration`` when the frame is not a 2×2 pattern (ARW
    ///   is Bayer only) or would not fit TIFF's 32-bit offsets.
    public static func encode(_ frame: RawFrame, software: String) throws(EmulatorError) -> [UInt8] {
        let active = frame.activeArea
        guard frame.cfa.width == 2, frame.cfa.height == 2 else {
            throw EmulatorError(.invalidConfiguration, "ARW holds Bayer (2×2) data, not a \(frame.cfa) pattern")
        }
        let sampleBytes = active.width * active.height * 2
        guard sampleBytes < Int(UInt32.max) - (1 << 20) else {
            throw EmulatorError(.invalidConfiguration, "a \(active.width)×\(active.height) frame exceeds TIFF's 4 GiB")
        }
        var metadata = frame.metadata
        metadata.make = make
        let exifEntries = TIFFEPWriter.exifDirectory(metadata)

        func ifd0(subIFD: UInt32, exif: UInt32) -> [TIFFEntry] {
            var entries: [TIFFEntry] = [
                .long(254, [1]),
                .ascii(271, make),
                .short(274, [metadata.orientation.rawValue]),
                .ascii(305, software),
                .long(330, [subIFD]),
                .long(34665, [exif]),
            ]
            if let model = metadata.model { entries.append(.ascii(272, model)) }
            if let time = metadata.captureTime { entries.append(.ascii(306, time.exifDateTime)) }
            return entries.sorted { $0.tag < $1.tag }
        }
        func rawIFD(dataOffset: UInt32) -> [TIFFEntry] {
            // LibRaw's unpacked_load_raw takes 14 and 16 bits; 12 would mean Sony's packed layout.
            let storedBits: UInt16 = frame.bitsPerSample > 14 ? 16 : 14
            // One level per CFA position in pattern order; the emulated sensor's are whole numbers.
            let levels = (0..<4).map {
                UInt16(clamping: Int(frame.blackLevels[$0 % frame.blackLevels.count].rounded()))
            }
            return [
                .long(254, [0]),
                .long(256, [UInt32(active.width)]),
                .long(257, [UInt32(active.height)]),
                .short(258, [storedBits]),
                .short(259, [1]),
                .short(262, [32803]),
                .long(273, [dataOffset]),
                .short(277, [1]),
                .long(278, [UInt32(active.height)]),
                .long(279, [UInt32(sampleBytes)]),
                .short(284, [1]),
                .short(blackLevelTag, levels),
                .short(33421, [2, 2]),
                .byte(33422, frame.cfa.colors.map(\.rawValue)),
            ].sorted { $0.tag < $1.tag }
        }

        let placeholder = ifd0(subIFD: 0, exif: 0)
        let rawOffset = 8 + TIFFEPWriter.directoryByteCount(placeholder)
        let exifOffset = rawOffset + TIFFEPWriter.directoryByteCount(rawIFD(dataOffset: 0))
        let dataOffset = TIFFEPWriter.align(exifOffset + TIFFEPWriter.directoryByteCount(exifEntries), to: 16)

        var writer = WireWriter(byteOrder: .little, capacity: dataOffset + sampleBytes)
        writer.write(bytes: [0x49, 0x49])  // "II"
        writer.write(UInt16(42))
        writer.write(UInt32(8))
        TIFFEPWriter.writeDirectory(ifd0(subIFD: UInt32(rawOffset), exif: UInt32(exifOffset)), at: 8, into: &writer)
        TIFFEPWriter.writeDirectory(rawIFD(dataOffset: UInt32(dataOffset)), at: rawOffset, into: &writer)
        TIFFEPWriter.writeDirectory(exifEntries, at: exifOffset, into: &writer)
        writer.write(bytes: [UInt8](repeating: 0, count: dataOffset - writer.count))
        var bytes = writer.bytes
        bytes.reserveCapacity(dataOffset + sampleBytes)
        for row in active.y..<active.bottom {
            let start = row * frame.width + active.x
            for sample in frame.samples[start..<(start + active.width)] {
                bytes.append(UInt8(truncatingIfNeeded: sample))
                bytes.append(UInt8(truncatingIfNeeded: sample >> 8))
            }
        }
        return bytes
    }
}
