import RawImage
import WireFormat

/// Reads the raw image of a DNG or TIFF/EP file into a ``RawImage/RawFrame`` (CFA data) or a
/// ``RawImage/LinearImage`` (LinearRaw data), with its levels, geometry, colour calibration and capture metadata.
///
/// libtiff reads the structure (``LibTIFFFile``); everything after that is pure Swift over ``TIFFStructure``
/// values. The raw image is the IFD with NewSubfileType 0 and PhotometricInterpretation 32803 (CFA) or 34892
/// (LinearRaw) — in a DNG usually a SubIFD of IFD 0, in a TIFF/EP file (ISO 12234-2) IFD 0 itself; when several
/// qualify, the largest. Tags that DNG puts in IFD 0 (colour matrices, AsShotNeutral, Make, Orientation…) are
/// looked up in IFD 0 first and then in the raw IFD; tags of the raw image (levels, CFA pattern, ActiveArea,
/// DefaultCrop, LinearizationTable) only in the raw IFD; EXIF fields in the EXIF IFD, then in IFD 0 where
/// TIFF/EP keeps them.
public enum TIFFRawReader {
    /// Decodes the raw image of the DNG or TIFF/EP file in `bytes`.
    ///
    /// - Throws: ``DecodeError``; see ``LibTIFFFile/readStructure(of:)`` and ``TIFFImageData``.
    public static func decode(_ bytes: ArraySlice<UInt8>) throws(DecodeError) -> DecodedRaw {
        let structure = try LibTIFFFile.readStructure(of: bytes)
        return try decode(structure, bytes: bytes)
    }

    /// Reads the structure of the TIFF file in `bytes` without decoding any image.
    public static func structure(of bytes: ArraySlice<UInt8>) throws(DecodeError) -> TIFFStructure {
        try LibTIFFFile.readStructure(of: bytes)
    }

    /// Decodes the raw image described by `structure`, whose data lies in `bytes`.
    public static func decode(_ structure: TIFFStructure, bytes: ArraySlice<UInt8>) throws(DecodeError) -> DecodedRaw {
        let raw = try rawDirectory(in: structure)
        var tags = TagContext(
            raw: raw, ifd0: structure.ifd0 ?? raw, exif: structure.exif(for: raw),
            littleEndian: structure.header.byteOrder == .little)
        let (samples, maximum) = try TIFFImageData.samplesAndMaximum(
            of: raw, in: bytes, byteOrder: structure.header.byteOrder)
        let metadata = tags.captureMetadata()
        let table = try tags.linearizationTable()
        let image: DecodedRaw.Image
        if raw.photometric == .linearRaw {
            image = .linear(try linearImage(raw, samples: samples, table: table, tags: &tags, metadata: metadata))
        } else {
            image = .cfa(
                try cfaFrame(raw, samples: samples, maximum: maximum, table: table, tags: &tags, metadata: metadata))
        }
        var info = fileInfo(structure, raw: raw)
        info.warnings += tags.warnings
        return DecodedRaw(
            image: image, linearizationTable: raw.photometric == .linearRaw ? nil : table,
            storedBitsPerSample: raw.bitsPerSample, info: info)
    }

    /// The IFD holding the full-resolution raw image: NewSubfileType 0 with CFA or LinearRaw data, the largest
    /// when there are several.
    ///
    /// - Throws: ``DecodeError`` `.unsupported` when there is none.
    public static func rawDirectory(in structure: TIFFStructure) throws(DecodeError) -> TIFFDirectory {
        var best: TIFFDirectory?
        for directory in structure.directories where directory.isRawImage {
            // Strictly larger wins, so the first of equal candidates (walk order: IFD0, its SubIFDs, IFD1…) is kept.
            if let current = best, directory.width * directory.height <= current.width * current.height { continue }
            best = directory
        }
        guard let best else {
            let found = structure.directories.map {
                "\($0.path) \($0.width)×\($0.height) \($0.photometric.map { "\($0)" } ?? "no photometric")"
            }
            throw DecodeError(
                .unsupported,
                "no CFA or LinearRaw image with NewSubfileType 0 (found: \(found.joined(separator: ", ")))")
        }
        return best
    }

