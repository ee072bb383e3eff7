import RawImage
import TIFFVocabulary

/// Turns the tags of a raw IFD, IFD 0 and the EXIF IFD into rawcap's values, collecting a warning for every
/// leniency (a value that was ignored or replaced) so that the user sees it in `rawcap inspect`.
///
/// Geometry and levels are strict, because wrong values there silently ruin every rendering: a bad ActiveArea,
/// CFA pattern or black level throws. Colour and capture metadata are lenient: a malformed matrix or date is
/// dropped with a warning and the image still decodes.
struct TagContext {
    /// The IFD holding the raw image.
    let raw: TIFFDirectory
    /// IFD 0 (the same IFD as ``raw`` in TIFF/EP files and in DNGs with the raw image in IFD 0).
    let ifd0: TIFFDirectory
    /// The EXIF IFD's tags.
    let exif: [TIFFTag: TIFFTagValue]
    /// Whether the file is little-endian (for the EXIF CFAPattern's embedded SHORTs).
    let littleEndian: Bool
    /// Leniencies applied so far.
    var warnings: [String] = []

    init(raw: TIFFDirectory, ifd0: TIFFDirectory, exif: [TIFFTag: TIFFTagValue], littleEndian: Bool) {
        self.raw = raw
        self.ifd0 = ifd0
        self.exif = exif
        self.littleEndian = littleEndian
    }

    /// A tag DNG places in IFD 0 (camera profile, white balance, Make…), falling back to the raw IFD.
    func profileTag(_ tag: TIFFTag) -> TIFFTagValue? { ifd0[tag] ?? raw[tag] }

    /// An EXIF field: the EXIF IFD first, then IFD 0 and the raw IFD (TIFF/EP keeps them in IFD 0).
    func exifTag(_ tag: TIFFTag) -> TIFFTagValue? { exif[tag] ?? ifd0[tag] ?? raw[tag] }

    // MARK: Geometry

    /// The CFA pattern relative to the active area's top-left, and the colour of each plane (CFAPlaneColor).
    ///
    /// Read from CFARepeatPatternDim/CFAPattern (TIFF/EP and DNG, tags 33421/33422), else from the EXIF-style
    /// CFAPattern (41730: two SHORT repeat sizes, columns first, then the colours; EXIF 2.32 §4.6.5).
    mutating func cfaPattern() throws(DecodeError) -> (CFAPattern, [Int]) {
        let planeColors = try self.planeColors()
        if let layout = raw[.cfaLayout]?.integers?.first, layout != 1 {
            throw DecodeError(.unsupported, "CFALayout \(layout) (staggered CFA); rawcap reads rectangular layouts")
        }
        var rows = 0
        var columns = 0
        var values: [Int64] = []
        if let dims = raw[.cfaRepeatPatternDim]?.integers, let pattern = raw[.cfaPattern]?.integers {
            guard dims.count == 2 else { throw DecodeError(.corrupt, "CFARepeatPatternDim has \(dims.count) values") }
            (rows, columns, values) = (Int(clamping: dims[0]), Int(clamping: dims[1]), pattern)
        } else if case .bytes(let bytes)? = exifTag(.exifCFAPattern) {
            (rows, columns, values) = try Self.exifCFAPattern(bytes, littleEndian: littleEndian)
        } else {
            throw DecodeError(.corrupt, "\(raw.path): CFA image without CFARepeatPatternDim/CFAPattern")
        }
        guard (1...16).contains(rows), (1...16).contains(columns), values.count == rows * columns else {
            throw DecodeError(.corrupt, "CFA pattern of \(rows)×\(columns) with \(values.count) values")
        }
        var colors: [CFAColor] = []
        for value in values {
            guard let plane = Int(exactly: value), planeColors.indices.contains(plane) else {
                throw DecodeError(.corrupt, "CFAPattern value \(value) names no plane of CFAPlaneColor \(planeColors)")
            }
            colors.append(CFAColor(rawValue: UInt8(planeColors[plane])))
        }
        guard Set(colors) == [.red, .green, .blue] else {
            throw DecodeError(
                .unsupported, "CFA colours \(colors.map(\.description).joined()); rawcap reads red/green/blue sensors")
        }
        do {
            return (try CFAPattern(width: columns, height: rows, colors: colors), planeColors)
        } catch {
            throw DecodeError(.corrupt, "\(error)")
        }
    }

