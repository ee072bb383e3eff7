import RawImage
import WireFormat

/// One TIFF directory entry with its value already encoded little-endian (TIFF 6.0 §2, "IFD Entry").
///
/// | field | type |
/// |---|---|
/// | Tag | SHORT |
/// | Type | SHORT (1 BYTE, 2 ASCII, 3 SHORT, 4 LONG, 5 RATIONAL, 7 UNDEFINED, 10 SRATIONAL) |
/// | Count | LONG (values, not bytes) |
/// | Value or offset | LONG: the value itself when it fits 4 bytes, else the offset of the value |
struct TIFFEntry: Sendable {
    let tag: UInt16
    let type: UInt16
    let count: UInt32
    /// The encoded value, `count` values of `type`.
    let payload: [UInt8]

    /// Whether the value lives outside the entry (more than 4 bytes).
    var isOutOfLine: Bool { payload.count > 4 }

    static func byte(_ tag: UInt16, _ values: [UInt8]) -> TIFFEntry {
        TIFFEntry(tag: tag, type: 1, count: UInt32(values.count), payload: values)
    }

    static func undefined(_ tag: UInt16, _ values: [UInt8]) -> TIFFEntry {
        TIFFEntry(tag: tag, type: 7, count: UInt32(values.count), payload: values)
    }

    /// A NUL-terminated ASCII string; characters outside 7-bit ASCII become `?` (TIFF ASCII is 7-bit).
    static func ascii(_ tag: UInt16, _ text: String) -> TIFFEntry {
        let bytes = text.unicodeScalars.map { $0.isASCII && $0.value != 0 ? UInt8($0.value) : UInt8(ascii: "?") } + [0]
        return TIFFEntry(tag: tag, type: 2, count: UInt32(bytes.count), payload: bytes)
    }

    static func short(_ tag: UInt16, _ values: [UInt16]) -> TIFFEntry {
        var writer = WireWriter(byteOrder: .little)
        for value in values { writer.write(value) }
        return TIFFEntry(tag: tag, type: 3, count: UInt32(values.count), payload: writer.bytes)
    }

    static func long(_ tag: UInt16, _ values: [UInt32]) -> TIFFEntry {
        var writer = WireWriter(byteOrder: .little)
        for value in values { writer.write(value) }
        return TIFFEntry(tag: tag, type: 4, count: UInt32(values.count), payload: writer.bytes)
    }

    /// RATIONALs (two LONGs each); negative or non-finite values are a programmer error upstream and become 0/1.
    static func rational(_ tag: UInt16, _ values: [Rational]) -> TIFFEntry {
        var writer = WireWriter(byteOrder: .little)
        for value in values {
            let positive = value.numerator >= 0 && value.denominator > 0
            writer.write(UInt32(positive ? value.numerator : 0))
            writer.write(UInt32(positive ? value.denominator : 1))
        }
        return TIFFEntry(tag: tag, type: 5, count: UInt32(values.count), payload: writer.bytes)
    }

    /// SRATIONALs (two SLONGs each).
    static func signedRational(_ tag: UInt16, _ values: [Rational]) -> TIFFEntry {
        var writer = WireWriter(byteOrder: .little)
        for value in values {
            let flip = value.denominator < 0
            writer.write(flip ? 0 &- value.numerator : value.numerator)
            writer.write(flip ? 0 &- value.denominator : value.denominator)
        }
        return TIFFEntry(tag: tag, type: 10, count: UInt32(values.count), payload: writer.bytes)
    }
}
