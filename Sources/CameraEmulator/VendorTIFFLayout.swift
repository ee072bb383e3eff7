import RawImage
import WireFormat

/// A TIFF file as a list of blocks (image directories and data) whose offsets are worked out before anything is
/// written: the container of the makers' raw formats the vendor personalities store (NEF is big-endian TIFF, CR2
/// little-endian TIFF with Canon's header extension).
///
/// Entries may point at other blocks (SubIFDs, the EXIF IFD, strips), so the layout runs in two passes: sizes
/// first (an IFD's size does not depend on the offsets it holds), then offsets, then bytes. Values follow TIFF 6.0
/// §2 (types 1 BYTE, 2 ASCII, 3 SHORT, 4 LONG, 5 RATIONAL, 7 UNDEFINED, 10 SRATIONAL; a value of more than four
/// bytes goes after the directory, on a word boundary).
struct VendorTIFFLayout {
    /// A block's index in ``blocks``.
    typealias BlockID = Int

    /// One directory entry's value.
    enum Value {
        case byte([UInt8])
        case ascii(String)
        case short([UInt16])
        case long([UInt32])
        case rational([(UInt32, UInt32)])
        case signedRational([(Int32, Int32)])
        case undefined([UInt8])
        /// LONGs holding the file offsets of these blocks (StripOffsets, SubIFDs, ExifIFD).
        case offsets([BlockID])
        /// LONGs holding the byte counts of these blocks (StripByteCounts).
        case byteCounts([BlockID])
        /// UNDEFINED bytes that are a whole block (a maker note laid out as a directory of this file): the count is
        /// the block's size and the offset its position.
        case block(BlockID)
    }

    /// One directory entry.
    struct Entry {
        var tag: UInt16
        var value: Value
        init(_ tag: UInt16, _ value: Value) { (self.tag, self.value) = (tag, value) }
    }

    enum Block {
        case directory([Entry])
        case data([UInt8])
    }

    let byteOrder: ByteOrder
    /// Bytes after the 8-byte TIFF header before the first block (CR2's "CR", version and raw IFD offset).
    var headerExtension: Int
    private(set) var blocks: [Block] = []
    /// The block IFD 0 is; the header points at it.
    var firstDirectory: BlockID = 0
    /// Each directory's next directory (TIFF's IFD chain); the others end the chain.
    private var next: [BlockID: BlockID] = [:]

    init(byteOrder: ByteOrder, headerExtension: Int = 0) {
        self.byteOrder = byteOrder
        self.headerExtension = headerExtension
    }

    /// Adds a directory; the entries are sorted by tag when written.
    mutating func add(directory entries: [Entry]) -> BlockID {
        blocks.append(.directory(entries.sorted { $0.tag < $1.tag }))
        return blocks.count - 1
    }

    /// Adds data (strips, a thumbnail).
    mutating func add(data: [UInt8]) -> BlockID {
        blocks.append(.data(data))
        return blocks.count - 1
    }

    /// Replaces a directory's entries (to point it at blocks added after it).
    mutating func replace(_ id: BlockID, with entries: [Entry]) {
        blocks[id] = .directory(entries.sorted { $0.tag < $1.tag })
    }

    /// Makes `second` the directory after `first` in the IFD chain.
    mutating func chain(_ first: BlockID, to second: BlockID) { next[first] = second }

    /// The file offset of each block, once laid out.
    func offsets() -> [Int] {
        var offset = 8 + headerExtension
        var result: [Int] = []
        for block in blocks {
            offset = (offset + 1) & ~1
            result.append(offset)
            offset += size(of: block)
        }
        return result
    }

    /// The file: header, then each block at its offset. `patchHeader` fills ``headerExtension`` (given the block
    /// offsets).
    func encode(patchHeader: (inout WireWriter, [Int]) -> Void = { _, _ in }) -> [UInt8] {
        let offsets = offsets()
        var writer = WireWriter(
            byteOrder: byteOrder, capacity: (offsets.last ?? 0) + (blocks.last.map { size(of: $0) } ?? 0))
        writer.write(bytes: byteOrder == .little ? [0x49, 0x49] : [0x4D, 0x4D])
        writer.write(UInt16(42))
        writer.write(UInt32(offsets.isEmpty ? 0 : offsets[firstDirectory]))
        patchHeader(&writer, offsets)
        for (index, block) in blocks.enumerated() {
            while writer.count < offsets[index] { writer.write(UInt8(0)) }
            switch block {
            case .data(let bytes): writer.write(bytes: bytes)
            case .directory(let entries):
                write(
                    entries, at: offsets[index], next: next[index].map { offsets[$0] } ?? 0, offsets: offsets,
                    into: &writer)
            }
        }
        return writer.bytes
    }

