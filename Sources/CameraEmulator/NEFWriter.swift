import RawImage
import WireFormat

/// Writes a ``RawImage/RawFrame`` as an uncompressed Nikon NEF, the file the `nikon` personality stores.
///
/// The layout is the simplest a Nikon body writes with "NEF compression: uncompressed", as LibRaw and dcraw read
/// it (LibRaw `identify`/`apply_tiff`, dcraw `parse_tiff`/`parse_makernote`): a big-endian TIFF whose IFD 0 holds a
/// small RGB thumbnail, the Make/Model strings (`NIKON CORPORATION`, `NIKON D850`) that pick the model's colour
/// matrix from LibRaw's table, and a SubIFD with the CFA data:
///
/// | IFD | tags |
/// |---|---|
/// | IFD 0 | NewSubfileType 1, 8-bit RGB thumbnail strip, Make, Model, Software, DateTime, SubIFDs, ExifIFD |
/// | SubIFD | NewSubfileType 0, the active area's size, BitsPerSample 12 or 14, Compression 1, Photometric 32803 (CFA), one strip, CFARepeatPatternDim, CFAPattern |
/// | EXIF | ExposureTime, FNumber, ISO, DateTimeOriginal, FocalLength, MakerNote |
/// | MakerNote | `Nikon\0` 0x02 0x10 0 0, then a TIFF of its own: version 0x0001 "0210", WB_RBLevels 0x000C, BlackLevel 0x003D |
///
/// 14-bit samples are 16-bit big-endian words (dcraw `unpacked_load_raw` when the strip holds 2 bytes a pixel);
/// 12-bit samples are packed MSB first, two in three bytes (`packed_load_raw`). Only the active area is stored (a
/// NEF carries no masked pixels); the black level travels in the maker note's BlackLevel in 14-bit units, which
/// LibRaw shifts to the file's depth. The IFD 0 thumbnail is kept smaller than the raw image, because dcraw takes the
/// largest image as the raw one.
public enum NEFWriter {
    /// The TIFF Make every Nikon NEF carries.
    public static let make = "NIKON CORPORATION"

    /// Encodes the active area of `frame` as a NEF of `model` (the TIFF Model, e.g. `NIKON D850`).
    ///
    /// - Throws: ``EmulatorError/Code-swift.struct/invalidConfiguration`` for a depth other than 12 or 14 bits, or
    ///   an active area too small for a thumbnail.
    public static func encode(_ frame: RawFrame, model: String, software: String) throws(EmulatorError) -> [UInt8] {
        let depth = frame.bitsPerSample
        guard depth == 12 || depth == 14 else {
            throw EmulatorError(.invalidConfiguration, "a NEF holds 12 or 14 bits per sample, not \(depth)")
        }
        let active = frame.activeArea
        // Packed 12-bit rows hold pixel pairs, and the CFA pattern repeats every two pixels.
        let width = active.width & ~1
        let height = active.height & ~1
        guard width >= 16, height >= 16 else {
            throw EmulatorError(.invalidConfiguration, "a \(width)×\(height) active area is too small for a NEF")
        }
        let strip = pack(frame, x: active.x, y: active.y, width: width, height: height)
        let thumbnail = try makeThumbnail(frame)
        let metadata = frame.metadata

        var layout = VendorTIFFLayout(byteOrder: .big)
        let ifd0 = layout.add(directory: [])
        let sub = layout.add(directory: [])
        let exif = layout.add(directory: [])
        let thumbData = layout.add(data: thumbnail.pixels)
        let rawData = layout.add(data: strip)
        var entries: [VendorTIFFLayout.Entry] = [
            .init(254, .long([1])),
            .init(256, .long([UInt32(thumbnail.width)])),
            .init(257, .long([UInt32(thumbnail.height)])),
            .init(258, .short([8, 8, 8])),
            .init(259, .short([1])),
            .init(262, .short([2])),
            .init(271, .ascii(make)),
            .init(272, .ascii(model)),
            .init(273, .offsets([thumbData])),
            .init(274, .short([1])),
            .init(277, .short([3])),
            .init(278, .long([UInt32(thumbnail.height)])),
            .init(279, .byteCounts([thumbData])),
            .init(284, .short([1])),
            .init(305, .ascii(software)),
            .init(330, .offsets([sub])),
            .init(34665, .offsets([exif])),
        ]
        if let time = metadata.captureTime { entries.append(.init(306, .ascii(time.exifDateTime))) }
        layout.replace(ifd0, with: entries)
        layout.replace(
            sub,
            with: [
                .init(254, .long([0])),
                .init(256, .long([UInt32(width)])),
                .init(257, .long([UInt32(height)])),
                .init(258, .short([UInt16(depth)])),
                .init(259, .short([1])),
                .init(262, .short([32803])),
                .init(273, .offsets([rawData])),
                .init(277, .short([1])),
                .init(278, .long([UInt32(height)])),
                .init(279, .byteCounts([rawData])),
                .init(284, .short([1])),
                .init(33421, .short([2, 2])),
                .init(33422, .byte(cfaColors(frame, x: active.x, y: active.y))),
                .init(37399, .short([2])),
            ])
        let exifEntries = VendorTIFFLayout.exifEntries(metadata, makerNote: .undefined(makerNote(frame)))
        layout.replace(exif, with: exifEntries)
        return layout.encode()
    }

