/// A TIFF, DNG or EXIF tag: its numeric id, the TIFF type rawcap writes it with, and how many values it takes.
///
/// Each tag carries its type so that a plan cannot put a SHORT where the spec wants a LONG (`DNGTag.whiteLevel` is
/// id 50717, `.long`). Where the spec allows several types, rawcap picks the one libtiff 4.5 declares for the tag, so
/// that the libtiff adapter can pass values without conversion (DNG 1.7 §"Tag Reference"; libtiff tif_dirinfo.c).
/// The table of known tags is in `DNGTag+Catalog.swift`; any other id prints as `Unknown(0x…)`.
public struct DNGTag: Hashable, Sendable, CustomStringConvertible, Comparable {
    /// The tag number written in the IFD entry.
    public let id: UInt16
    /// The entry's TIFF type.
    public let type: TIFFType
    /// The number of values the spec requires, or `nil` when the count varies (arrays, strings).
    public let count: Int?
    private let knownName: String?

    /// Creates a tag; prefer the named static members. A tag made this way takes its name from the catalog.
    public init(id: UInt16, type: TIFFType, count: Int? = nil) {
        self.init(id: id, type: type, count: count, name: nil)
    }

    init(id: UInt16, type: TIFFType, count: Int?, name: String?) {
        self.id = id
        self.type = type
        self.count = count
        self.knownName = name
    }

    /// The tag's name from the spec, e.g. `WhiteLevel`, or `Unknown(0xC61D)`.
    public var name: String {
        if let knownName { return knownName }
        if let name = DNGTag.catalogNames[id] { return name }
        let hex = String(id, radix: 16, uppercase: true)
        return "Unknown(0x\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex))"
    }

    /// The tag's name.
    public var description: String { name }

    /// Tags are equal when id, type and count are; the name does not take part.
    public static func == (lhs: DNGTag, rhs: DNGTag) -> Bool {
        lhs.id == rhs.id && lhs.type == rhs.type && lhs.count == rhs.count
    }

    /// Hashes the id and type.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(type)
    }

    /// Orders tags by id, the order TIFF requires inside an IFD (TIFF 6.0 §2: "sorted in ascending order").
    public static func < (lhs: DNGTag, rhs: DNGTag) -> Bool { lhs.id < rhs.id }
}