    private func size(of block: Block) -> Int {
        switch block {
        case .data(let bytes):
            return bytes.count
        case .directory(let entries):
            var size = 2 + entries.count * 12 + 4
            for entry in entries {
                let count = payloadCount(entry.value)
                if count > 4 { size = ((size + 1) & ~1) + count }
            }
            return (size + 1) & ~1
        }
    }

    private func payloadCount(_ value: Value) -> Int {
        switch value {
        case .byte(let values), .undefined(let values): values.count
        case .ascii(let text): text.utf8.count + 1
        case .short(let values): values.count * 2
        case .long(let values): values.count * 4
        case .rational(let values): values.count * 8
        case .signedRational(let values): values.count * 8
        case .offsets(let ids), .byteCounts(let ids): ids.count * 4
        case .block: 4
        }
    }

    private func write(_ entries: [Entry], at offset: Int, next: Int, offsets: [Int], into writer: inout WireWriter) {
        var values = WireWriter(byteOrder: byteOrder)
        var valueOffset = offset + 2 + entries.count * 12 + 4
        writer.write(UInt16(entries.count))
        for entry in entries {
            var payload = WireWriter(byteOrder: byteOrder)
            var type: UInt16 = 0
            var count = 0
            switch entry.value {
            case .byte(let bytes):
                (type, count) = (1, bytes.count)
                payload.write(bytes: bytes)
            case .undefined(let bytes):
                (type, count) = (7, bytes.count)
                payload.write(bytes: bytes)
            case .ascii(let text):
                let bytes = text.unicodeScalars.map {
                    $0.isASCII && $0.value != 0 ? UInt8($0.value) : UInt8(ascii: "?")
                }
                (type, count) = (2, bytes.count + 1)
                payload.write(bytes: bytes + [0])
            case .short(let shorts):
                (type, count) = (3, shorts.count)
                for value in shorts { payload.write(value) }
            case .long(let longs):
                (type, count) = (4, longs.count)
                for value in longs { payload.write(value) }
            case .rational(let pairs):
                (type, count) = (5, pairs.count)
                for (numerator, denominator) in pairs {
                    payload.write(numerator)
                    payload.write(denominator)
                }
            case .signedRational(let pairs):
                (type, count) = (10, pairs.count)
                for (numerator, denominator) in pairs {
                    payload.write(numerator)
                    payload.write(denominator)
                }
            case .offsets(let ids):
                (type, count) = (4, ids.count)
                for id in ids { payload.write(UInt32(truncatingIfNeeded: offsets[id])) }
            case .byteCounts(let ids):
                (type, count) = (4, ids.count)
                for id in ids { payload.write(UInt32(truncatingIfNeeded: size(of: blocks[id]))) }
            case .block(let id):
                (type, count) = (7, size(of: blocks[id]))
                payload.write(UInt32(truncatingIfNeeded: offsets[id]))
            }
            writer.write(entry.tag)
            writer.write(type)
            writer.write(UInt32(count))
            let bytes = payload.bytes
            if bytes.count > 4 {
                if valueOffset % 2 != 0 {
                    values.write(UInt8(0))
                    valueOffset += 1
                }
                writer.write(UInt32(valueOffset))
                values.write(bytes: bytes)
                valueOffset += bytes.count
            } else {
                writer.write(bytes: bytes + [UInt8](repeating: 0, count: 4 - bytes.count))
            }
        }
        writer.write(UInt32(truncatingIfNeeded: next))
        writer.write(bytes: values.bytes)
        if writer.count % 2 != 0 { writer.write(UInt8(0)) }
    }

    /// The EXIF IFD of a vendor raw file: ExifVersion 0230, the maker note, then exposure time, f-number, ISO,
    /// capture time, focal length and lens, each when the metadata has it.
    static func exifEntries(_ metadata: CaptureMetadata, makerNote: Value) -> [Entry] {
        var exifEntries: [Entry] = [
            .init(36864, .undefined(Array("0230".utf8))),
            .init(37500, makerNote),
        ]
        if let time = metadata.exposureTime {
            exifEntries.append(
                .init(33434, .rational([(UInt32(max(0, time.numerator)), UInt32(max(1, time.denominator)))])))
        }
        if let fNumber = metadata.fNumber {
            exifEntries.append(.init(33437, .rational([(UInt32((fNumber * 100).rounded()), 100)])))
        }
        if let iso = metadata.iso { exifEntries.append(.init(34855, .short([UInt16(clamping: iso)]))) }
        if let time = metadata.captureTime { exifEntries.append(.init(36867, .ascii(time.exifDateTime))) }
        if let focal = metadata.focalLength {
            exifEntries.append(.init(37386, .rational([(UInt32((focal * 100).rounded()), 100)])))
        }
        if let lens = metadata.lensModel { exifEntries.append(.init(42036, .ascii(lens))) }
        return exifEntries
    }
}
