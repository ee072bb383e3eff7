import TIFFVocabulary
import WireFormat

/// The first bytes of a TIFF file and a bounds-checked look at its IFD entries, without libtiff.
///
/// Used to recognise a file before handing it to a library (TIFF 6.0 §2: `II`/`MM`, 42, IFD offset; BigTIFF: 43,
/// offset size 8, IFD offset) and to follow IFD chain pointers for cycle detection. Every read goes through
/// ``WireFormat/WireReader``.
///
/// | offset | classic TIFF | BigTIFF |
/// |---|---|---|
/// | 0 | `II` or `MM` | `II` or `MM` |
/// | 2 | 42 (UInt16) | 43 (UInt16) |
/// | 4 | IFD0 offset (UInt32) | offset size 8 (UInt16), 0 (UInt16) |
/// | 8 | | IFD0 offset (UInt64) |
public struct TIFFHeader: Hashable, Sendable {
    /// The byte order the file declares.
    public let byteOrder: ByteOrder
    /// Whether the file is BigTIFF (64-bit offsets).
    public let isBigTIFF: Bool
    /// Offset of IFD0.
    public let firstIFDOffset: UInt64

    /// One IFD entry as stored: tag, field type, count, and the 4 (classic) or 8 (BigTIFF) bytes of its value
    /// or offset field.
    public struct Entry: Hashable, Sendable {
        /// The tag number.
        public let tag: TIFFTag
        /// The TIFF field type (1 BYTE, 3 SHORT, 4 LONG, 16 LONG8, …).
        public let type: UInt16
        /// The number of values.
        public let count: UInt64
        /// The raw value-or-offset field.
        public let valueField: [UInt8]
    }

    /// Parses the header; throws unless the bytes start with a TIFF or BigTIFF header.
    public init(_ bytes: ArraySlice<UInt8>) throws(WireError) {
        guard bytes.count >= 8 else { throw WireError(.truncated, at: bytes.startIndex, "TIFF header needs 8 bytes") }
        let first = bytes[bytes.startIndex]
        let second = bytes[bytes.startIndex + 1]
        let order: ByteOrder
        switch (first, second) {
        case (0x49, 0x49): order = .little
        case (0x4D, 0x4D): order = .big
        default: throw WireError(.invalidValue, at: bytes.startIndex, "not a TIFF byte-order mark")
        }
        var reader = WireReader(bytes.dropFirst(2), byteOrder: order)
        let magic = try reader.read(UInt16.self)
        switch magic {
        case 42:
            self.init(byteOrder: order, isBigTIFF: false, firstIFDOffset: UInt64(try reader.read(UInt32.self)))
        case 43:
            guard try reader.read(UInt16.self) == 8, try reader.read(UInt16.self) == 0 else {
                throw WireError(.invalidValue, at: bytes.startIndex + 4, "BigTIFF offset size is not 8")
            }
            self.init(byteOrder: order, isBigTIFF: true, firstIFDOffset: try reader.read(UInt64.self))
        default:
            throw WireError(.invalidValue, at: bytes.startIndex + 2, "TIFF magic \(magic) is neither 42 nor 43")
        }
    }

    private init(byteOrder: ByteOrder, isBigTIFF: Bool, firstIFDOffset: UInt64) {
        self.byteOrder = byteOrder
        self.isBigTIFF = isBigTIFF
        self.firstIFDOffset = firstIFDOffset
    }

    /// Whether `bytes` start like a TIFF file (the byte-order mark and 42 or 43); cheap, for format detection.
    public static func looksLikeTIFF(_ bytes: ArraySlice<UInt8>) -> Bool {
        (try? TIFFHeader(bytes)) != nil
    }

