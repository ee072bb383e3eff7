import RawImage
import WireFormat

/// Writes a ``RawImage/RawFrame`` as a TIFF/EP raw file (ISO 12234-2), the object a camera stores for PTP format
/// 0x3802: what the emulated camera keeps on its card.
///
/// The file is little-endian with one image directory, IFD 0, holding the whole readout (masked margins included)
/// as uncompressed 16-bit CFA samples in strips of about a megabyte:
///
/// | IFD 0 | value |
/// |---|---|
/// | NewSubfileType, ImageWidth, ImageLength | 0, the readout's size |
/// | BitsPerSample, Compression, PhotometricInterpretation | 16, 1 (none), 32803 (CFA) |
/// | StripOffsets, RowsPerStrip, StripByteCounts | the sample strips, at the end of the file |
/// | CFARepeatPatternDim, CFAPattern | the pattern from the active area's top-left (TIFF/EP tags 33421/33422) |
/// | Make, Model, Orientation, DateTime, Software | from the frame's metadata |
/// | TIFF/EPStandardID | 1.0.0.0 (37398) |
/// | ExifIFD | exposure time, f-number, ISO, bias, focal length, dates, lens and body serial |
/// | UniqueCameraModel, CameraSerialNumber, CFAPlaneColor, CFALayout | DNG-style identity and CFA description |
/// | BlackLevelRepeatDim, BlackLevel, WhiteLevel | one black level per CFA position, the clipping level |
/// | ActiveArea, DefaultCropOrigin, DefaultCropSize | the frame's geometry |
/// | ColorMatrix1/2, CalibrationIlluminant1/2, ForwardMatrix1/2, AsShotNeutral, BaselineExposure | its colour |
///
/// TIFF/EP itself has no tags for levels, active area or colour calibration; carrying DNG's (without DNGVersion,
/// so readers still see TIFF/EP) lets rawcap's reader recover exactly the frame that was written. Samples are
/// written as stored, in the low ``RawImage/RawFrame/bitsPerSample`` bits of each 16-bit value; the frame's depth
/// travels in WhiteLevel (and in ObjectInfo's ImageBitDepth).
public enum TIFFEPWriter {
    /// Bytes per strip to aim for: large enough that a 24-megapixel file has a few dozen strips, small enough that
    /// readers that load a strip at a time stay light.
    static let targetStripByteCount = 1 << 20
    /// Largest denominator used for the rationals of colour matrices, neutral and baseline exposure: six
    /// significant digits, beyond the float precision libtiff hands readers.
    static let maxColorDenominator: Int32 = 1_000_000

    /// Encodes `frame` as a TIFF/EP file.
    ///
    /// - Parameter software: the Software tag, e.g. `rawcap emulator 0.1`.
    /// - Throws: ``EmulatorError/Code-swift.struct/invalidConfiguration`` when the file would not fit TIFF's 32-bit
    ///   offsets (more than 4 GiB).
    public static func encode(_ frame: RawFrame, software: String) throws(EmulatorError) -> [UInt8] {
        let rowBytes = frame.width * 2
        let rowsPerStrip = max(1, min(frame.height, targetStripByteCount / max(rowBytes, 1)))
        let stripCount = (frame.height + rowsPerStrip - 1) / rowsPerStrip
        let sampleBytes = frame.width * frame.height * 2
        guard sampleBytes < Int(UInt32.max) - (1 << 20) else {
            throw EmulatorError(.invalidConfiguration, "a \(frame.width)×\(frame.height) frame exceeds TIFF's 4 GiB")
        }

        // First pass with placeholder offsets, to learn where the EXIF IFD and the samples land.
        let exifEntries = exifDirectory(frame.metadata)
        var plan = imageDirectory(frame, software: software, rowsPerStrip: rowsPerStrip,
            stripOffsets: [UInt32](repeating: 0, count: stripCount), exifOffset: 0)
        let exifOffset = 8 + directoryByteCount(plan)
        let dataOffset = align(exifOffset + directoryByteCount(exifEntries), to: 16)
        let stripOffsets = (0..<stripCount).map { UInt32(dataOffset + $0 * rowsPerStrip * rowBytes) }
        plan = imageDirectory(frame, software: software, rowsPerStrip: rowsPerStrip, stripOffsets: stripOffsets,
            exifOffset: UInt32(exifOffset))

        var writer = WireWriter(byteOrder: .little, capacity: dataOffset + sampleBytes)
        writer.write(bytes: [0x49, 0x49])  // "II"
        writer.write(UInt16(42))
        writer.write(UInt32(8))
        writeDirectory(plan, at: 8, into: &writer)
        writeDirectory(exifEntries, at: exifOffset, into: &writer)
        writer.write(bytes: [UInt8](repeating: 0, count: dataOffset - writer.count))
        var bytes = writer.bytes
        if UInt16(1).littleEndian == 1 {
            frame.samples.withUnsafeBytes { bytes.append(contentsOf: $0) }
        } else {
            bytes.reserveCapacity(bytes.count + sampleBytes)
            for sample in frame.samples {
                bytes.append(UInt8(truncatingIfNeeded: sample))
                bytes.append(UInt8(truncatingIfNeeded: sample >> 8))
            }
        }
        return bytes
    }

