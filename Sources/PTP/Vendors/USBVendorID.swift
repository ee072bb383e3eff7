/// A USB vendor ID (idVendor of the device descriptor, USB 2.0 §9.6.1) of a camera maker.
///
/// The USB descriptor names the maker even when PTP does not: over USB it is known before GetDeviceInfo, and it is
/// right when a camera reports Microsoft's 0x00000006 as its VendorExtensionID. Numbers: libgphoto2 `library.c`
/// `models[]` (e.g. `{"Nikon:DSC D850", 0x04b0, 0x0441, …}`, `{"Canon:EOS 5D Mark IV", 0x04a9, 0x3294, …}`,
/// `{"Sony:ILCE-7SM3", 0x054c, 0x0d18, …}`, `{"Fuji:Fujifilm X-T2", 0x04cb, 0x02cd, …}`).
public struct USBVendorID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 16-bit idVendor.
    public let rawValue: UInt16
    /// Wraps any value.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Nikon Corp., 0x04B0.
    public static let nikon = USBVendorID(rawValue: 0x04B0)
    /// Canon Inc., 0x04A9.
    public static let canon = USBVendorID(rawValue: 0x04A9)
    /// Sony Corp., 0x054C.
    public static let sony = USBVendorID(rawValue: 0x054C)
    /// Fujifilm (Fuji Photo Film Co.), 0x04CB.
    public static let fujifilm = USBVendorID(rawValue: 0x04CB)

    /// The PTP vendor extension whose codes cameras of this maker speak, or `nil` for a maker rawcap does not drive.
    public var vendorExtension: VendorExtensionID? {
        switch self {
        case .nikon: .nikon
        case .canon: .canon
        case .sony: .sony
        case .fujifilm: .fujifilm
        default: nil
        }
    }

    /// `Nikon(0x04B0)`, or `Unknown(0x1234)`.
    public var description: String {
        let hexValue = "0x" + String(rawValue, radix: 16, uppercase: true).leftPadded(to: 4)
        guard let vendor = vendorExtension else { return "Unknown(\(hexValue))" }
        return "\(vendor.shortName)(\(hexValue))"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
