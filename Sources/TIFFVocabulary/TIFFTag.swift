/// A TIFF, TIFF/EP, EXIF or DNG tag: its number, the TIFF type rawcap writes it with, and how many values it takes.
///
/// The one vocabulary of tags for the DNG writer and the raw reader. Each tag carries its type so that a plan cannot
/// put a SHORT where the spec wants a LONG (`TIFFTag.whiteLevel` is 50717, `.long`). Where the spec allows several
/// types, rawcap picks the one libtiff 4.5 declares for the tag, so that the writer's libtiff adapter can pass values
/// without conversion (DNG 1.7 §"Tag Reference"; libtiff tif_dirinfo.c). The table of known tags is in
/// `TIFFTag+Catalog.swift`; any other number prints as `Unknown(0x…)`.
///
/// Open like every code table here (STYLE.md §4): ``init(rawValue:)`` takes any number read from a file.
public struct TIFFTag: RawRepresentable, Hashable, Sendable, CustomStringConvertible, Comparable {
    /// The tag number written in the IFD entry.
    public let rawValue: UInt16
    /// The entry's TIFF type.
    public let type: TIFFType
    /// The number of values the spec requires, or `nil` when the count varies (arrays, strings).
    public let count: Int?
    /// Whether libtiff 4.5's own field table lacks the tag, so that ``TIFFFieldRegistry`` teaches it to libtiff.
    public let isRegisteredWithLibTIFF: Bool
    private let knownName: String?

    /// The tag with this number: the catalog's type, count and name, or for a number the catalog does not hold,
    /// UNDEFINED with a variable count.
    public init(rawValue: UInt16) {
        self = TIFFTag.catalogByNumber[rawValue]
            ?? TIFFTag(rawValue: rawValue, type: .undefined, count: nil, name: nil, registered: false)
    }

    /// Creates a tag with a type of the caller's choosing; prefer the named static members. Its name comes from the
    /// catalog.
    public init(rawValue: UInt16, type: TIFFType, count: Int? = nil) {
        self.init(rawValue: rawValue, type: type, count: count, name: nil, registered: false)
    }

    init(rawValue: UInt16, type: TIFFType, count: Int?, name: String?, registered: Bool) {
        self.rawValue = rawValue
        self.type = type
        self.count = count
        self.knownName = name
        self.isRegisteredWithLibTIFF = registered
    }

    /// The tag's name from the spec, e.g. `WhiteLevel`, or `Unknown(0xC61D)`.
    public var name: String {
        if let knownName { return knownName }
        if let name = TIFFTag.catalogByNumber[rawValue]?.knownName { return name }
        let hex = String(rawValue, radix: 16, uppercase: true)
        return "Unknown(0x\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex))"
    }

    /// The tag's name.
    public var description: String { name }

    /// Tags are equal when number, type and count are; the name does not take part.
    public static func == (lhs: TIFFTag, rhs: TIFFTag) -> Bool {
        lhs.rawValue == rhs.rawValue && lhs.type == rhs.type && lhs.count == rhs.count
    }

    /// Hashes the number and type.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawValue)
        hasher.combine(type)
    }

    /// Orders tags by number, the order TIFF requires inside an IFD (TIFF 6.0 §2: "sorted in ascending order").
    public static func < (lhs: TIFFTag, rhs: TIFFTag) -> Bool { lhs.rawValue < rhs.rawValue }
}