    /// Decodes EXIF's CFAPattern (41730). Its two SHORTs are in the file's byte order, but some cameras write
    /// them big-endian in little-endian files, so the other order is tried when the first does not add up.
    static func exifCFAPattern(_ bytes: [UInt8], littleEndian: Bool) throws(DecodeError) -> (Int, Int, [Int64]) {
        guard bytes.count >= 4 else { throw DecodeError(.corrupt, "EXIF CFAPattern of \(bytes.count) bytes") }
        for little in [littleEndian, !littleEndian] {
            let columns = little ? Int(bytes[0]) | Int(bytes[1]) << 8 : Int(bytes[0]) << 8 | Int(bytes[1])
            let rows = little ? Int(bytes[2]) | Int(bytes[3]) << 8 : Int(bytes[2]) << 8 | Int(bytes[3])
            if rows * columns == bytes.count - 4 {
                return (rows, columns, bytes.dropFirst(4).map(Int64.init))
            }
        }
        throw DecodeError(.corrupt, "EXIF CFAPattern sizes do not match its \(bytes.count) bytes")
    }

    /// CFAPlaneColor (DNG 1.7 p.25): default red, green, blue; rawcap reads three-plane RGB sensors only.
    func planeColors() throws(DecodeError) -> [Int] {
        guard let values = raw[.cfaPlaneColor]?.integers else { return [0, 1, 2] }
        let planes = values.compactMap { Int(exactly: $0) }
        guard planes.count == 3, Set(planes) == [0, 1, 2] else {
            throw DecodeError(.unsupported, "CFAPlaneColor \(values); rawcap reads red/green/blue sensors")
        }
        return planes
    }

    /// ActiveArea (top, left, bottom, right; DNG 1.7 p.43), default the whole image.
    func activeArea(width: Int, height: Int) throws(DecodeError) -> PixelRect {
        let whole = PixelRect(width: width, height: height)
        guard let value = raw[.activeArea] else { return whole }
        guard let edges = value.integers, edges.count == 4 else {
            throw DecodeError(.corrupt, "ActiveArea has \(value.count) values")
        }
        let (top, left, bottom, right) = (edges[0], edges[1], edges[2], edges[3])
        guard top >= 0, left >= 0, bottom > top, right > left, bottom <= Int64(height), right <= Int64(width) else {
            throw DecodeError(.corrupt, "ActiveArea \(edges) does not fit the \(width)×\(height) image")
        }
        return PixelRect(x: Int(left), y: Int(top), width: Int(right - left), height: Int(bottom - top))
    }

    /// DefaultCropOrigin/Size relative to the active area (DNG 1.7 p.30), rounded to whole pixels; `nil` when the
    /// file gives none (a TIFF/EP never does), or with a warning when it does not fit: the caller then chooses (a
    /// CFA frame keeps a margin for demosaicing, ``RawImage/RawFrame/defaultCrop(forActiveArea:)``; a LinearRaw
    /// image the whole active area, DNG's default).
    mutating func defaultCrop(activeArea: PixelRect) -> PixelRect? {
        let whole = PixelRect(width: activeArea.width, height: activeArea.height)
        guard let origin = raw[.defaultCropOrigin]?.doubles, let size = raw[.defaultCropSize]?.doubles else {
            return nil
        }
        guard origin.count == 2, size.count == 2, (origin + size).allSatisfy({ $0.isFinite && abs($0) < 1e6 }) else {
            warnings.append("DefaultCropOrigin \(origin) / DefaultCropSize \(size) are malformed; ignored")
            return nil
        }
        let crop = PixelRect(
            x: Int(origin[0].rounded()), y: Int(origin[1].rounded()), width: Int(size[0].rounded()),
            height: Int(size[1].rounded()))
        guard crop.width > 0, crop.height > 0, whole.contains(crop) else {
            warnings.append("default crop \(crop) does not fit the active area \(activeArea); ignored")
            return nil
        }
        return crop
    }

    /// DefaultScale (DNG 1.7 p.29) as a pixel aspect ratio, horizontal over vertical factor; 1 when absent, and
    /// with a warning when malformed or outside ``RawImage/RawFrame/pixelAspectRatioRange``.
    mutating func pixelAspectRatio() -> Double {
        guard let value = raw[.defaultScale] else { return 1 }
        guard let scale = value.doubles, scale.count == 2, scale[0] > 0, scale[1] > 0,
            case let ratio = scale[0] / scale[1], ratio.isFinite, RawFrame.pixelAspectRatioRange.contains(ratio)
        else {
            warnings.append("DefaultScale \(value) is malformed; using square pixels")
            return 1
        }
        return ratio
    }

    // MARK: Levels

    /// LinearizationTable (DNG 1.7 p.26), up to 65536 entries of 16 bits.
    func linearizationTable() throws(DecodeError) -> [UInt16]? {
        guard let value = raw[.linearizationTable] else { return nil }
        guard let entries = value.integers, (1...65536).contains(entries.count) else {
            throw DecodeError(.corrupt, "LinearizationTable with \(value.count) entries")
        }
        var table: [UInt16] = []
        table.reserveCapacity(entries.count)
        for entry in entries {
            guard let value = UInt16(exactly: entry) else {
                throw DecodeError(.corrupt, "LinearizationTable entry \(entry)")
            }
            table.append(value)
        }
        return table
    }

