/// An open table of 16-bit PTP codes: operation, response, event, property, format and data-type codes.
///
/// A code table is a `RawRepresentable` struct, never a closed enum: a camera may send any value, and unknown values
/// must pass through the session unharmed and print as `Unknown(0x9ABC)`. Standard names come from ISO 15740; vendor
/// names depend on the vendor, because vendors reuse the same numbers (0x90C7 is Nikon's GetEvent, 0xB101 is both
/// Canon CRW and Sony ARW), so ``description(vendor:)`` takes the vendor as context.
public protocol PTPCodeTable: RawRepresentable, Hashable, Sendable, CustomStringConvertible,
    ExpressibleByIntegerLiteral
where RawValue == UInt16 {
    /// Wraps any raw value.
    init(rawValue: UInt16)
    /// Names of the values the standard defines.
    static var standardNames: [UInt16: String] { get }
    /// Names a vendor gives to values in its extension range; empty for vendors without a table.
    static func vendorNames(_ vendor: VendorExtensionID) -> [UInt16: String]
}

extension PTPCodeTable {
    /// Wraps any raw value.
    public init(_ rawValue: UInt16) { self.init(rawValue: rawValue) }

    /// Wraps an integer literal, so tests and tables can write `OperationCode(0x1001)` or `0x1001`.
    public init(integerLiteral value: UInt16) { self.init(rawValue: value) }

    /// Tables without vendor names use this default.
    public static func vendorNames(_ vendor: VendorExtensionID) -> [UInt16: String] { [:] }

    /// The standard name, or `Unknown(0x9ABC)`.
    public var description: String { Self.standardNames[rawValue] ?? unknownDescription }

    /// The name in the context of `vendor`: the vendor's own name for a code in its table (printed as
    /// `Nikon.GetEvent`), else the standard name, else `Unknown(0x9ABC)`.
    public func description(vendor: VendorExtensionID?) -> String {
        if let vendor, let name = Self.vendorNames(vendor)[rawValue] {
            return "\(vendor.shortName).\(name)"
        }
        return description
    }

    /// The standard name, or `nil` for a vendor or unknown code.
    public var standardName: String? { Self.standardNames[rawValue] }

    /// Whether the standard defines this code.
    public var isStandard: Bool { Self.standardNames[rawValue] != nil }

    private var unknownDescription: String {
        let hex = String(rawValue, radix: 16, uppercase: true)
        return "Unknown(0x\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex))"
    }
}

/// Formats a 16- or 32-bit value as `0x` and at least four upper-case hex digits, as logs and errors print codes.
func hex<T: BinaryInteger>(_ value: T) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