    // MARK: Directories

    private static func imageDirectory(
        _ frame: RawFrame, software: String, rowsPerStrip: Int, stripOffsets: [UInt32], exifOffset: UInt32
    ) -> [TIFFEntry] {
        let rowBytes = frame.width * 2
        let stripByteCounts = stripOffsets.indices.map { index in
            UInt32(min(rowsPerStrip, frame.height - index * rowsPerStrip) * rowBytes)
        }
        let metadata = frame.metadata
        let color = frame.color
        let active = frame.activeArea
        let crop = frame.defaultCrop
        var entries: [TIFFEntry] = [
            .long(254, [0]),
            .long(256, [UInt32(frame.width)]),
            .long(257, [UInt32(frame.height)]),
            .short(258, [16]),
            .short(259, [1]),
            .short(262, [32803]),
            .long(273, stripOffsets),
            .short(274, [metadata.orientation.rawValue]),
            .short(277, [1]),
            .long(278, [UInt32(rowsPerStrip)]),
            .long(279, stripByteCounts),
            .rational(282, [whole(300)]),
            .rational(283, [whole(300)]),
            .short(284, [1]),
            .short(296, [2]),
            .ascii(305, software),
            .short(33421, [UInt16(frame.cfa.height), UInt16(frame.cfa.width)]),
            .byte(33422, frame.cfa.colors.map(\.rawValue)),
            .long(34665, [exifOffset]),
            .byte(37398, [1, 0, 0, 0]),
            .ascii(50708, metadata.effectiveUniqueCameraModel),
            .byte(50710, [0, 1, 2]),
            .short(50711, [1]),
            .short(50713, [UInt16(frame.cfa.height), UInt16(frame.cfa.width)]),
            blackLevel(frame.blackLevels),
            .long(50717, [UInt32(frame.whiteLevel)]),
            .long(50719, [UInt32(crop.x), UInt32(crop.y)]),
            .long(50720, [UInt32(crop.width), UInt32(crop.height)]),
            .signedRational(50721, color.colorMatrix1.values.map(colorRational)),
            .rational(50728, color.asShotNeutral.map(colorRational)),
            .signedRational(50730, [colorRational(color.baselineExposure)]),
            .short(50778, [color.illuminant1.rawValue]),
            .long(50829, [UInt32(active.y), UInt32(active.x), UInt32(active.bottom), UInt32(active.right)]),
        ]
        if let make = metadata.make { entries.append(.ascii(271, make)) }
        if let model = metadata.model { entries.append(.ascii(272, model)) }
        if let time = metadata.captureTime { entries.append(.ascii(306, time.exifDateTime)) }
        if let serial = metadata.serialNumber { entries.append(.ascii(50735, serial)) }
        if let matrix = color.colorMatrix2, let illuminant = color.illuminant2 {
            entries.append(.signedRational(50722, matrix.values.map(colorRational)))
            entries.append(.short(50779, [illuminant.rawValue]))
        }
        if let matrix = color.forwardMatrix1 { entries.append(.signedRational(50964, matrix.values.map(colorRational))) }
        if let matrix = color.forwardMatrix2 { entries.append(.signedRational(50965, matrix.values.map(colorRational))) }
        return entries.sorted { $0.tag < $1.tag }
    }

