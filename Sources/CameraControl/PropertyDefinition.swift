import PTP

/// One camera setting by its readable name: the PTP property code that carries it, the vendors whose cameras use
/// that code for it, and how its values are written (``PropertyValueStyle``).
///
/// ```swift
/// let iso = PropertyDefinition(name: "iso", code: .exposureIndex, style: .iso, summary: "ISO speed")
/// ```
public struct PropertyDefinition: Hashable, Sendable {
    /// The name `rawcap config` prints and accepts: lower case, no spaces (`iso`, `shutter`, `bitdepth`).
    public var name: String
    /// Other accepted names (`exposure-time` for `shutter`).
    public var aliases: [String]
    /// The property code.
    public var code: DevicePropertyCode
    /// How values are written.
    public var style: PropertyValueStyle
    /// One line for `config list`.
    public var summary: String
    /// The cameras whose vendor uses ``code`` for this setting: `nil` for a standard (0x5xxx) code every camera
    /// shares; otherwise the ``PTP/DeviceInfo/cameraVendor`` values it applies to (vendor codes collide between
    /// makers, so a vendor-range entry always names its vendors).
    public var vendors: Set<VendorExtensionID>?

    /// Creates a definition.
    public init(
        name: String, aliases: [String] = [], code: DevicePropertyCode, style: PropertyValueStyle, summary: String,
        vendors: Set<VendorExtensionID>? = nil
    ) {
        self.name = name
        self.aliases = aliases
        self.code = code
        self.style = style
        self.summary = summary
        self.vendors = vendors
    }

    /// A definition for a code without a name in the catalog: addressed as `0xD123`, values as plain numbers.
    public static func unnamed(_ code: DevicePropertyCode, vendor: VendorExtensionID?) -> PropertyDefinition {
        PropertyDefinition(
            name: PropertyValueStyle.hex(Int(code.rawValue)), code: code, style: .number(unit: nil),
            summary: code.description(vendor: vendor))
    }

    /// Whether the definition applies to a camera of `vendor`.
    public func applies(to vendor: VendorExtensionID) -> Bool { vendors.map { $0.contains(vendor) } ?? true }

    /// Whether `name` (lower case) names this definition.
    public func matches(_ name: String) -> Bool { self.name == name || aliases.contains(name) }
}
