/// One numbering of Nikon's CompressionSetting (0x5004): which ``NikonImageQuality`` each value stores.
///
/// Nikon bodies use three numberings, as libgphoto2 `camlibs/ptp2/config.c` has them (its image quality tables and
/// the `menus[]` entries that pick one by USB product ID; numbers taken, code not):
///
/// | value | ``classic`` | ``optimalQuality`` (★) | ``d40`` |
/// |---|---|---|---|
/// | 0 | JPEG Basic | JPEG Basic | JPEG Basic |
/// | 1 | JPEG Normal | JPEG Basic* | JPEG Normal |
/// | 2 | JPEG Fine | JPEG Normal | JPEG Fine |
/// | 3 | TIFF | JPEG Normal* | NEF |
/// | 4 | NEF | JPEG Fine | NEF+Basic |
/// | 5 | NEF+Basic | JPEG Fine* | |
/// | 6 | NEF+Normal | TIFF | |
/// | 7 | NEF+Fine | NEF | |
/// | 8–13 | | NEF+Basic, NEF+Basic*, NEF+Normal, NEF+Normal*, NEF+Fine, NEF+Fine* | |
///
/// A body need not offer every value (the D7500 and D780 have no TIFF, the D90 neither): its DevicePropDesc
/// enumeration says which. ``identify(model:usbProductID:enumeration:)`` picks the numbering for a body.
public struct NikonImageQualityTable: Hashable, Sendable, CustomStringConvertible {
    /// One value and what it stores.
    public struct Entry: Hashable, Sendable {
        /// The property value.
        public var value: UInt8
        /// What it stores.
        public var quality: NikonImageQuality
    }

    /// A short name for logs: `classic`, `optimal-quality`, `d40`.
    public let name: String
    /// Every value the numbering defines, in value order.
    public let entries: [Entry]

    private init(_ name: String, _ qualities: [NikonImageQuality]) {
        self.name = name
        entries = qualities.enumerated().map { Entry(value: UInt8($0.offset), quality: $0.element) }
    }

    /// The numbering of Nikon DSLRs before the ★ choices: 0–2 JPEG Basic/Normal/Fine, 3 TIFF, 4 NEF, 5–7 NEF +
    /// Basic/Normal/Fine. libgphoto2 `nikon_d3s_compression` (D3s, 04B0:0426), `nikon_d90_compression` (D90 0421,
    /// D5000 0423; the same without TIFF), and `compressionsetting` in `capture_settings_menu`, with which it reads
    /// every Nikon its `menus[]` does not list (the D800 and D810 among them).
    public static let classic = NikonImageQualityTable(
        "classic",
        [
            .jpeg(.basic), .jpeg(.normal), .jpeg(.fine), .tiff, .nef, .nefPlus(.basic), .nefPlus(.normal),
            .nefPlus(.fine),
        ])

    /// The numbering of bodies with ★ (optimal quality) JPEG choices, from the D500 and D850 on: each JPEG
    /// compression comes plain and ★, so NEF moves to 7. libgphoto2 `nikon_d850_compression` (D500 04B0:043C,
    /// D850 0441, Z 7 0442, Z 6 0443, Z 50 0444, Z 5 0448, Z 7II 044B, Z 6II 044C, Z fc 044F, Z 9 0450, Z 8 0451,
    /// Z 30 0452) and `nikon_d7500_compression`, the same without TIFF (D7500 0440, D780 0446).
    public static let optimalQuality = NikonImageQualityTable(
        "optimal-quality",
        [
            .jpeg(.basic), .jpeg(.basic, optimal: true), .jpeg(.normal), .jpeg(.normal, optimal: true),
            .jpeg(.fine), .jpeg(.fine, optimal: true), .tiff, .nef, .nefPlus(.basic), .nefPlus(.basic, optimal: true),
            .nefPlus(.normal), .nefPlus(.normal, optimal: true), .nefPlus(.fine), .nefPlus(.fine, optimal: true),
        ])

    /// The D40's numbering: 0–2 JPEG Basic/Normal/Fine, 3 NEF, 4 NEF + Basic. libgphoto2 `nikon_d40_compression`
    /// (D40, 04B0:0414).
    public static let d40 = NikonImageQualityTable(
        "d40", [.jpeg(.basic), .jpeg(.normal), .jpeg(.fine), .nef, .nefPlus(.basic)])

    /// Every numbering rawcap knows.
    public static let all: [NikonImageQualityTable] = [.classic, .optimalQuality, .d40]

    /// What `value` stores, or `nil` when the numbering does not define it.
    public func quality(of value: UInt8) -> NikonImageQuality? { entries.first { $0.value == value }?.quality }

    /// The value that stores `quality`, or `nil` when the numbering has none.
    public func value(of quality: NikonImageQuality) -> UInt8? { entries.first { $0.quality == quality }?.value }

    /// Whether the numbering defines every one of `values`.
    public func defines(_ values: some Sequence<UInt8>) -> Bool {
        values.allSatisfy { value in entries.contains { $0.value == value } }
    }

    /// The name.
    public var description: String { name }
}