    /// Describes the file: container, raw storage, previews and libtiff's messages.
    public static func fileInfo(_ structure: TIFFStructure, raw: TIFFDirectory) -> RawFileInfo {
        let ifd0 = structure.ifd0 ?? raw
        let container: RawFileInfo.Container
        if let version = ifd0[.dngVersion]?.integers, version.count == 4 {
            let backward = ifd0[.dngBackwardVersion]?.integers.flatMap { $0.count == 4 ? $0 : nil }
            container = .dng(
                version: version.map(String.init).joined(separator: "."),
                backwardVersion: backward?.map(String.init).joined(separator: "."))
        } else {
            container = .tiffEP
        }
        let previews = structure.directories
            .filter { $0.offset != raw.offset && $0.isPreview }
            .map { directory in
                RawFileInfo.Preview(
                    path: directory.path, width: directory.width, height: directory.height,
                    kind: previewKind(directory),
                    byteCount: Int(clamping: directory.dataByteCounts.reduce(0) { $0 &+ $1 }))
            }
            .sorted { $0.width * $0.height > $1.width * $1.height }
        return RawFileInfo(
            container: container, byteOrder: structure.header.byteOrder,
            storage: RawFileInfo.Storage(
                path: raw.path, compression: raw.compression, layout: layoutDescription(raw),
                bitsPerSample: raw.bitsPerSample, samplesPerPixel: raw.samplesPerPixel),
            previews: previews, warnings: structure.messages.map(\.description),
            rawImageDigest: rawImageDigest(in: ifd0))
    }

    /// IFD 0's NewRawImageDigest when it is 16 bytes, as DNG 1.7 p.65 defines it; anything else is ignored.
    static func rawImageDigest(in ifd0: TIFFDirectory) -> [UInt8]? {
        guard let values = ifd0[.newRawImageDigest]?.integers, values.count == 16,
            values.allSatisfy({ (0...255).contains($0) })
        else { return nil }
        return values.map { UInt8($0) }
    }

    static func previewKind(_ directory: TIFFDirectory) -> RawFileInfo.Preview.Kind {
        switch (directory.compression, directory.samplesPerPixel, directory.bitsPerSample) {
        case (.jpeg, _, 8), (.oldJPEG, _, 8): .jpeg
        case (.none, 3, 8): .rgb
        default:
            .other(
                "\(directory.compression) \(directory.photometric.map { "\($0)" } ?? "") \(directory.bitsPerSample)-bit"
            )
        }
    }

    static func layoutDescription(_ directory: TIFFDirectory) -> String {
        let count = directory.dataOffsets.count
        switch directory.layout {
        case .strips(let rows): return "\(count) strip\(count == 1 ? "" : "s") of \(rows) rows"
        case .tiles(let width, let height): return "\(count) tile\(count == 1 ? "" : "s") of \(width)×\(height)"
        }
    }

