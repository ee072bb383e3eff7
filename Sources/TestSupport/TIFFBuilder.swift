/// Assembles TIFF files byte by byte for reader tests: any tags with any types, strips or tiles, SubIFD trees, IFD
/// chains, either byte order, and deliberate defects (pointers into the file's own IFDs, wrong counts).
///
/// Independent of the code under test: it writes the TIFF 6.0 layout directly (header, IFD entries sorted by tag,
/// out-of-line values, word-aligned), so a reader that agrees with it agrees with the specification, not with
/// rawcap's own writer.
public struct TIFFBuilder: Sendable {
    /// A field type and its values (TIFF 6.0 §2 field types).
    public enum Value: Sendable {
        case byte([UInt8])
        case ascii(String)
        case short([UInt16])
        case long([UInt32])
        case rational([(UInt32, UInt32)])
        case sbyte([Int8])
        case undefined([UInt8])
        case sshort([Int16])
        case slong([Int32])
        case srational([(Int32, Int32)])
        case float([Float])
        case double([Double])

        var typeCode: UInt16 {
            switch self {
            case .byte: 1
            case .ascii: 2
            case .short: 3
            case .long: 4
            case .rational: 5
            case .sbyte: 6
            case .undefined: 7
            case .sshort: 8
            case .slong: 9
            case .srational: 10
            case .float: 11
            case .double: 12
            }
        }

        var count: Int {
            switch self {
            case .byte(let v), .undefined(let v): v.count
            case .ascii(let s): s.utf8.count + 1
            case .short(let v): v.count
            case .long(let v): v.count
            case .rational(let v): v.count
            case .sbyte(let v): v.count
            case .sshort(let v): v.count
            case .slong(let v): v.count
            case .srational(let v): v.count
            case .float(let v): v.count
            case .double(let v): v.count
            }
        }
    }

    /// How an IFD's image data is cut up.
    public enum ImageData: Sendable {
        /// Strips: each element is one strip's bytes; RowsPerStrip is written as given.
        case strips(rowsPerStrip: UInt32, [[UInt8]])
        /// Tiles of `width × height`, row-major.
        case tiles(width: UInt32, height: UInt32, [[UInt8]])
    }

    /// One IFD: its tags, its image data, its SubIFDs.
    public struct IFD: Sendable {
        /// Tags written as given (StripOffsets/TileOffsets, byte counts and SubIFDs are added from the fields below).
        public var tags: [UInt16: Value]
        /// The image data, when the IFD has an image.
        public var data: ImageData?
        /// SubIFDs (TIFF Technical Note 1), written as tag 330.
        public var subIFDs: [IFD]
        /// Replaces the SubIFDs tag's offsets with these values (for pointer-defect tests).
        public var subIFDOffsetOverride: [UInt32]?
        /// Replaces the next-IFD pointer of this IFD (for chain-defect tests).
        public var nextIFDOverride: UInt32?
        /// Tags of an EXIF IFD written for this IFD and pointed to by tag 34665 (ExifIFD).
        public var exif: [UInt16: Value]?

        /// Creates an IFD.
        public init(
            tags: [UInt16: Value] = [:], data: ImageData? = nil, subIFDs: [IFD] = [],
            subIFDOffsetOverride: [UInt32]? = nil, nextIFDOverride: UInt32? = nil, exif: [UInt16: Value]? = nil
        ) {
            self.exif = exif
            self.tags = tags
            self.data = data
            self.subIFDs = subIFDs
            self.subIFDOffsetOverride = subIFDOffsetOverride
            self.nextIFDOverride = nextIFDOverride
        }
    }

    /// Little-endian (`II`) when true, big-endian (`MM`) otherwise.
    public var littleEndian: Bool
    /// The main chain: IFD0, IFD1, …
    public var chain: [IFD]

    /// Creates a builder.
    public init(littleEndian: Bool = true, chain: [IFD]) {
        self.littleEndian = littleEndian
        self.chain = chain
    }

    /// Offsets of every IFD written by the last ``build()``, in writing order (children before their parent).
    public struct Layout: Sendable {
        /// Offset of each chain IFD.
        public var chainOffsets: [UInt32] = []
        /// Offset of each SubIFD, keyed by its path such as `"0/1"` (chain IFD 0, SubIFD 1).
        public var subIFDOffsets: [String: UInt32] = [:]
    }

    /// The file's bytes.
    public func build() -> [UInt8] { buildWithLayout().bytes }

    /// The file's bytes and where each IFD went.
    public func buildWithLayout() -> (bytes: [UInt8], layout: Layout) {
        var out = Output(littleEndian: littleEndian)
        out.bytes += littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
        out.append16(42)
        out.append32(0)  // IFD0 offset, patched below
        var layout = Layout()
        var nextFields: [Int] = []
        for (index, ifd) in chain.enumerated() {
            let (offset, nextField) = write(ifd, path: "\(index)", into: &out, layout: &layout)
            layout.chainOffsets.append(offset)
            nextFields.append(nextField)
        }
        if let first = layout.chainOffsets.first { out.patch32(first, at: 4) }
        for (index, ifd) in chain.enumerated() {
            let next = index + 1 < chain.count ? layout.chainOffsets[index + 1] : 0
            out.patch32(ifd.nextIFDOverride ?? next, at: nextFields[index])
        }
        return (out.bytes, layout)
    }

