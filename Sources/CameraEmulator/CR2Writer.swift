import DNG
import JPEG
import LosslessJPEG
import RawImage
import WireFormat

/// Writes a ``RawImage/RawFrame`` as a Canon CR2, the file the `canon` personality stores.
///
/// The layout is the simplest a Canon EOS body writes, as LibRaw and dcraw read it (dcraw `parse_tiff_ifd`, tag 273
/// with no BitsPerSample: the strip is parsed as a lossless JPEG; `lossless_jpeg_load_raw`; `parse_makernote` for
/// Canon's SensorInfo 0x00E0):
///
/// | part | content |
/// |---|---|
/// | header | `II`, 42, IFD 0 at 16, then `CR`, version 2.0 and the raw IFD's offset (bytes 8–15) |
/// | IFD 0 | a small baseline JPEG of the shot (8-bit, 3 samples, so no reader takes it for the raw image), Make `Canon`, Model, DateTime, ExifIFD; its next IFD is the raw one |
/// | EXIF | ExposureTime, FNumber, ISO, DateTimeOriginal, FocalLength, MakerNote |
/// | MakerNote | a plain IFD: SensorInfo 0x00E0 (the sensor size and the active area's borders) and ColorData 0x4001 (the as-shot white balance, the black level per channel and the white level) |
/// | raw IFD | Compression 6, one strip: the whole readout as one lossless JPEG slice |
///
/// The slice has two components of half the readout's width (each JPEG sample is a pair of horizontal sensor
/// pixels), as Canon's own; with no slice tag (0xC640, `cr2_slice`) dcraw reads it as one slice. A one-component
/// frame would not do: dcraw skips a byte after a 9-byte SOF3 body outside DNGs (a quirk of early Canon files). The
/// whole readout is stored, masked margins included, as Canon does.
public enum CR2Writer {
    /// SHORTs in ColorData (0x4001) of the 5D Mark IV's version: LibRaw `parse_makernote` reads version 8 from a
    /// block of 1560 (also 1592, 1353, 1602).
    static let colorDataCount = 1560

    /// ColorData version 8 (LibRaw `canon.cpp` `parse_makernote`, tag 0x4001, the 5DS/80D/5D Mark IV layout):
    /// index 0 the sub-version (not 14, which moves the levels), 0x3F–0x42 the as-shot white balance multipliers
    /// (R, G, G, B), 0x30A–0x30D the black level per channel (R, G, G, B), 0x30E–0x30F the normal and specular white
    /// levels. The rest is zero.
    static func colorData(_ frame: RawFrame) -> [UInt16] {
        var data = [UInt16](repeating: 0, count: colorDataCount)
        data[0] = 15
        let neutral = frame.color.asShotNeutral
        if neutral.count == 3, neutral[0] > 0, neutral[2] > 0 {
            data[0x3F] = UInt16(clamping: Int((1024 * neutral[1] / neutral[0]).rounded()))
            data[0x40] = 1024
            data[0x41] = 1024
            data[0x42] = UInt16(clamping: Int((1024 * neutral[1] / neutral[2]).rounded()))
        }
        func black(_ color: CFAColor, _ nth: Int) -> UInt16 {
            var levels: [Double] = []
            for row in 0..<frame.cfa.height {
                for column in 0..<frame.cfa.width where frame.cfa.color(row: row, column: column) == color {
                    levels.append(frame.blackLevels[row * frame.cfa.width + column])
                }
            }
            let level = levels.isEmpty ? 0 : levels[min(nth, levels.count - 1)]
            return UInt16(clamping: Int(level.rounded()))
        }
        data[0x30A] = black(.red, 0)
        data[0x30B] = black(.green, 0)
        data[0x30C] = black(.green, 1)
        data[0x30D] = black(.blue, 0)
        data[0x30E] = UInt16(clamping: frame.whiteLevel)
        data[0x30F] = UInt16(clamping: frame.whiteLevel)
        return data
    }

