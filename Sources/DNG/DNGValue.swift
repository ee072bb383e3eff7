import TIFFVocabulary

/// The values of one IFD entry, typed as they will be written.
///
/// RATIONAL and SRATIONAL values are kept as `Double`: libtiff takes every DNG rational through `float` or `double`
/// and chooses the numerator/denominator pair itself (dng-facts.md fact 5), so an exact fraction in the plan would
/// promise something the file cannot keep.
public enum DNGValue: Hashable, Sendable, CustomStringConvertible {
    /// BYTE values.
    case bytes([UInt8])
    /// UNDEFINED bytes.
    case undefined([UInt8])
    /// An ASCII string, written with its terminating NUL.
    case ascii(String)
    /// SHORT values.
    case shorts([UInt16])
    /// LONG values.
    case longs([UInt32])
    /// RATIONAL values, each 0 … 2³²−1.
    case rationals([Double])
    /// SRATIONAL values, each −2³¹ … 2³¹−1.
    case srationals([Double])
    /// FLOAT values.
    case floats([Float])

    /// The TIFF type these values are written as.
    public var type: TIFFType {
        switch self {
        case .bytes: .byte
        case .undefined: .undefined
        case .ascii: .ascii
        case .shorts: .short
        case .longs: .long
        case .rationals: .rational
        case .srationals: .srational
        case .floats: .float
        }
    }

    /// The IFD entry's count: values, or bytes including the NUL for ASCII.
    public var count: Int {
        switch self {
        case .bytes(let values), .undefined(let values): values.count
        case .ascii(let text): text.utf8.count + 1
        case .shorts(let values): values.count
        case .longs(let values): values.count
        case .rationals(let values), .srationals(let values): values.count
        case .floats(let values): values.count
        }
    }

    /// One short value.
    public static func short(_ value: UInt16) -> DNGValue { .shorts([value]) }
    /// One long value.
    public static func long(_ value: UInt32) -> DNGValue { .longs([value]) }
    /// One rational value.
    public static func rational(_ value: Double) -> DNGValue { .rationals([value]) }
    /// One signed rational value.
    public static func srational(_ value: Double) -> DNGValue { .srationals([value]) }

    /// Checks what the TIFF type can hold: ASCII without NUL or non-ASCII characters, rationals in range and finite.
    func validate(for tag: TIFFTag) throws(DNGError) {
        switch self {
        case .ascii(let text):
            guard text.utf8.allSatisfy({ $0 != 0 && $0 < 0x80 }) else {
                throw DNGError(.invalidPlan, "\(tag): ASCII value \(text.debugDescription) has NUL or non-ASCII bytes")
            }
        case .rationals(let values):
            guard values.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= Double(UInt32.max) }) else {
                throw DNGError(.doesNotFit, "\(tag): \(values) does not fit RATIONAL (0 … 2³²−1)")
            }
        case .srationals(let values):
            guard values.allSatisfy({ $0.isFinite && $0 >= Double(Int32.min) && $0 <= Double(Int32.max) }) else {
                throw DNGError(.doesNotFit, "\(tag): \(values) does not fit SRATIONAL (−2³¹ … 2³¹−1)")
            }
        case .floats(let values):
            guard values.allSatisfy(\.isFinite) else {
                throw DNGError(.doesNotFit, "\(tag): \(values) has a non-finite FLOAT")
            }
        case .bytes, .undefined, .shorts, .longs:
            break
        }
    }

    /// Up to 16 values in full, longer arrays as the first 8 and a count: for plan dumps and golden files.
    public var description: String {
        func list<T>(_ values: [T], _ format: (T) -> String) -> String {
            if values.count <= 16 { return values.map(format).joined(separator: " ") }
            return values.prefix(8).map(format).joined(separator: " ") + " … (\(values.count) values)"
        }
        switch self {
        case .bytes(let values), .undefined(let values): return list(values) { String($0) }
        case .ascii(let text): return text.debugDescription
        case .shorts(let values): return list(values) { String($0) }
        case .longs(let values): return list(values) { String($0) }
        case .rationals(let values), .srationals(let values): return list(values) { DNGValue.decimal($0) }
        case .floats(let values): return list(values) { DNGValue.decimal(Double($0)) }
        }
    }

    /// A stable decimal form with up to 6 fractional digits and no trailing zeros (`0.5`, `-1.333333`, `16383`).
    static func decimal(_ value: Double) -> String {
        let scaled = (value * 1_000_000).rounded()
        let negative = scaled < 0
        let magnitude = UInt64(min(abs(scaled), 9.0e18))
        let whole = magnitude / 1_000_000
        var fraction = String(magnitude % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let sign = negative && magnitude != 0 ? "-" : ""
        return fraction.isEmpty ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }
}