    /// Writes `ifd`, its children and data; returns its offset and the position of its next-IFD field.
    private func write(_ ifd: IFD, path: String, into out: inout Output, layout: inout Layout) -> (UInt32, Int) {
        var childOffsets: [UInt32] = []
        for (index, child) in ifd.subIFDs.enumerated() {
            let childPath = "\(path)/\(index)"
            let (offset, _) = write(child, path: childPath, into: &out, layout: &layout)
            layout.subIFDOffsets[childPath] = offset
            childOffsets.append(offset)
        }
        var tags = ifd.tags
        if let exif = ifd.exif {
            let (offset, _) = write(IFD(tags: exif), path: "\(path)/exif", into: &out, layout: &layout)
            tags[34665] = .long([offset])
        }
        if let data = ifd.data {
            let blobs: [[UInt8]]
            switch data {
            case .strips(let rows, let strips):
                blobs = strips
                tags[278] = .long([rows])
            case .tiles(let width, let height, let tiles):
                blobs = tiles
                tags[322] = .long([width])
                tags[323] = .long([height])
            }
            var offsets: [UInt32] = []
            for blob in blobs {
                out.align()
                offsets.append(UInt32(out.bytes.count))
                out.bytes += blob
            }
            let isTiled: Bool = if case .tiles = data { true } else { false }
            tags[isTiled ? 324 : 273] = .long(offsets)
            tags[isTiled ? 325 : 279] = .long(blobs.map { UInt32($0.count) })
        }
        if let override = ifd.subIFDOffsetOverride {
            tags[330] = .long(override)
        } else if !childOffsets.isEmpty {
            tags[330] = .long(childOffsets)
        }
        // Out-of-line values first, then the IFD, so every offset is known when the entry is written.
        var entries: [(tag: UInt16, value: Value, field: [UInt8])] = []
        for tag in tags.keys.sorted() {
            guard let value = tags[tag] else { continue }
            let payload = out.encode(value)
            if payload.count <= 4 {
                entries.append((tag, value, payload + [UInt8](repeating: 0, count: 4 - payload.count)))
            } else {
                out.align()
                let offset = UInt32(out.bytes.count)
                out.bytes += payload
                entries.append((tag, value, out.encode32(offset)))
            }
        }
        out.align()
        let ifdOffset = UInt32(out.bytes.count)
        out.append16(UInt16(entries.count))
        for entry in entries {
            out.append16(entry.tag)
            out.append16(entry.value.typeCode)
            out.append32(UInt32(entry.value.count))
            out.bytes += entry.field
        }
        let nextField = out.bytes.count
        out.append32(0)
        return (ifdOffset, nextField)
    }

    private struct Output {
        let littleEndian: Bool
        var bytes: [UInt8] = []

        init(littleEndian: Bool) { self.littleEndian = littleEndian }

        mutating func align() { if bytes.count % 2 == 1 { bytes.append(0) } }
        mutating func append16(_ value: UInt16) { bytes += encode16(value) }
        mutating func append32(_ value: UInt32) { bytes += encode32(value) }
        mutating func patch32(_ value: UInt32, at position: Int) {
            bytes.replaceSubrange(position..<position + 4, with: encode32(value))
        }

        func encode16(_ value: UInt16) -> [UInt8] {
            let le = [UInt8(value & 0xFF), UInt8(value >> 8)]
            return littleEndian ? le : le.reversed()
        }
        func encode32(_ value: UInt32) -> [UInt8] {
            let le = (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
            return littleEndian ? le : le.reversed()
        }
        func encode64(_ value: UInt64) -> [UInt8] {
            let le = (0..<8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
            return littleEndian ? le : le.reversed()
        }

        func encode(_ value: Value) -> [UInt8] {
            switch value {
            case .byte(let v), .undefined(let v): return v
            case .ascii(let s): return Array(s.utf8) + [0]
            case .short(let v): return v.flatMap(encode16)
            case .long(let v): return v.flatMap(encode32)
            case .rational(let v): return v.flatMap { encode32($0.0) + encode32($0.1) }
            case .sbyte(let v): return v.map { UInt8(bitPattern: $0) }
            case .sshort(let v): return v.flatMap { encode16(UInt16(bitPattern: $0)) }
            case .slong(let v): return v.flatMap { encode32(UInt32(bitPattern: $0)) }
            case .srational(let v):
                return v.flatMap { encode32(UInt32(bitPattern: $0.0)) + encode32(UInt32(bitPattern: $0.1)) }
            case .float(let v): return v.flatMap { encode32($0.bitPattern) }
            case .double(let v): return v.flatMap { encode64($0.bitPattern) }
            }
        }
    }
}
