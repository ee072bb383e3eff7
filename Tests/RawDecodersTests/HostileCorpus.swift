import Foundation
import LosslessJPEG
import TestSupport

/// The crafted files of issue 17 §3, generated here and committed to the `FuzzRawFile` seed corpus
/// (`Fuzz/corpus/FuzzRawFile/hostile-*`), so that the fuzzer starts from them and every test reads the same bytes.
/// `RAWCAP_RECORD=1 swift test --filter HostileCorpusTests` writes them again; the tests compare otherwise.
enum HostileCorpus {
    static let folder = ExternalTool.packageRoot.appendingPathComponent("Fuzz/corpus/FuzzRawFile")

    /// Every generated file by name.
    static let files: [(name: String, bytes: [UInt8])] = [
        ("hostile-black-level-1e300.dng", hugeBlackLevel(tag: 50714)),
        ("hostile-black-level-delta-v-1e300.dng", hugeBlackLevel(tag: 50716)),
        ("hostile-shared-tiles.dng", sharedTiles()),
        ("hostile-overlapping-strips.dng", overlappingStrips()),
        ("hostile-tiny-tiles.dng", tinyTiles()),
        ("hostile-escapes.dng", escapes()),
        ("hostile-libraw-crash.tif", libRawCrash()),
        ("fallback-7bit.dng", sevenBitStrips().bytes),
    ]

    /// The committed file `name` (one of ``files`` or a file added by hand, such as LibRaw's crashers).
    static func committed(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// A small DNG whose BlackLevel (50714) or BlackLevelDeltaV (50716) is DOUBLE 1e300: finite and ≥ 0, so it
    /// passes a finiteness check, and traps when converted to Int (issue 17).
    static func hugeBlackLevel(tag: UInt16) -> [UInt8] {
        var file = TestRawFile()
        file.rawTags = tag == 50714 ? [tag: .double([1e300])] : [tag: .double([Double](repeating: 1e300, count: 30))]
        return file.build()
    }

    /// A DNG's raw IFD (in IFD 0) with the DNG tags, for files whose data is laid out by hand.
    static func rawIFD(width: Int, height: Int, bits: Int, lossless: Bool) -> [UInt16: TIFFBuilder.Value] {
        var file = TestRawFile(width: width, height: height, bitsPerSample: bits, placement: .ifd0)
        file.lossless = lossless ? .twoComponents : nil
        var tags = file.rawIFDTags()
        tags[271] = .ascii("rawcap")
        tags[272] = .ascii("Hostile")
        tags[50706] = .byte([1, 4, 0, 0])
        tags[50707] = .byte([1, 1, 0, 0])
        tags[50708] = .ascii("rawcap Hostile")
        return tags
    }

    /// Builds `tags` (whose offsets are `sentinel`) and appends `data`, pointing every sentinel at it plus
    /// `shift(index)`.
    static func build(_ tags: [UInt16: TIFFBuilder.Value], data: [UInt8], shift: (Int) -> UInt32 = { _ in 0 })
        -> [UInt8]
    {
        var bytes = TIFFBuilder(chain: [TIFFBuilder.IFD(tags: tags)]).build()
        if bytes.count % 2 == 1 { bytes.append(0) }
        let base = UInt32(bytes.count)
        var index = 0
        var position = 0
        while position + 4 <= bytes.count {
            if bytes[position..<position + 4].elementsEqual(sentinelBytes) {
                let value = base + shift(index)
                bytes.replaceSubrange(position..<position + 4, with: (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) })
                index += 1
                position += 4
            } else {
                position += 2
            }
        }
        return bytes + data
    }

    static let sentinel: UInt32 = 0x7EAD_BEEF
    static let sentinelBytes: [UInt8] = [0xEF, 0xBE, 0xAD, 0x7E]

    /// One 256×256 lossless JPEG tile of a flat grey, Adobe's two-component layout: 1 bit a sample, 8 KB.
    static func flatTile(bits: Int) -> [UInt8] {
        let samples = [UInt16](repeating: UInt16(1 << (bits - 1)), count: 256 * 256)
        do {
            return try LJ92Encoder(precision: bits, components: 2).encode(samples, samplesPerRow: 256)
        } catch {
            preconditionFailure("flat tile: \(error)")
        }
    }

