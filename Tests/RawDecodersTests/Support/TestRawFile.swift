import LosslessJPEG
import TestSupport

/// A small DNG or TIFF/EP file described by its parts and assembled with ``TIFFBuilder``: the samples are packed
/// here, independently of the reader under test (MSB-first for 9…15 bits, DNG 1.7 p.19; 16-bit words in the
/// file's byte order).
struct TestRawFile {
    enum Placement {
        /// DNG layout: IFD0 is an RGB thumbnail, the raw image is SubIFD 0 (Adobe SDK, rawcap's writer).
        case subIFD
        /// The raw image in IFD0 (PiDNG, Android; TIFF/EP).
        case ifd0
    }

    enum Storage {
        case strips(rowsPerStrip: Int)
        case tiles(width: Int, height: Int)
    }

    /// How a Compression 7 block's samples are arranged in its JPEG frame.
    enum LosslessLayout {
        /// Adobe's layout: a W×H block as a W/2 × H frame of two components.
        case twoComponents
        /// A W×H block as a W × H frame of one component.
        case oneComponent
        /// PiDNG's layout: two sensor rows per JPEG row, a 2W × H/2 frame of one component.
        case twoRowsPerJPEGRow
    }

    var width = 40
    var height = 30
    var bitsPerSample = 12
    var littleEndian = true
    var placement = Placement.subIFD
    var storage = Storage.strips(rowsPerStrip: 7)
    var isDNG = true
    /// CFA pattern values row by row (DNG numbering: 0 red, 1 green, 2 blue).
    var pattern: [UInt8] = [0, 1, 1, 2]
    var patternDims: [UInt16] = [2, 2]
    /// Tags added to the raw IFD (override defaults).
    var rawTags: [UInt16: TIFFBuilder.Value] = [:]
    /// Tags added to IFD0.
    var ifd0Tags: [UInt16: TIFFBuilder.Value] = [:]
    /// EXIF IFD tags (an EXIF IFD pointed to by IFD0's ExifIFD tag).
    var exifTags: [UInt16: TIFFBuilder.Value] = [:]
    var samplesPerPixel = 1
    var photometric: UInt16 = 32803
    /// Compression 7 with this layout instead of uncompressed data.
    var lossless: LosslessLayout?
    lazy var samples: [UInt16] = Self.pseudoRandomSamples(
        count: width * height * samplesPerPixel, bits: bitsPerSample, seed: 42)

