/// A small CFA DNG whose 8-bit samples are companded: a LinearizationTable (DNG 1.7 p.26, tag 50712) maps each stored
/// value to a 14-bit linear one, as cameras that store fewer bits than they measure deliver it. Assembled with
/// ``TIFFBuilder`` (the raw image in IFD0, as PiDNG and Android write it), independently of rawcap's writer, which
/// carries a LinearizationTable for LinearRaw images only.
public enum CompandedDNG {
    public static let width = 64
    public static let height = 48
    /// Stored value → linear value: `v² / 4`, 0…16256.
    public static let table: [UInt16] = (0..<256).map { UInt16($0 * $0 / 4) }
    /// The white level, in linear units (DNG defines the levels after linearisation).
    public static let whiteLevel: UInt32 = 16256

    /// The stored samples, row by row: a gradient with some texture over the whole 8-bit range.
    public static let storedSamples: [UInt8] = (0..<(width * height)).map { index in
        let (x, y) = (index % width, index / width)
        return UInt8(truncatingIfNeeded: (x * 3 + y * 2 + (x * y) % 7) % 256)
    }

    /// The linear values every reader computes from ``storedSamples``.
    public static var linearSamples: [UInt16] { storedSamples.map { table[Int($0)] } }

    /// The file, with this TIFF Orientation (1…8).
    public static func bytes(orientation: UInt16 = 1) -> [UInt8] {
        let tags: [UInt16: TIFFBuilder.Value] = [
            254: .long([0]),
            256: .long([UInt32(width)]),
            257: .long([UInt32(height)]),
            258: .short([8]),
            259: .short([1]),
            262: .short([32803]),
            271: .ascii("Companding"),
            272: .ascii("Test Body"),
            274: .short([orientation]),
            277: .short([1]),
            284: .short([1]),
            33421: .short([2, 2]),
            33422: .byte([0, 1, 1, 2]),
            50706: .byte([1, 4, 0, 0]),
            50707: .byte([1, 1, 0, 0]),
            50708: .ascii("Companding Test Body"),
            50712: .short(table),
            50717: .long([whiteLevel]),
            // A plausible sRGB-like camera: XYZ (D65) → camera RGB, and a neutral as shot.
            50721: .srational([
                (32404, 10000), (-15371, 10000), (-4985, 10000),
                (-9693, 10000), (18760, 10000), (416, 10000),
                (556, 10000), (-2040, 10000), (10572, 10000),
            ]),
            50728: .rational([(1, 2), (1, 1), (2, 3)]),
            50778: .short([21]),
        ]
        let ifd = TIFFBuilder.IFD(tags: tags, data: .strips(rowsPerStrip: UInt32(height), [storedSamples]))
        return TIFFBuilder(chain: [ifd]).build()
    }
}

/// Reads one tag of a classic TIFF's IFD0 (both byte orders): enough for tests to check what a writer put there
/// without the writer's own reader.
public enum TIFFIFD0 {
    /// The tag's value as numbers (SHORT or LONG), or `nil` when IFD0 has no such tag.
    public static func numbers(_ tag: UInt16, in bytes: [UInt8]) -> [UInt32]? {
        guard let (type, count, valueOffset, little) = entry(tag, in: bytes) else { return nil }
        let size = type == 3 ? 2 : type == 4 ? 4 : 0
        guard size > 0 else { return nil }
        let start = count * size <= 4 ? valueOffset : Int(read32(bytes, valueOffset, little))
        return (0..<count).map { i in
            size == 2 ? UInt32(read16(bytes, start + i * 2, little)) : read32(bytes, start + i * 4, little)
        }
    }

    /// The tag's ASCII value without its NUL, or `nil` when IFD0 has no such tag.
    public static func text(_ tag: UInt16, in bytes: [UInt8]) -> String? {
        guard let (type, count, valueOffset, little) = entry(tag, in: bytes), type == 2 else { return nil }
        let start = count <= 4 ? valueOffset : Int(read32(bytes, valueOffset, little))
        let raw = bytes[start..<(start + count)].prefix { $0 != 0 }
        return String(decoding: raw, as: UTF8.self)
    }

    private static func entry(_ tag: UInt16, in bytes: [UInt8]) -> (type: UInt16, count: Int, at: Int, Bool)? {
        guard bytes.count >= 8 else { return nil }
        let little = bytes[0] == 0x49
        let ifd = Int(read32(bytes, 4, little))
        guard ifd + 2 <= bytes.count else { return nil }
        let entries = Int(read16(bytes, ifd, little))
        for index in 0..<entries {
            let at = ifd + 2 + index * 12
            guard at + 12 <= bytes.count else { return nil }
            if read16(bytes, at, little) == tag {
                return (read16(bytes, at + 2, little), Int(read32(bytes, at + 4, little)), at + 8, little)
            }
        }
        return nil
    }

    private static func read16(_ bytes: [UInt8], _ at: Int, _ little: Bool) -> UInt16 {
        little
            ? UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 : UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])
    }

    private static func read32(_ bytes: [UInt8], _ at: Int, _ little: Bool) -> UInt32 {
        let b = (0..<4).map { UInt32(bytes[at + $0]) }
        return little ? b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24 : b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]
    }
}