    /// Issue 17's memory bomb: 32512×12288 12-bit pixels in 127 × 48 = 6,096 lossless tiles that all point at one
    /// 8 KB tile. A 57 KB file claiming 400 million samples.
    static func sharedTiles() -> [UInt8] {
        let (width, height) = (32512, 12288)
        let tile = flatTile(bits: 12)
        let count = (width / 256) * (height / 256)
        var tags = rawIFD(width: width, height: height, bits: 12, lossless: true)
        tags[322] = .long([256])
        tags[323] = .long([256])
        tags[324] = .long([UInt32](repeating: sentinel, count: count))
        tags[325] = .long([UInt32](repeating: UInt32(tile.count), count: count))
        return build(tags, data: tile)
    }

    /// Uncompressed 16-bit strips of one row each that overlap: strip i starts 2 × (i mod 2) bytes after one 16 KB
    /// row, so 8,192 strips claiming 128 MB share 16 KB.
    static func overlappingStrips() -> [UInt8] {
        let (width, height) = (8192, 8192)
        let row = [UInt8](repeating: 0x10, count: width * 2 + 2)
        var tags = rawIFD(width: width, height: height, bits: 16, lossless: false)
        tags[278] = .long([1])
        tags[273] = .long([UInt32](repeating: sentinel, count: height))
        tags[279] = .long([UInt32](repeating: UInt32(width * 2), count: height))
        return build(tags, data: row) { UInt32(($0 % 2) * 2) }
    }

    /// 4096×4096 in 256 lossless tiles of 64 bytes each (each would need 8 KB even for a flat grey): the data is
    /// far smaller than the pixel count claims.
    static func tinyTiles() -> [UInt8] {
        let (width, height) = (4096, 4096)
        let tile = Array(flatTile(bits: 12).prefix(64))
        let count = (width / 256) * (height / 256)
        var tags = rawIFD(width: width, height: height, bits: 12, lossless: true)
        tags[322] = .long([256])
        tags[323] = .long([256])
        tags[324] = .long([UInt32](repeating: sentinel, count: count))
        tags[325] = .long([UInt32](repeating: UInt32(tile.count), count: count))
        return build(tags, data: [UInt8]((0..<count).flatMap { _ in tile })) { UInt32($0 * tile.count) }
    }

    /// A TIFF whose PhotometricInterpretation is RGB (so rawcap hands it to LibRaw) with a CFAPattern of 36 entries
    /// for a 2×2 CFARepeatPatternDim: Debian's LibRaw 0.20 dereferences a bad pointer on it (SIGSEGV in
    /// `raw-identify`, `unprocessed_raw`, and rawcap before issue 17).
    static func libRawCrash() -> [UInt8] {
        var file = TestRawFile(bitsPerSample: 16, placement: .ifd0, isDNG: false, photometric: 2)
        file.rawTags = [33421: .short([2, 2]), 33422: .byte([UInt8]((0..<36).map { [0, 1, 1, 2][$0 % 4] }))]
        return file.build()
    }

    /// A DNG of 7-bit samples, bit-packed: rawcap's reader reads 8 to 16 bits and refuses it as unsupported, LibRaw
    /// reads it, exactly: the fallback of issue 17 (a CinemaDNG's SOF1 tiles take the same path, but LibRaw's
    /// decoding of them leaves pixels it does not cover as they were in memory, so they make no exact fixture).
    /// Returns the samples that went in.
    static func sevenBitStrips() -> (bytes: [UInt8], samples: [UInt16]) {
        var file = TestRawFile(width: 64, height: 48, bitsPerSample: 7, storage: .strips(rowsPerStrip: 16))
        file.rawTags = [50717: .short([127])]
        let bytes = file.build()
        return (bytes, file.samples)
    }

    /// A valid small DNG whose Make, Model, UniqueCameraModel, serial number and LensModel carry terminal escapes
    /// (clear screen, set title, colours) and a line break that forges a report line.
    static func escapes() -> [UInt8] {
        var file = TestRawFile()
        file.ifd0Tags = [
            271: .ascii("Evil\u{1B}[2J\u{1B}[H"), 272: .ascii("Body\u{1B}]0;pwned\u{07}"),
            50708: .ascii("Unique\u{9B}31m"), 50735: .ascii("123\u{1B}[31mred"),
        ]
        file.exifTags = [42036: .ascii("Lens\nWarning: forged line")]
        return file.build()
    }
}