    /// Deterministic samples covering the whole range of `bits` (xorshift).
    static func pseudoRandomSamples(count: Int, bits: Int, seed: UInt64) -> [UInt16] {
        var state = seed | 1
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt16(truncatingIfNeeded: state) & UInt16((1 << bits) - 1)
        }
    }

    /// Packs `rows` rows of `rowSamples` samples, each row starting on a byte boundary.
    func pack(_ values: ArraySlice<UInt16>, rowSamples: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = values.startIndex
        while index < values.endIndex {
            let row = values[index..<min(index + rowSamples, values.endIndex)]
            index += rowSamples
            switch bitsPerSample {
            case 8: bytes += row.map { UInt8($0) }
            case 16:
                for value in row {
                    bytes +=
                        littleEndian
                        ? [UInt8(value & 0xFF), UInt8(value >> 8)] : [UInt8(value >> 8), UInt8(value & 0xFF)]
                }
            default:
                var accumulator: UInt32 = 0
                var count = 0
                for value in row {
                    accumulator = (accumulator << UInt32(bitsPerSample)) | UInt32(value)
                    count += bitsPerSample
                    while count >= 8 {
                        count -= 8
                        bytes.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(count)))
                    }
                }
                if count > 0 { bytes.append(UInt8(truncatingIfNeeded: accumulator << UInt32(8 - count))) }
            }
        }
        return bytes
    }

    /// One block's bytes: packed, or a lossless JPEG stream in the chosen layout.
    func encodeBlock(_ values: ArraySlice<UInt16>, blockWidth: Int, rows: Int) -> [UInt8] {
        let rowSamples = blockWidth * samplesPerPixel
        guard let lossless else { return pack(values, rowSamples: rowSamples) }
        let (components, samplesPerRow): (Int, Int) =
            switch lossless {
            case .twoComponents: (2 * samplesPerPixel, rowSamples)
            case .oneComponent: (samplesPerPixel, rowSamples)
            case .twoRowsPerJPEGRow: (samplesPerPixel, 2 * rowSamples)
            }
        do {
            let encoder = try LJ92Encoder(precision: bitsPerSample, components: components)
            return try encoder.encode(Array(values), samplesPerRow: samplesPerRow)
        } catch {
            preconditionFailure("test fixture cannot be encoded: \(error)")
        }
    }

    /// The image data cut into strips or tiles (tiles padded with zeros past the image edge).
    mutating func imageData() -> TIFFBuilder.ImageData {
        let all = samples
        let spp = samplesPerPixel
        switch storage {
        case .strips(let rowsPerStrip):
            var strips: [[UInt8]] = []
            for top in stride(from: 0, to: height, by: rowsPerStrip) {
                let rows = min(rowsPerStrip, height - top)
                strips.append(
                    encodeBlock(all[(top * width * spp)..<((top + rows) * width * spp)], blockWidth: width, rows: rows))
            }
            return .strips(rowsPerStrip: UInt32(rowsPerStrip), strips)
        case .tiles(let tileWidth, let tileHeight):
            var tiles: [[UInt8]] = []
            for top in stride(from: 0, to: height, by: tileHeight) {
                for left in stride(from: 0, to: width, by: tileWidth) {
                    var tile: [UInt16] = []
                    for row in top..<top + tileHeight {
                        for column in left..<left + tileWidth {
                            for sample in 0..<spp {
                                tile.append(
                                    row < height && column < width ? all[(row * width + column) * spp + sample] : 0)
                            }
                        }
                    }
                    tiles.append(encodeBlock(tile[...], blockWidth: tileWidth, rows: tileHeight))
                }
            }
            return .tiles(width: UInt32(tileWidth), height: UInt32(tileHeight), tiles)
        }
    }

    /// The raw IFD's tags (without strip/tile tags, which the builder adds).
    func rawIFDTags() -> [UInt16: TIFFBuilder.Value] {
        var tags: [UInt16: TIFFBuilder.Value] = [
            254: .long([0]),
            256: .long([UInt32(width)]),
            257: .long([UInt32(height)]),
            258: .short([UInt16](repeating: UInt16(bitsPerSample), count: samplesPerPixel)),
            259: .short([lossless == nil ? 1 : 7]),
            262: .short([photometric]),
            277: .short([UInt16(samplesPerPixel)]),
            284: .short([1]),
        ]
        if photometric == 32803 {
            tags[33421] = .short(patternDims)
            tags[33422] = .byte(pattern)
        }
        tags.merge(rawTags) { $1 }
        return tags
    }

    /// The file.
    mutating func build() -> [UInt8] {
        var raw = TIFFBuilder.IFD(tags: rawIFDTags(), data: imageData())
        var ifd0Base: [UInt16: TIFFBuilder.Value] = [
            271: .ascii("rawcap"), 272: .ascii("Test Sensor"), 274: .short([1]),
        ]
        if isDNG {
            ifd0Base[50706] = .byte([1, 4, 0, 0])
            ifd0Base[50707] = .byte([1, 1, 0, 0])
            ifd0Base[50708] = .ascii("rawcap Test Sensor")
        }
        var chain: [TIFFBuilder.IFD] = []
        switch placement {
        case .ifd0:
            raw.tags.merge(ifd0Base) { old, _ in old }
            raw.tags.merge(ifd0Tags) { $1 }
            chain.append(raw)
        case .subIFD:
            var thumbnail = TIFFBuilder.IFD(
                tags: [
                    254: .long([1]), 256: .long([4]), 257: .long([2]), 258: .short([8, 8, 8]), 259: .short([1]),
                    262: .short([2]), 277: .short([3]), 284: .short([1]),
                ],
                data: .strips(rowsPerStrip: 2, [[UInt8](repeating: 128, count: 24)]), subIFDs: [raw])
            thumbnail.tags.merge(ifd0Base) { $1 }
            thumbnail.tags.merge(ifd0Tags) { $1 }
            chain.append(thumbnail)
        }
        if !exifTags.isEmpty { chain[0].exif = exifTags }
        return TIFFBuilder(littleEndian: littleEndian, chain: chain).build()
    }
}
