import PTP

/// A real Sony ILCE-7M3 outside PC Remote, as libgphoto2's summary of one records its DeviceInfo
/// (`camlibs/ptp2/cameras/sony-ilce-7m3.txt` at libgphoto2 commit 17a362e3, SHA-256
/// 69712cd6755172ee7cd8923cfef981511d8f9bb0b26e23c787870137c85f46df; converted by
/// `Fixtures/ptp-real/tools/summary-to-facts.py deviceinfo`). libgphoto2 changes nothing of a Sony's DeviceInfo
/// (`fixup_cached_deviceinfo` has no Sony rule for these fields), so the lists are as the body sent them.
///
/// The `sony-no-pc-remote` personality (``CameraModel/sonyOutsidePCRemote``) answers them. No real bytes are at hand
/// for its formats (the summary does not print them), its property descriptions (0xD402, 0xD406, 0xD407 and 0xD303
/// are listed and refused by the emulator; it describes BatteryLevel its own way), nor for the answers to its
/// operations 0x9280–0x9285 and the MTP object property operations 0x9801–0x9805: libgphoto2 `camera_init` sends
/// 0x9280 and reads 0x9281 on such a body, which the emulator accepts (OK, and an empty data phase); the others answer
/// OperationNotSupported. Of the `sony` personality in PC Remote no real bytes of an ILCE-7M3 are at hand.
enum SonyILCE7M3Facts {
    /// DeviceInfo Manufacturer, Model and DeviceVersion.
    static let manufacturer = "Sony Corporation"
    static let model = "ILCE-7M3"
    static let deviceVersion = "4.0"
    /// VendorExtensionID 0x11 (Sony) with version 100 and no description (the summary prints "(null)"), in this
    /// mode as in PC Remote.
    static let vendorExtensionID: UInt32 = 0x11

    /// OperationsSupported, in the body's order.
    static let operations = RealBodyFacts.codes(
        """
        0x1002 0x1003 0x1001 0x1004 0x1005 0x1006 0x1007 0x1008 0x1009 0x100a 0x1014 0x1015 0x1016 0x101b 0x9801
        0x9802 0x9803 0x9805 0x9280 0x9281 0x9282 0x9283 0x9284 0x9285
        """)

    /// EventsSupported.
    static let events = RealBodyFacts.codes("0x4004 0x4005 0x4006")

    /// DevicePropertiesSupported, in the body's order.
    static let properties = RealBodyFacts.codes("0x5001 0xd402 0xd406 0xd407 0xd303")
}
