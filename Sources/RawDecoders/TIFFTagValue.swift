/// The value of one tag as libtiff handed it over, converted to Swift values.
///
/// libtiff 4.5 passes every RATIONAL and SRATIONAL through `float` (notes/dng-facts.md fact 5); the reader then
/// replaces each rational value with the exact quotient read from the file (``TIFFHeader/rationals(_:in:)``), so
/// colour matrices and levels survive a read-write round trip unchanged.
public enum TIFFTagValue: Hashable, Sendable {
    /// BYTE, SHORT, LONG, LONG8 and their signed forms, and IFD offsets.
    case integers([Int64])
    /// RATIONAL, SRATIONAL, FLOAT, DOUBLE.
    case reals([Double])
    /// ASCII, up to the first NUL.
    case text(String)
    /// UNDEFINED: opaque bytes (CFAPattern in the EXIF IFD, opcode lists, digests).
    case bytes([UInt8])
    /// A value with more elements than ``TIFFDirectory/maxCopiedElements``: only its size is kept.
    case omitted(count: Int)

    /// The number of elements.
    public var count: Int {
        switch self {
        case .integers(let values): values.count
        case .reals(let values): values.count
        case .text(let text): text.utf8.count
        case .bytes(let bytes): bytes.count
        case .omitted(let count): count
        }
    }

    /// Every element as a `Double`: integers and reals; `nil` for text, bytes and omitted values.
    public var doubles: [Double]? {
        switch self {
        case .integers(let values): values.map(Double.init)
        case .reals(let values): values
        default: nil
        }
    }

    /// Every element as an integer: integers, bytes, and reals that are whole numbers; `nil` otherwise.
    public var integers: [Int64]? {
        switch self {
        case .integers(let values): return values
        case .bytes(let bytes): return bytes.map(Int64.init)
        case .reals(let values):
            var result = [Int64]()
            result.reserveCapacity(values.count)
            for value in values {
                guard let whole = Int64(exactly: value) else { return nil }
                result.append(whole)
            }
            return result
        default: return nil
        }
    }

    /// The text of an ASCII value, trimmed of trailing spaces; `nil` for other kinds and empty text.
    public var string: String? {
        guard case .text(let text) = self else { return nil }
        let trimmed = String(text.reversed().drop(while: { $0 == " " }).reversed())
        return trimmed.isEmpty ? nil : trimmed
    }
}
