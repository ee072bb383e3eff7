import PTP

/// What is known of a real Canon EOS 5D Mark IV's DeviceInfo, from two public sources:
///
/// - the first 240 of the 605 bytes of its GetDeviceInfo data phase, in a libgphoto2 debug log a user posted to
///   libgphoto2 issue 92 (https://github.com/gphoto/libgphoto2/issues/92; camera output only): ``header`` is its
///   dataset's start, StandardVersion to the operation count, and ``firstOperations`` the 106 operation codes those
///   bytes hold (of 170);
/// - libgphoto2's summary of one (`camlibs/ptp2/cameras/canon-eos5dmark4.txt` at libgphoto2 commit d1f3bf3a, SHA-256
///   218c2c541584e7905dc142c3215f9a4e031672901a7b7ca3eba2137dbe10ce21): firmware "3-1.0.1", the formats, and the
///   properties (0xD402, 0xD407, 0xD406, 0xD303, BatteryLevel).
///
/// The `canon` personality (``CameraModel/canon``) answers the header (VendorExtensionID 6, Microsoft: libgphoto2
/// `fixup_cached_deviceinfo` turns it into Canon's 0x0B for a body on Canon's USB vendor ID or named "Canon", which is
/// why its summary shows 0xB), the firmware and the formats as the real body does. Not yet as the real body: its
/// operations (the emulator lists the EOS operations it models; the real body's 170 include GetDeviceInfoEx 0x9108,
/// which libgphoto2 calls when listed and the emulator does not answer), its properties (the real body lists five
/// and keeps its settings in EOS GetEvent records; the emulator lists the standard exposure properties rawcap's Canon
/// path sets), and its Manufacturer (the summary prints "Canon.Inc"; the emulator's "Canon Inc." is also its CR2s'
/// TIFF Make).
enum CanonEOS5DMarkIVFacts {
    /// The DeviceInfo dataset's first 15 bytes, as the body sent them (issue 92, offsets 0x0C–0x1A of the container):
    /// StandardVersion 100, VendorExtensionID 6, VendorExtensionVersion 100, an empty VendorExtensionDesc,
    /// FunctionalMode 0, and the operation array's count, 170.
    static let header: [UInt8] = [
        0x64, 0x00, 0x06, 0x00, 0x00, 0x00, 0x64, 0x00, 0x00, 0x00, 0x00, 0xAA, 0x00, 0x00, 0x00,
    ]

    /// The first 106 of the 170 operations, in the body's order (issue 92, offsets 0x1B–0xEE of the container).
    static let firstOperations = RealBodyFacts.codes(
        """
        0x1002 0x1003 0x1001 0x1004 0x9101 0x1005 0x9102 0x1006 0x1007 0x1008 0x9103 0x9170 0x1009 0x9104 0x9171
        0x100a 0x100f 0x9106 0x1014 0x1016 0x101b 0x100c 0x100d 0x9107 0x9172 0x912c 0x9174 0x9114 0x9115 0x9116
        0x9117 0x9109 0x9173 0x910a 0x9132 0x9033 0x9068 0x9069 0x906a 0x906b 0x911a 0x911d 0x911e 0x911f 0x9122
        0x9123 0x9124 0x9131 0x9133 0x9134 0x9135 0x913c 0x913e 0x913f 0x9140 0x9154 0x9155 0x9157 0x9158 0x9159
        0x915a 0x915b 0x9160 0x91fe 0x91ff 0x906c 0x906d 0x906e 0x906f 0x9108 0x9110 0x912b 0x9130 0x913d 0x915c
        0x915d 0x911b 0x911c 0x9153 0x9128 0x9129 0x902f 0x910c 0x910e 0x91f0 0x9127 0x91f1 0x91e1 0x91e2 0x91e3
        0x91e4 0x91e6 0x91e7 0x91e8 0x91e9 0x91ea 0x91eb 0x91ec 0x91ed 0x91ee 0x91ef 0x91f8 0x91f9 0x9144 0x9145
        0x91d3
        """)

    /// DeviceVersion in the summary.
    static let deviceVersion = "3-1.0.1"

    /// CaptureFormats ("JPEG") and ImageFormats ("Association/Directory, Script, DPOF, MS AVI, MS Wave, JPEG, CRW,
    /// Unknown(b103), Unknown(bf02), Defined Type, Unknown(b104), Unknown(b105)") in the summary.
    static let captureFormats: [UInt16] = [0x3801]
    static let imageFormats: [UInt16] = [
        0x3001, 0x3002, 0x3006, 0x300A, 0x3008, 0x3801, 0xB101, 0xB103, 0xBF02, 0x3800, 0xB104, 0xB105,
    ]
}
