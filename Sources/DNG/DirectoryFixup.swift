import RawImage
import TIFFVocabulary
import WireFormat

#if canImport(Glibc)
    import Glibc
#endif

/// The last step of writing: reads back the IFDs libtiff wrote, checks them against the plan, and corrects the two
/// things libtiff cannot be told.
///
/// 1. **Exact rationals.** libtiff takes every RATIONAL/SRATIONAL through `float` and picks the fraction itself
///    (dng-facts.md fact 5), so 1/250 s becomes 0.00400000019 and f/5.6 becomes 5.599999905. Each rational of the
///    plan is rewritten in place as the simplest fraction within 10⁻¹² of the planned value (continued fractions,
///    denominators up to 10⁶): 1/250, 28/5, 3361/5000. Values beyond a 32-bit fraction keep libtiff's form.
/// 2. **Pointer types.** libtiff writes SubIFDs and ExifIFD with the IFD type (13) of TIFF Technical Note 1; EXIF
///    2.32 §4.6.3 specifies LONG for ExifIFD, the DNG SDK writes LONG for SubIFDs, and `exiftool -validate` warns
///    "Non-standard format (ifd)". Both hold the same 32-bit offset, so only the type field changes.
///
/// Every other planned entry is compared with what libtiff wrote (type, count and values; libtiff may store a LONG
/// such as ImageWidth as SHORT when it fits, which TIFF allows), so a file never silently differs from its plan.
/// Only entry values are rewritten; the layout of the file does not change.
struct DirectoryFixup {
    let fileDescriptor: Int32
    let name: String

    /// A 12-byte IFD entry as found in the file.
    private struct FileEntry {
        let tag: UInt16
        let type: UInt16
        let count: UInt32
        /// The 4-byte value field: the value itself when it fits, otherwise its offset.
        let field: [UInt8]
        /// Where the entry starts in the file.
        let position: Int
    }

    /// Checks the file against `plan` and rewrites what needs it; `replacing` gives new bytes for IFD0 BYTE entries
    /// that the plan holds as placeholders of the same length (the raw digests), `thumbnail` new bytes for IFD0's one
    /// strip, written as a placeholder of the same length (a thumbnail rendered while the file was written).
    func apply(
        to plan: DNGPlan, replacing replacements: [UInt16: [UInt8]] = [:], thumbnail: [UInt8]? = nil
    ) throws(DNGError) {
        let header = try parse(try readBytes(8, at: 0)) { reader throws(WireError) -> Int in
            guard try reader.read(UInt16.self) == 0x4949, try reader.read(UInt16.self) == 42 else {
                throw WireError(.invalidValue, at: 0, "not a little-endian classic TIFF")
            }
            return Int(try reader.read(UInt32.self))
        }
        let root = try readDirectory(at: header)
        try check(plan.root.entries, against: root, in: "IFD0")
        for (tag, bytes) in replacements {
            let entry = try find(tag, in: root, "IFD0")
            guard entry.type == TIFFType.byte.rawValue, Int(entry.count) == bytes.count, bytes.count > 4 else {
                throw mismatch("IFD0 tag \(tag) cannot take \(bytes.count) replacement bytes")
            }
            try writeBytes(bytes, at: Int(try offsetField(of: entry)))
        }
        if let thumbnail {
            let offsets = try integers(of: try find(TIFFTag.stripOffsets.rawValue, in: root, "IFD0"))
            let counts = try integers(of: try find(TIFFTag.stripByteCounts.rawValue, in: root, "IFD0"))
            guard offsets.count == 1, counts == [UInt32(thumbnail.count)] else {
                throw mismatch("IFD0's strips \(counts) cannot take the \(thumbnail.count)-byte thumbnail")
            }
            try writeBytes(thumbnail, at: Int(offsets[0]))
        }

        if !plan.root.subDirectories.isEmpty {
            let entry = try find(TIFFTag.subIFDs.rawValue, in: root, "IFD0")
            let offsets = try longs(of: entry)
            guard offsets.count == plan.root.subDirectories.count else {
                throw mismatch("IFD0 SubIFDs has \(offsets.count) offsets, the plan \(plan.root.subDirectories.count)")
            }
            try retype(entry)
            for (index, (offset, child)) in zip(offsets, plan.root.subDirectories).enumerated() {
                try check(child.entries, against: try readDirectory(at: Int(offset)), in: "SubIFD[\(index)]")
            }
        }
        if let exif = plan.root.exif {
            let entry = try find(TIFFTag.exifIFD.rawValue, in: root, "IFD0")
            let offset = try longs(of: entry)
            try retype(entry)
            try check(exif.entries, against: try readDirectory(at: Int(offset.first ?? 0)), in: "ExifIFD")
        }
    }

