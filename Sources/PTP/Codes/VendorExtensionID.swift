/// The vendor extension a device implements, from DeviceInfo's VendorExtensionID (ISO 15740 §5.5.1).
///
/// The value gives vendor codes their meaning. Many cameras report Microsoft's 0x00000006 (MTP) and are recognised by
/// their Manufacturer string instead (every Canon and Fujifilm dump in `Fixtures/ptp-real`); the Nikon Z 8 reports
/// 0xFFFFFFFF over PTP/IP. ``DeviceInfo/cameraVendor`` applies those rules. Numbers: libgphoto2 `ptp.h`
/// `PTP_VENDOR_*`.
public struct VendorExtensionID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 32-bit value as DeviceInfo carries it.
    public let rawValue: UInt32

    /// Wraps any value.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Eastman Kodak, 0x00000001.
    public static let kodak = VendorExtensionID(rawValue: 0x01)
    /// Seiko Epson, 0x00000002.
    public static let seikoEpson = VendorExtensionID(rawValue: 0x02)
    /// Agilent, 0x00000003.
    public static let agilent = VendorExtensionID(rawValue: 0x03)
    /// Polaroid, 0x00000004.
    public static let polaroid = VendorExtensionID(rawValue: 0x04)
    /// Agfa-Gevaert, 0x00000005.
    public static let agfaGevaert = VendorExtensionID(rawValue: 0x05)
    /// Microsoft (MTP), 0x00000006; reported by many cameras of other makes.
    public static let microsoft = VendorExtensionID(rawValue: 0x06)
    /// Equinox, 0x00000007.
    public static let equinox = VendorExtensionID(rawValue: 0x07)
    /// ViewQuest, 0x00000008.
    public static let viewQuest = VendorExtensionID(rawValue: 0x08)
    /// STMicroelectronics, 0x00000009.
    public static let stMicroelectronics = VendorExtensionID(rawValue: 0x09)
    /// Nikon, 0x0000000A.
    public static let nikon = VendorExtensionID(rawValue: 0x0A)
    /// Canon, 0x0000000B.
    public static let canon = VendorExtensionID(rawValue: 0x0B)
    /// FotoNation, 0x0000000C.
    public static let fotoNation = VendorExtensionID(rawValue: 0x0C)
    /// Pentax, 0x0000000D.
    public static let pentax = VendorExtensionID(rawValue: 0x0D)
    /// Fujifilm, 0x0000000E.
    public static let fujifilm = VendorExtensionID(rawValue: 0x0E)
    /// Sony, 0x00000011 (seen in traces, not in the standard's list).
    public static let sony = VendorExtensionID(rawValue: 0x11)
    /// NDD Medical Technologies, 0x00000012.
    public static let nddMedicalTechnologies = VendorExtensionID(rawValue: 0x12)
    /// Samsung, 0x0000001A.
    public static let samsung = VendorExtensionID(rawValue: 0x1A)
    /// Parrot, 0x0000001B.
    public static let parrot = VendorExtensionID(rawValue: 0x1B)
    /// Panasonic, 0x0000001C.
    public static let panasonic = VendorExtensionID(rawValue: 0x1C)
    /// MTP devices that report 0xFFFFFFFF; also the Nikon Z 8 over PTP/IP.
    public static let mtp = VendorExtensionID(rawValue: 0xFFFF_FFFF)

    private static let names: [UInt32: String] = [
        0x01: "Kodak", 0x02: "SeikoEpson", 0x03: "Agilent", 0x04: "Polaroid", 0x05: "AgfaGevaert",
        0x06: "Microsoft", 0x07: "Equinox", 0x08: "ViewQuest", 0x09: "STMicroelectronics", 0x0A: "Nikon",
        0x0B: "Canon", 0x0C: "FotoNation", 0x0D: "Pentax", 0x0E: "Fujifilm", 0x11: "Sony",
        0x12: "NDDMedicalTechnologies", 0x1A: "Samsung", 0x1B: "Parrot", 0x1C: "Panasonic", 0xFFFF_FFFF: "MTP",
    ]

    /// The vendor's name (`Nikon`), used as the prefix of vendor code names; `Vendor(0x…)` when unknown.
    public var shortName: String { Self.names[rawValue] ?? "Vendor(\(hex(rawValue)))" }

    /// The vendor's name, or `Unknown(0x…)`.
    public var description: String { Self.names[rawValue] ?? "Unknown(\(hex(rawValue)))" }
}