    /// BlackLevelRepeatDim and BlackLevel for `samplesPerPixel` samples: the repeat size and the values,
    /// row-column-sample order (DNG 1.7 p.26-27).
    func blackLevelPattern(samplesPerPixel: Int) throws(DecodeError) -> (rows: Int, columns: Int, values: [Double]) {
        var rows = 1
        var columns = 1
        if let dims = raw[.blackLevelRepeatDim]?.integers {
            guard dims.count == 2, (1...16).contains(dims[0]), (1...16).contains(dims[1]) else {
                throw DecodeError(.corrupt, "BlackLevelRepeatDim \(dims)")
            }
            (rows, columns) = (Int(dims[0]), Int(dims[1]))
        }
        guard let value = raw[.blackLevel] else {
            return (rows, columns, [Double](repeating: 0, count: rows * columns * samplesPerPixel))
        }
        guard let values = value.doubles, values.count == rows * columns * samplesPerPixel,
            values.allSatisfy({ $0.isFinite && $0 >= 0 })
        else {
            throw DecodeError(
                .corrupt, "BlackLevel \(value) for a \(rows)×\(columns) repeat of \(samplesPerPixel) samples")
        }
        return (rows, columns, values)
    }

    /// One black level per CFA position. When the BlackLevel repeat does not divide the CFA pattern, each CFA
    /// position gets the mean of the values that fall on it; BlackLevelDeltaH/V (per-column and per-row offsets)
    /// are added as their means. Both cases are rare and carry a warning, since a frame has one level per CFA
    /// position.
    mutating func blackLevels(pattern: CFAPattern, activeArea: PixelRect) throws(DecodeError) -> [Double] {
        let (rows, columns, values) = try blackLevelPattern(samplesPerPixel: 1)
        let spanRows = Self.lcm(pattern.height, rows)
        let spanColumns = Self.lcm(pattern.width, columns)
        var sums = [Double](repeating: 0, count: pattern.width * pattern.height)
        var counts = [Int](repeating: 0, count: sums.count)
        var seen = [Set<Double>](repeating: [], count: sums.count)
        for row in 0..<spanRows {
            for column in 0..<spanColumns {
                let position = pattern.index(row: row, column: column)
                let value = values[(row % rows) * columns + column % columns]
                sums[position] += value
                counts[position] += 1
                seen[position].insert(value)
            }
        }
        if seen.contains(where: { $0.count > 1 }) {
            warnings.append("BlackLevel repeat \(rows)×\(columns) does not follow the CFA pattern; levels averaged")
        }
        var levels = zip(sums, counts).map { $0 / Double($1) }
        var delta = 0.0
        for (tag, extent) in [(TIFFTag.blackLevelDeltaH, activeArea.width), (.blackLevelDeltaV, activeArea.height)] {
            guard let deltas = raw[tag]?.doubles, !deltas.isEmpty else { continue }
            guard deltas.count == extent, deltas.allSatisfy(\.isFinite) else {
                throw DecodeError(.corrupt, "\(tag) has \(deltas.count) values for \(extent) lines")
            }
            let mean = deltas.reduce(0, +) / Double(deltas.count)
            if deltas.contains(where: { $0 != 0 }) {
                warnings.append("\(tag) varies per line; its mean \(mean) is added to the black levels")
            }
            delta += mean
        }
        levels = levels.map { max(0, $0 + delta) }
        return levels
    }

    /// One black level per colour channel of a LinearRaw image: the mean over the repeat pattern.
    func linearBlackLevels() throws(DecodeError) -> [Double] {
        let (rows, columns, values) = try blackLevelPattern(samplesPerPixel: 3)
        let positions = rows * columns
        return (0..<3).map { sample in
            (0..<positions).reduce(0.0) { $0 + values[$1 * 3 + sample] } / Double(positions)
        }
    }

    /// WhiteLevel per sample (DNG 1.7 p.28), default `defaultValue`; a single value applies to every sample.
    mutating func whiteLevels(samplesPerPixel: Int, default defaultValue: Int) -> [Int] {
        guard let value = raw[.whiteLevel] else { return [Int](repeating: defaultValue, count: samplesPerPixel) }
        guard let values = value.integers?.compactMap({ Int(exactly: $0) }), values.allSatisfy({ $0 > 0 }),
            values.count == samplesPerPixel || values.count == 1
        else {
            warnings.append("WhiteLevel \(value) is malformed; using \(defaultValue)")
            return [Int](repeating: defaultValue, count: samplesPerPixel)
        }
        return values.count == 1 ? [Int](repeating: values[0], count: samplesPerPixel) : values
    }

    static func lcm(_ a: Int, _ b: Int) -> Int {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return a / x * b
    }
}