    /// The entries of the IFD at `offset` and the offset of the next IFD in its chain (0 at the end).
    ///
    /// - Throws: ``WireFormat/WireError`` when the IFD lies outside `bytes` or has more than
    ///   ``WireFormat/WireLimits/maxIFDEntries`` entries.
    public func directory(at offset: UInt64, in bytes: ArraySlice<UInt8>) throws(WireError) -> (
        entries: [Entry], nextOffset: UInt64
    ) {
        guard let start = Int(exactly: offset), start >= 0, start < bytes.count else {
            throw WireError(.truncated, at: nil, "IFD offset \(offset) is outside the \(bytes.count)-byte file")
        }
        var reader = WireReader(bytes.dropFirst(start), byteOrder: byteOrder)
        let countOffset = reader.offset
        let count = isBigTIFF ? try reader.read(UInt64.self) : UInt64(try reader.read(UInt16.self))
        guard count <= UInt64(WireLimits.maxIFDEntries) else {
            throw WireError(.limitExceeded, at: countOffset, "IFD with \(count) entries")
        }
        var entries = [Entry]()
        entries.reserveCapacity(Int(count))
        for _ in 0..<count {
            let tag = TIFFTag(rawValue: try reader.read(UInt16.self))
            let type = try reader.read(UInt16.self)
            let valueCount = isBigTIFF ? try reader.read(UInt64.self) : UInt64(try reader.read(UInt32.self))
            let field = Array(try reader.readBytes(count: isBigTIFF ? 8 : 4))
            entries.append(Entry(tag: tag, type: type, count: valueCount, valueField: field))
        }
        let next = isBigTIFF ? try reader.read(UInt64.self) : UInt64(try reader.read(UInt32.self))
        return (entries, next)
    }

    /// The first value of a BYTE, SHORT, LONG or LONG8 entry whose values sit in the entry itself; `nil` for other
    /// types and for values stored elsewhere in the file.
    public func inlineInteger(_ entry: Entry) -> UInt64? {
        let elementSize: UInt64
        switch entry.type {
        case 1: elementSize = 1
        case 3: elementSize = 2
        case 4, 13: elementSize = 4
        case 16, 18: elementSize = 8
        default: return nil
        }
        let (size, overflow) = entry.count.multipliedReportingOverflow(by: elementSize)
        guard entry.count >= 1, !overflow, size <= UInt64(entry.valueField.count) else { return nil }
        var reader = WireReader(entry.valueField, byteOrder: byteOrder)
        switch elementSize {
        case 1: return (try? reader.read(UInt8.self)).map(UInt64.init)
        case 2: return (try? reader.read(UInt16.self)).map(UInt64.init)
        case 4: return (try? reader.read(UInt32.self)).map(UInt64.init)
        default: return try? reader.read(UInt64.self)
        }
    }

    /// The exact values of a RATIONAL or SRATIONAL entry (numerator ÷ denominator in `Double`), read from the file
    /// rather than through libtiff, which passes rationals as `float`; `nil` for other types, more than
    /// ``maxExactRationals`` values, a zero denominator, or values outside `bytes`.
    public func rationals(_ entry: Entry, in bytes: ArraySlice<UInt8>) -> [Double]? {
        guard entry.type == 5 || entry.type == 10, entry.count >= 1, entry.count <= UInt64(Self.maxExactRationals)
        else { return nil }
        let size = Int(entry.count) * 8
        var data: ArraySlice<UInt8>
        if size <= entry.valueField.count {
            data = entry.valueField[...]
        } else {
            var field = WireReader(entry.valueField, byteOrder: byteOrder)
            let location = isBigTIFF ? try? field.read(UInt64.self) : (try? field.read(UInt32.self)).map(UInt64.init)
            guard let location, let start = Int(exactly: location), start >= 0, start <= bytes.count - size else {
                return nil
            }
            data = bytes[(bytes.startIndex + start)..<(bytes.startIndex + start + size)]
        }
        var reader = WireReader(data, byteOrder: byteOrder)
        var values: [Double] = []
        values.reserveCapacity(Int(entry.count))
        for _ in 0..<entry.count {
            guard let numerator = try? reader.read(UInt32.self), let denominator = try? reader.read(UInt32.self),
                denominator != 0
            else { return nil }
            values.append(
                entry.type == 5
                    ? Double(numerator) / Double(denominator)
                    : Double(Int32(bitPattern: numerator)) / Double(Int32(bitPattern: denominator)))
        }
        return values
    }

    /// Most values ``rationals(_:in:)`` reads exactly; longer rational arrays (none in DNG's colour tags, which
    /// have at most 12) keep libtiff's `float` values.
    public static let maxExactRationals = 4096
}
