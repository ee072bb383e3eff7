/// The type of a TIFF IFD entry's values (TIFF 6.0 §2 "IFD Entry", plus IFD from TIFF Technical Note 1).
///
/// An open code table: values outside the table print as `Unknown(n)`.
public struct TIFFType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The type code written in an IFD entry.
    public let rawValue: UInt16
    /// Wraps a type code; any value is representable.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 8-bit unsigned integer (1).
    public static let byte = TIFFType(rawValue: 1)
    /// 7-bit ASCII, NUL-terminated (2).
    public static let ascii = TIFFType(rawValue: 2)
    /// 16-bit unsigned integer (3).
    public static let short = TIFFType(rawValue: 3)
    /// 32-bit unsigned integer (4).
    public static let long = TIFFType(rawValue: 4)
    /// Two LONGs: numerator, denominator (5).
    public static let rational = TIFFType(rawValue: 5)
    /// 8-bit signed integer (6).
    public static let sbyte = TIFFType(rawValue: 6)
    /// Uninterpreted bytes (7).
    public static let undefined = TIFFType(rawValue: 7)
    /// 16-bit signed integer (8).
    public static let sshort = TIFFType(rawValue: 8)
    /// 32-bit signed integer (9).
    public static let slong = TIFFType(rawValue: 9)
    /// Two SLONGs: numerator, denominator (10).
    public static let srational = TIFFType(rawValue: 10)
    /// IEEE single precision (11).
    public static let float = TIFFType(rawValue: 11)
    /// IEEE double precision (12).
    public static let double = TIFFType(rawValue: 12)
    /// A 32-bit offset of a child IFD (13, TIFF Technical Note 1).
    public static let ifd = TIFFType(rawValue: 13)

    /// Bytes one value of this type takes in a classic TIFF file, or `nil` for an unknown type.
    public var byteCount: Int? {
        switch rawValue {
        case 1, 2, 6, 7: 1
        case 3, 8: 2
        case 4, 9, 11, 13: 4
        case 5, 10, 12: 8
        default: nil
        }
    }

    /// The spec's name (`RATIONAL`), or `Unknown(n)`.
    public var description: String {
        switch rawValue {
        case 1: "BYTE"
        case 2: "ASCII"
        case 3: "SHORT"
        case 4: "LONG"
        case 5: "RATIONAL"
        case 6: "SBYTE"
        case 7: "UNDEFINED"
        case 8: "SSHORT"
        case 9: "SLONG"
        case 10: "SRATIONAL"
        case 11: "FLOAT"
        case 12: "DOUBLE"
        case 13: "IFD"
        default: "Unknown(\(rawValue))"
        }
    }
}