    private static func cfaFrame(
        _ raw: TIFFDirectory, samples: [UInt16], maximum: UInt16, table: [UInt16]?, tags: inout TagContext,
        metadata: CaptureMetadata
    ) throws(DecodeError) -> RawFrame {
        guard raw.samplesPerPixel == 1 else {
            throw DecodeError(.unsupported, "\(raw.path): CFA image with \(raw.samplesPerPixel) samples per pixel")
        }
        let (pattern, planeColors) = try tags.cfaPattern()
        let activeArea = try tags.activeArea(width: raw.width, height: raw.height)
        let blackLevels = try tags.blackLevels(pattern: pattern, activeArea: activeArea)
        let defaultWhite = table.map { Int($0.max() ?? 0) } ?? (1 << raw.bitsPerSample) - 1
        var whiteLevel = tags.whiteLevels(samplesPerPixel: 1, default: defaultWhite)[0]
        // The frame's depth is the significant bits, not the container: DNG writers store 10…14-bit data in
        // 16-bit samples with WhiteLevel giving the range (rawcap's own uncompressed DNGs do), and a round trip
        // must not turn a 12-bit frame into a 16-bit one. Without a table that is the bits the white level and
        // the largest sample need, never more than stored. With a LinearizationTable the levels are in the table's
        // output units (DNG 1.7 p.26-28), which may need more bits than the stored values; the depth holds both.
        let bits: Int
        if let table {
            bits = min(16, max(raw.bitsPerSample, bitLength(Int(table.max() ?? 0)), bitLength(whiteLevel)))
        } else {
            let significant = max(bitLength(whiteLevel), bitLength(Int(maximum)))
            bits = min(raw.bitsPerSample, max(8, significant))
        }
        if whiteLevel > (1 << bits) - 1 {
            tags.warnings.append("WhiteLevel \(whiteLevel) exceeds \(bits)-bit samples; using \((1 << bits) - 1)")
            whiteLevel = (1 << bits) - 1
        }
        let crop = tags.defaultCrop(activeArea: activeArea)
        let color = tags.colorCalibration(planeColors: planeColors)
        let aspect = tags.pixelAspectRatio()
        do {
            var frame = try RawFrame(
                width: raw.width, height: raw.height, bitsPerSample: bits, samples: samples, cfa: pattern,
                blackLevels: blackLevels, whiteLevel: whiteLevel, activeArea: activeArea, defaultCrop: crop,
                color: color, metadata: metadata)
            frame.pixelAspectRatio = aspect
            return frame
        } catch {
            throw DecodeError(.corrupt, "\(raw.path): \(error)")
        }
    }

    private static func linearImage(
        _ raw: TIFFDirectory, samples: [UInt16], table: [UInt16]?, tags: inout TagContext, metadata: CaptureMetadata
    ) throws(DecodeError) -> LinearImage {
        guard raw.samplesPerPixel == 3 else {
            throw DecodeError(
                .unsupported, "\(raw.path): LinearRaw with \(raw.samplesPerPixel) samples per pixel; rawcap reads 3")
        }
        let fullArea = PixelRect(width: raw.width, height: raw.height)
        let activeArea = try tags.activeArea(width: raw.width, height: raw.height)
        if activeArea != fullArea {
            tags.warnings.append("ActiveArea \(activeArea) of a LinearRaw image is not kept")
        }
        let blackLevels = try tags.linearBlackLevels()
        let defaultWhite = table.map { Int($0.max() ?? 0) } ?? (1 << raw.bitsPerSample) - 1
        let whiteLevels = tags.whiteLevels(samplesPerPixel: 3, default: defaultWhite)
        let relative =
            tags.defaultCrop(activeArea: activeArea) ?? PixelRect(width: activeArea.width, height: activeArea.height)
        let crop = PixelRect(
            x: relative.x + activeArea.x, y: relative.y + activeArea.y, width: relative.width, height: relative.height)
        let aspect = tags.pixelAspectRatio()
        do {
            var image = try LinearImage(
                width: raw.width, height: raw.height, bitsPerSample: raw.bitsPerSample, samples: samples,
                blackLevels: blackLevels, whiteLevels: whiteLevels, linearizationTable: table, defaultCrop: crop,
                color: tags.colorCalibration(planeColors: [0, 1, 2]), metadata: metadata,
                profileToneCurve: tags.profileToneCurve())
            image.pixelAspectRatio = aspect
            return image
        } catch {
            throw DecodeError(.corrupt, "\(raw.path): \(error)")
        }
    }

    /// Bits needed to hold `value` (0 for 0).
    static func bitLength(_ value: Int) -> Int {
        value <= 0 ? 0 : Int.bitWidth - value.leadingZeroBitCount
    }
}