    static func exifDirectory(_ metadata: CaptureMetadata) -> [TIFFEntry] {
        var entries: [TIFFEntry] = [.undefined(36864, Array("0231".utf8))]
        if let time = metadata.exposureTime { entries.append(.rational(33434, [time])) }
        if let fNumber = metadata.fNumber { entries.append(.rational(33437, [decimal(fNumber)])) }
        if let iso = metadata.iso { entries.append(.short(34855, [UInt16(clamping: iso)])) }
        if let time = metadata.captureTime {
            entries.append(.ascii(36867, time.exifDateTime))
            if let offset = time.exifOffset { entries.append(.ascii(36881, offset)) }
            if !time.subSeconds.isEmpty { entries.append(.ascii(37521, time.subSeconds)) }
        }
        if let bias = metadata.exposureBias { entries.append(.signedRational(37380, [bias])) }
        if let focal = metadata.focalLength { entries.append(.rational(37386, [decimal(focal)])) }
        if let serial = metadata.serialNumber { entries.append(.ascii(42033, serial)) }
        if let lens = metadata.lensModel { entries.append(.ascii(42036, lens)) }
        return entries.sorted { $0.tag < $1.tag }
    }

    /// BlackLevel as LONGs when every level is whole (the emulated sensor's are), else as RATIONALs.
    private static func blackLevel(_ levels: [Double]) -> TIFFEntry {
        if levels.allSatisfy({ $0 == $0.rounded() && $0 >= 0 && $0 <= Double(UInt32.max) }) {
            return .long(50714, levels.map { UInt32($0) })
        }
        return .rational(50714, levels.map(colorRational))
    }

    // MARK: Layout

    /// Bytes an IFD takes with its out-of-line values: count, entries, next-IFD offset, then each value on a word
    /// boundary.
    static func directoryByteCount(_ entries: [TIFFEntry]) -> Int {
        var size = 2 + entries.count * 12 + 4
        for entry in entries where entry.isOutOfLine { size = align(size, to: 2) + entry.payload.count }
        return align(size, to: 2)
    }

    /// Writes an IFD that starts at `offset` (the writer's current position) with its values after it.
    static func writeDirectory(_ entries: [TIFFEntry], at offset: Int, into writer: inout WireWriter) {
        precondition(writer.count == offset, "IFD written at \(writer.count), planned at \(offset)")
        var valueOffset = offset + 2 + entries.count * 12 + 4
        var values: [UInt8] = []
        writer.write(UInt16(entries.count))
        for entry in entries {
            writer.write(entry.tag)
            writer.write(entry.type)
            writer.write(entry.count)
            if entry.isOutOfLine {
                if valueOffset % 2 != 0 {
                    values.append(0)
                    valueOffset += 1
                }
                writer.write(UInt32(valueOffset))
                values.append(contentsOf: entry.payload)
                valueOffset += entry.payload.count
            } else {
                writer.write(bytes: entry.payload + [UInt8](repeating: 0, count: 4 - entry.payload.count))
            }
        }
        writer.write(UInt32(0))  // no next IFD
        writer.write(bytes: values)
        if writer.count % 2 != 0 { writer.write(UInt8(0)) }
    }

    static func align(_ value: Int, to boundary: Int) -> Int { (value + boundary - 1) / boundary * boundary }

    // MARK: Numbers

    private static func whole(_ value: Int32) -> Rational {
        guard let rational = Rational(value, 1) else { preconditionFailure("a denominator of 1 is valid") }
        return rational
    }

    /// A value with at most two decimals (f/5.6, 50 mm) as an exact fraction over 100, reduced.
    private static func decimal(_ value: Double) -> Rational {
        let hundredths = Int32(clamping: Int((value * 100).rounded()))
        var (numerator, denominator) = (hundredths, Int32(100))
        while denominator > 1, numerator % 10 == 0, denominator % 10 == 0 { (numerator, denominator) = (numerator / 10, denominator / 10) }
        while denominator > 1, numerator % 2 == 0, denominator % 2 == 0 { (numerator, denominator) = (numerator / 2, denominator / 2) }
        while denominator > 1, numerator % 5 == 0, denominator % 5 == 0 { (numerator, denominator) = (numerator / 5, denominator / 5) }
        return Rational(numerator, denominator) ?? whole(0)
    }

    /// A colour coefficient as the closest fraction with a denominator up to ``maxColorDenominator``.
    private static func colorRational(_ value: Double) -> Rational {
        Rational(approximating: value, maxDenominator: maxColorDenominator) ?? whole(0)
    }
}
