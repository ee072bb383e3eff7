import PTP

/// What is known of a real Canon EOS 5D Mark IV's DeviceInfo, from three public sources:
///
/// - the first 240 of the 605 bytes of its GetDeviceInfo data phase, in a libgphoto2 debug log a user posted to
///   libgphoto2 issue 92 (https://github.com/gphoto/libgphoto2/issues/92; camera output only): ``header`` is its
///   dataset's start, StandardVersion to the operation count, and ``firstOperations`` the 106 operation codes those
///   bytes hold (of 170);
/// - libgphoto2's summary of one (`camlibs/ptp2/cameras/canon-eos5dmark4.txt` at libgphoto2 commit d1f3bf3a, SHA-256
///   218c2c541584e7905dc142c3215f9a4e031672901a7b7ca3eba2137dbe10ce21): firmware "3-1.0.1", the formats, and the
///   properties (0xD402, 0xD407, 0xD406, 0xD303, BatteryLevel), and its Manufacturer, "Canon.Inc";
/// - the report PTP Webcam printed for one with firmware 3-1.2.1 (https://github.com/dognotdog/ptpwebcam/issues/50;
///   camera output only), which lists its operations in numeric order: the part of it read (up to 0x9115) gives
///   ``laterOperations``.
///
/// The `canon` personality (``CameraModel/canon``) answers the header (VendorExtensionID 6, Microsoft: libgphoto2
/// `fixup_cached_deviceinfo` turns it into Canon's 0x0B for a body on Canon's USB vendor ID or named "Canon", which is
/// why its summary shows 0xB), the Manufacturer, the firmware, the formats and the five properties as the real body
/// does (the five first, followed by the standard exposure properties rawcap's Canon path still sets: a difference
/// kept until that path uses the EOS properties 0xD101–0xD104), and lists ``firstOperations`` in the body's order
/// followed by ``laterOperations``: 121 of the real 170. The
/// other 49 (all above 0x9115, since the numeric report holds every code up to there) are in no source read, and the
/// place of the 15 later ones in the body's array is not known.
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

    /// Operations the 5D Mark IV of the PTP Webcam report lists that are not among ``firstOperations``: its list up to
    /// 0x9115, less those 106. In numeric order, as the report prints them (their order in the body's array is not
    /// in any source read). The firmware differs (3-1.2.1, issue 92's body 3-1.1.2).
    static let laterOperations = RealBodyFacts.codes(
        """
        0x100b 0x9050 0x9051 0x9052 0x9053 0x9057 0x9058 0x9059 0x905a 0x905b 0x905c 0x905d 0x905f 0x9105 0x910f
        """)

    /// Manufacturer in the summary (and in issue 92's debug log, and the PTP Webcam report's title).
    static let manufacturer = "Canon.Inc"

    /// DevicePropertiesSupported, in the summary's order. A 5D Mark IV lists these five and reports its settings
    /// (ImageFormat, Tv, Av, ISO, capture destination, …) only in EOS GetEvent records.
    static let properties = RealBodyFacts.codes("0xd402 0xd407 0xd406 0xd303 0x5001")

    /// Each property as the summary describes it ("Property 0xd402:(read only) (type=0xffff) 'Canon EOS 5D Mark IV'",
    /// …; type 0x6 is UINT32, 0x2 UINT8, 0xFFFF a string). BatteryLevel ("Enumeration [100,0,75,0,50] value: 78%") is
    /// the emulator's modelled battery, which keeps its own description in this place.
    static let text = """
        0xd402 str r none = 'Canon EOS 5D Mark IV'
        0xd407 u32 r none = 1
        0xd406 str rw none = 'Unknown Initiator'
        0xd303 u8 r none = 1
        0x5001 u8 r enum 100 0 75 0 50 = 78
        """
    static let descriptions = RealBodyFacts.descriptions(text)

    /// DeviceVersion in the summary.
    static let deviceVersion = "3-1.0.1"

    /// CaptureFormats ("JPEG") and ImageFormats ("Association/Directory, Script, DPOF, MS AVI, MS Wave, JPEG, CRW,
    /// Unknown(b103), Unknown(bf02), Defined Type, Unknown(b104), Unknown(b105)") in the summary.
    static let captureFormats: [UInt16] = [0x3801]
    static let imageFormats: [UInt16] = [
        0x3001, 0x3002, 0x3006, 0x300A, 0x3008, 0x3801, 0xB101, 0xB103, 0xBF02, 0x3800, 0xB104, 0xB105,
    ]
}
