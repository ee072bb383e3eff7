/// USB vendor IDs of camera makers (USB-IF assignments, as usb.ids and libgphoto2's `camlibs/ptp2/library.c`
/// model table list them): discovery accepts a vendor-specific PTP interface only from these, and
/// names the maker when a camera's strings cannot be read.
public enum KnownCameraVendors {
    /// Vendor ID → maker.
    public static let names: [UInt16: String] = [
        0x040A: "Kodak",
        0x04A9: "Canon",
        0x04B0: "Nikon",
        0x04CB: "Fujifilm",
        0x04DA: "Panasonic",
        0x04E8: "Samsung",
        0x054C: "Sony",
        0x05CA: "Ricoh",
        0x07B4: "Olympus",
        0x07CF: "Casio",
        0x0A17: "Pentax",
        0x1A98: "Leica",
        0x25FB: "Pentax/Ricoh",
        0x2672: "GoPro",
    ]

    /// The maker of `vendorID`, or `nil`.
    public static func name(of vendorID: UInt16) -> String? { names[vendorID] }
}