    /// The CFA colours of the 2×2 block at (`x`, `y`), in TIFF/EP's codes (0 red, 1 green, 2 blue).
    static func cfaColors(_ frame: RawFrame, x: Int, y: Int) -> [UInt8] {
        [(0, 0), (0, 1), (1, 0), (1, 1)].map { frame.color(row: y + $0.0, column: x + $0.1).rawValue }
    }

    /// The samples of the area, 16-bit big-endian words at 14 bits, packed MSB first at 12.
    private static func pack(_ frame: RawFrame, x: Int, y: Int, width: Int, height: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        if frame.bitsPerSample == 12 {
            bytes.reserveCapacity(width * height * 3 / 2)
            for row in y..<(y + height) {
                let base = row * frame.width + x
                for pair in stride(from: 0, to: width, by: 2) {
                    let first = UInt32(frame.samples[base + pair] & 0xFFF)
                    let second = UInt32(frame.samples[base + pair + 1] & 0xFFF)
                    let bits = first << 12 | second
                    bytes.append(UInt8(truncatingIfNeeded: bits >> 16))
                    bytes.append(UInt8(truncatingIfNeeded: bits >> 8))
                    bytes.append(UInt8(truncatingIfNeeded: bits))
                }
            }
        } else {
            bytes.reserveCapacity(width * height * 2)
            for row in y..<(y + height) {
                let base = row * frame.width + x
                for column in 0..<width {
                    let sample = frame.samples[base + column]
                    bytes.append(UInt8(truncatingIfNeeded: sample >> 8))
                    bytes.append(UInt8(truncatingIfNeeded: sample))
                }
            }
        }
        return bytes
    }

    /// The IFD 0 thumbnail: at most 160 pixels on the long side (a real NEF's), and a quarter of the raw image's
    /// pixels at most.
    private static func makeThumbnail(_ frame: RawFrame) throws(EmulatorError) -> RGBImage8 {
        let active = frame.activeArea
        let longSide = max(8, min(160, max(active.width, active.height) / 2))
        do {
            return try frame.renderRGB8(RenderOptions(longSide: longSide))
        } catch {
            throw EmulatorError(.captureFailed, "rendering the NEF thumbnail: \(error)")
        }
    }

    /// The Nikon maker note (type 3: a signature, then a TIFF of its own whose offsets count from its header).
    ///
    /// BlackLevel (0x003D) is four SHORTs in 14-bit units, in the order LibRaw stores as `cblack[c ^ c >> 1]`: red,
    /// green, green, blue. WB_RBLevels (0x000C) is the red and blue white-balance multipliers and two 1s (the
    /// inverse of the as-shot neutral over green).
    static func makerNote(_ frame: RawFrame) -> [UInt8] {
        func level(_ color: CFAColor) -> UInt16 {
            var levels: [Double] = []
            for row in 0..<frame.cfa.height {
                for column in 0..<frame.cfa.width where frame.cfa.color(row: row, column: column) == color {
                    levels.append(frame.blackLevels[row * frame.cfa.width + column])
                }
            }
            let mean = levels.isEmpty ? 0 : levels.reduce(0, +) / Double(levels.count)
            return UInt16(clamping: Int((mean * Double(1 << (14 - frame.bitsPerSample))).rounded()))
        }
        let neutral = frame.color.asShotNeutral
        func multiplier(_ index: Int) -> (UInt32, UInt32) {
            guard neutral.count == 3, neutral[index] > 0 else { return (1, 1) }
            return (UInt32(clamping: Int((neutral[1] / neutral[index] * 10_000).rounded())), 10_000)
        }
        var note = VendorTIFFLayout(byteOrder: .big)
        _ = note.add(directory: [
            .init(0x0001, .undefined(Array("0210".utf8))),
            .init(0x000C, .rational([multiplier(0), multiplier(2), (1, 1), (1, 1)])),
            .init(0x003D, .short([level(.red), level(.green), level(.green), level(.blue)])),
        ])
        return Array("Nikon".utf8) + [0, 0x02, 0x10, 0, 0] + note.encode()
    }
}
