/// Crafted TIFF/EP files for the hostile camera's `cyclic-tiff`, `deep-tiff`, `subifd-loop` and `bad-offsets`
/// attacks: each IFD looks like a 16×16 CFA raw image (TIFF 6.0 §2 IFD layout, TIFF/EP CFA tags), so a reader
/// that follows the structure reaches the hostile part before it finds anything wrong.
///
/// Every file is little-endian and built by hand rather than through ``TIFFEPWriter``, which (rightly) cannot
/// write a broken structure.
enum HostileTIFF {
    /// The 16×16 image's sample bytes (16-bit mid-grey).
    private static let pixelByteCount = 16 * 16 * 2
    /// Bytes of one IFD of ``rawEntries`` plus its SubIFDs entry: count, 14 entries, next offset.
    private static let ifdByteCount = 2 + 14 * 12 + 4

    /// The crafted file for `behaviour`, or `nil` for a behaviour that does not craft files.
    static func file(for behaviour: HostileBehaviour) -> [UInt8]? {
        switch behaviour {
        case .cyclicTIFF: cyclic
        case .deepTIFF: deep
        case .subIFDLoop: subIFDLoop
        case .badOffsets: badOffsets
        default: nil
        }
    }

    /// IFD0 → IFD1 → IFD0 → …: the next-IFD chain is a cycle.
    static let cyclic: [UInt8] = {
        let ifd0 = UInt32(8)
        let ifd1 = ifd0 + UInt32(ifdByteCount)
        let pixels = ifd1 + UInt32(ifdByteCount)
        var bytes = header(firstIFD: ifd0)
        bytes += ifd(strip: pixels, subIFD: nil, next: ifd1)
        bytes += ifd(strip: pixels, subIFD: nil, next: ifd0)
        return bytes + samples
    }()

    /// IFD0's SubIFD has a SubIFD, which has a SubIFD, … 10,000 levels down.
    static let deep: [UInt8] = {
        let levels = 10_000
        let pixels = 8 + UInt32(levels * ifdByteCount)
        var bytes = header(firstIFD: 8)
        bytes.reserveCapacity(Int(pixels) + pixelByteCount)
        // One IFD built once, its SubIFDs value patched per level (a debug build takes seconds otherwise).
        let template = ifd(strip: pixels, subIFD: 0, next: 0)
        let subIFDValue = 2 + 11 * 12 + 8
        for level in 0..<levels {
            var entry = level + 1 < levels ? template : ifd(strip: pixels, subIFD: nil, next: 0)
            if level + 1 < levels {
                let child = 8 + UInt32((level + 1) * ifdByteCount)
                for index in 0..<4 { entry[subIFDValue + index] = UInt8(truncatingIfNeeded: child >> (index * 8)) }
            }
            bytes += entry
        }
        return bytes + samples
    }()

    /// IFD0 names itself as its SubIFD.
    static let subIFDLoop: [UInt8] = {
        let pixels = 8 + UInt32(ifdByteCount)
        return header(firstIFD: 8) + ifd(strip: pixels, subIFD: 8, next: 0) + samples
    }()

    /// The strip starts 2 GiB in and the next IFD 4 GiB in, in a file of a few hundred bytes.
    static let badOffsets: [UInt8] = header(firstIFD: 8) + ifd(strip: 0x7FFF_FFF0, subIFD: nil, next: 0xFFFF_FF00)
        + samples

    private static var samples: [UInt8] { [UInt8](repeating: 0x08, count: pixelByteCount) }

    private static func header(firstIFD: UInt32) -> [UInt8] { [0x49, 0x49, 42, 0] + le(firstIFD) }

    /// One IFD of a 16×16 16-bit RGGB raw image, with a SubIFDs entry when `subIFD` is given (else
    /// PlanarConfiguration 1, so every IFD has the same size).
    private static func ifd(strip: UInt32, subIFD: UInt32?, next: UInt32) -> [UInt8] {
        // (tag, type, count, value) in ascending tag order; types 1 BYTE, 3 SHORT, 4 LONG.
        var entries: [(UInt16, UInt16, UInt32, [UInt8])] = [
            (254, 4, 1, le(UInt32(0))),  // NewSubFileType: main image
            (256, 3, 1, le16(16)),  // ImageWidth
            (257, 3, 1, le16(16)),  // ImageLength
            (258, 3, 1, le16(16)),  // BitsPerSample
            (259, 3, 1, le16(1)),  // Compression: none
            (262, 3, 1, le16(32803)),  // PhotometricInterpretation: CFA
            (273, 4, 1, le(strip)),  // StripOffsets
            (274, 3, 1, le16(1)),  // Orientation
            (277, 3, 1, le16(1)),  // SamplesPerPixel
            (278, 3, 1, le16(16)),  // RowsPerStrip
            (279, 4, 1, le(UInt32(pixelByteCount))),  // StripByteCounts
            (33421, 3, 2, le16(2) + le16(2)),  // CFARepeatPatternDim 2×2
            (33422, 1, 4, [0, 1, 1, 2]),  // CFAPattern RGGB
        ]
        if let subIFD {
            entries.insert((330, 4, 1, le(subIFD)), at: 11)  // SubIFDs
        } else {
            entries.insert((284, 3, 1, le16(1)), at: 11)  // PlanarConfiguration: chunky
        }
        var bytes = le16(UInt16(entries.count))
        for (tag, type, count, value) in entries {
            bytes += le16(tag) + le16(type) + le(count) + value + [UInt8](repeating: 0, count: 4 - value.count)
        }
        return bytes + le(next)
    }

    private static func le(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
}