    // MARK: Checking and rewriting

    private func check(_ planned: [DNGEntry], against file: [FileEntry], in directory: String) throws(DNGError) {
        for entry in planned {
            let written = try find(entry.tag.rawValue, in: file, directory)
            guard Int(written.count) == entry.value.count else {
                throw mismatch(
                    "\(directory) \(entry.tag): \(written.count) values written, \(entry.value.count) planned")
            }
            switch entry.value {
            case .rationals(let values):
                try expectType(written, .rational, entry, directory)
                try rewriteRationals(values.map { Rational(approximating: $0, maxDenominator: 1_000_000) }, written)
            case .srationals(let values):
                try expectType(written, .srational, entry, directory)
                try rewriteRationals(values.map { Rational(approximating: $0, maxDenominator: 1_000_000) }, written)
            case .longs(let values) where written.type == TIFFType.short.rawValue:
                // TIFF lets ImageWidth, RowsPerStrip and the like be SHORT; libtiff uses it when the value fits.
                let shorts = try valueBytes(of: written, size: 2)
                guard values.count == shorts.count / 2,
                    values.enumerated().allSatisfy({ UInt32(shorts[2 * $0]) | UInt32(shorts[2 * $0 + 1]) << 8 == $1 })
                else { throw mismatch("\(directory) \(entry.tag): values differ from the plan") }
            default:
                try expectType(written, entry.tag.type, entry, directory)
                let bytes = try valueBytes(of: written, size: entry.tag.type.byteCount ?? 1)
                guard bytes == Self.fileBytes(of: entry.value) else {
                    throw mismatch("\(directory) \(entry.tag): values differ from the plan")
                }
            }
        }
    }

    private func expectType(_ written: FileEntry, _ type: TIFFType, _ entry: DNGEntry, _ directory: String)
        throws(DNGError)
    {
        guard written.type == type.rawValue else {
            throw mismatch("\(directory) \(entry.tag): written as \(TIFFType(rawValue: written.type)), planned \(type)")
        }
    }