    /// The TIFF Make every Canon CR2 carries.
    public static let make = "Canon"

    /// Encodes `frame` as a CR2 of `model` (the TIFF Model, e.g. `Canon EOS 5D Mark IV`).
    ///
    /// - Throws: ``EmulatorError/Code-swift.struct/invalidConfiguration`` for an odd width or a frame the lossless
    ///   JPEG cannot hold; ``EmulatorError/Code-swift.struct/captureFailed`` when the preview cannot be rendered.
    public static func encode(_ frame: RawFrame, model: String) throws(EmulatorError) -> [UInt8] {
        guard frame.width % 2 == 0, frame.height <= 65535, frame.width / 2 <= 65535 else {
            throw EmulatorError(
                .invalidConfiguration, "a \(frame.width)×\(frame.height) frame does not fit a CR2 slice")
        }
        let slice: [UInt8]
        do {
            let encoder = try LJ92Encoder(precision: frame.bitsPerSample, components: 2)
            slice = try encoder.encode(frame.samples, samplesPerRow: frame.width)
        } catch {
            throw EmulatorError(.invalidConfiguration, "encoding the CR2 slice: \(error)")
        }
        let preview: JPEGImage
        do {
            let longSide = max(8, min(160, max(frame.width, frame.height) / 2))
            preview = try JPEGImage(encoding: try frame.renderRGB8(RenderOptions(longSide: longSide)), quality: 80)
        } catch {
            throw EmulatorError(.captureFailed, "rendering the CR2 preview: \(error)")
        }
        let metadata = frame.metadata
        var layout = VendorTIFFLayout(byteOrder: .little, headerExtension: 8)
        let ifd0 = layout.add(directory: [])
        let exif = layout.add(directory: [])
        let note = layout.add(directory: [])
        let rawIFD = layout.add(directory: [])
        let previewData = layout.add(data: preview.bytes)
        let sliceData = layout.add(data: slice)
        var entries: [VendorTIFFLayout.Entry] = [
            .init(256, .short([UInt16(preview.width)])),
            .init(257, .short([UInt16(preview.height)])),
            .init(258, .short([8, 8, 8])),
            .init(259, .short([6])),
            .init(271, .ascii(make)),
            .init(272, .ascii(model)),
            .init(273, .offsets([previewData])),
            .init(274, .short([1])),
            .init(277, .short([3])),
            .init(279, .byteCounts([previewData])),
            .init(34665, .offsets([exif])),
        ]
        if let time = metadata.captureTime { entries.append(.init(306, .ascii(time.exifDateTime))) }
        layout.replace(ifd0, with: entries)
        let exifEntries = VendorTIFFLayout.exifEntries(metadata, makerNote: .block(note))
        layout.replace(exif, with: exifEntries)
        // SensorInfo (exiftool Canon SensorInfo table): index 1 width, 2 height, 5–8 the active area's left, top,
        // right and bottom. With ColorData's black levels LibRaw takes the area from these, as width = right − left
        // (`identify`, "DefaultCropAbsolute"), so right and bottom are written one past the last pixel.
        let active = frame.activeArea
        layout.replace(
            note,
            with: [
                .init(0x4001, .short(colorData(frame))),
                .init(
                    0x00E0,
                    .short([
                        34, UInt16(frame.width), UInt16(frame.height), 0, 0, UInt16(active.x), UInt16(active.y),
                        UInt16(active.x + active.width), UInt16(active.y + active.height), 0, 0, 0, 0, 0, 0, 0,
                        0,
                    ])),
            ])
        layout.replace(
            rawIFD,
            with: [
                .init(259, .short([6])),
                .init(273, .offsets([sliceData])),
                .init(279, .byteCounts([sliceData])),
            ])
        layout.chain(ifd0, to: rawIFD)
        return layout.encode { writer, offsets in
            writer.write(bytes: Array("CR".utf8))
            writer.write(UInt8(2))
            writer.write(UInt8(0))
            writer.write(UInt32(offsets[rawIFD]))
        }
    }
}