    /// Writes each fraction over libtiff's; a value with no 32-bit fraction (`nil`) keeps libtiff's.
    private func rewriteRationals(_ fractions: [Rational?], _ written: FileEntry) throws(DNGError) {
        let signed = written.type == TIFFType.srational.rawValue
        var bytes = try valueBytes(of: written, size: 8)
        for (index, fraction) in fractions.enumerated() {
            guard let fraction, signed || (fraction.numerator >= 0 && fraction.denominator > 0) else { continue }
            // A negative value keeps its sign in the numerator.
            let numerator = fraction.denominator < 0 ? -fraction.numerator : fraction.numerator
            let denominator = abs(fraction.denominator)
            for (part, value) in [(0, UInt32(bitPattern: numerator)), (4, UInt32(bitPattern: denominator))] {
                for byte in 0..<4 { bytes[index * 8 + part + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte)) }
            }
        }
        try writeBytes(bytes, at: Int(try offsetField(of: written)))
    }

    private func retype(_ entry: FileEntry) throws(DNGError) {
        guard entry.type == TIFFType.ifd.rawValue else { return }
        try writeBytes([UInt8(TIFFType.long.rawValue), 0], at: entry.position + 2)
    }

    /// The values as their bytes in a little-endian file, for comparison with what libtiff wrote.
    static func fileBytes(of value: DNGValue) -> [UInt8] {
        func little<T: FixedWidthInteger>(_ values: [T]) -> [UInt8] {
            values.flatMap { value in (0..<(T.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        }
        switch value {
        case .bytes(let values), .undefined(let values): return values
        case .ascii(let text): return Array(text.utf8) + [0]
        case .shorts(let values): return little(values)
        case .longs(let values): return little(values)
        case .floats(let values): return little(values.map(\.bitPattern))
        case .rationals, .srationals: return []
        }
    }

    // MARK: Reading the file

    private func readDirectory(at offset: Int) throws(DNGError) -> [FileEntry] {
        let count = try parse(try readBytes(2, at: offset)) { reader throws(WireError) in
            Int(try reader.read(UInt16.self))
        }
        guard count <= WireLimits.maxIFDEntries else { throw mismatch("IFD at \(offset) claims \(count) entries") }
        return try parse(try readBytes(count * 12, at: offset + 2)) { reader throws(WireError) in
            var entries: [FileEntry] = []
            for index in 0..<count {
                entries.append(
                    FileEntry(
                        tag: try reader.read(UInt16.self), type: try reader.read(UInt16.self),
                        count: try reader.read(UInt32.self), field: Array(try reader.readBytes(count: 4)),
                        position: offset + 2 + index * 12))
            }
            return entries
        }
    }

    private func find(_ tag: UInt16, in entries: [FileEntry], _ directory: String) throws(DNGError) -> FileEntry {
        guard let entry = entries.first(where: { $0.tag == tag }) else {
            throw mismatch("\(directory) lacks \(TIFFTag(rawValue: tag, type: .undefined).name), which the plan has")
        }
        return entry
    }

    private func offsetField(of entry: FileEntry) throws(DNGError) -> UInt32 {
        try parse(entry.field) { reader throws(WireError) in try reader.read(UInt32.self) }
    }

    /// The entry's value bytes, from the entry itself when they fit in 4 bytes, otherwise from the file.
    private func valueBytes(of entry: FileEntry, size: Int) throws(DNGError) -> [UInt8] {
        let (total, overflow) = Int(entry.count).multipliedReportingOverflow(by: size)
        guard !overflow, total <= 1 << 24 else { throw mismatch("tag \(entry.tag) claims \(entry.count) values") }
        if total <= 4 { return Array(entry.field.prefix(total)) }
        return try readBytes(total, at: Int(try offsetField(of: entry)))
    }

    private func longs(of entry: FileEntry) throws(DNGError) -> [UInt32] {
        let bytes = try valueBytes(of: entry, size: 4)
        return try parse(bytes) { reader throws(WireError) in
            try (0..<(bytes.count / 4)).map { _ throws(WireError) in try reader.read(UInt32.self) }
        }
    }

    /// The values of a SHORT or LONG entry (libtiff writes strip offsets and byte counts as either).
    private func integers(of entry: FileEntry) throws(DNGError) -> [UInt32] {
        guard entry.type == TIFFType.short.rawValue else { return try longs(of: entry) }
        let bytes = try valueBytes(of: entry, size: 2)
        return try parse(bytes) { reader throws(WireError) in
            try (0..<(bytes.count / 2)).map { _ throws(WireError) in UInt32(try reader.read(UInt16.self)) }
        }
    }

    private func readBytes(_ count: Int, at offset: Int) throws(DNGError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return bytes }
        let done = bytes.withUnsafeMutableBytes { pread(fileDescriptor, $0.baseAddress, count, off_t(offset)) }
        guard done == count else {
            if done < 0 { throw DNGError.system("pread", path: name, errno: errno) }
            throw mismatch("\(count) bytes at \(offset) are past the end of the file")
        }
        return bytes
    }

    private func writeBytes(_ bytes: [UInt8], at offset: Int) throws(DNGError) {
        let done = bytes.withUnsafeBytes { pwrite(fileDescriptor, $0.baseAddress, bytes.count, off_t(offset)) }
        guard done == bytes.count else { throw DNGError.system("pwrite", path: name, errno: done < 0 ? errno : EIO) }
    }

    private func parse<T>(_ bytes: [UInt8], _ body: (inout WireReader) throws(WireError) -> T) throws(DNGError) -> T {
        var reader = WireReader(bytes, byteOrder: .little)
        do throws(WireError) {
            return try body(&reader)
        } catch {
            throw mismatch("unreadable directory: \(error)")
        }
    }

    private func mismatch(_ detail: String) -> DNGError {
        DNGError(.libtiff, path: name, "libtiff's output differs from the plan: \(detail)")
    }
}
