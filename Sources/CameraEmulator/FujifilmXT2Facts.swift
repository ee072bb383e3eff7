import PTP

/// A real Fujifilm X-T2 in USB tether ("PC shoot auto") mode with firmware 1.10, as libgphoto2's summary of one
/// records it (`camlibs/ptp2/cameras/fuji-xt2.txt` at libgphoto2 commit 813de344, SHA-256 of the file
/// 7738e836c2b685e527ba53d2cb7f7e90070b88c43c345d61666b62655e1e0272; its second "Device info:" block, "VERSION 1.1 firmware", and its
/// "Device Property Summary"). Converted by `Fixtures/ptp-real/tools/summary-to-facts.py` (`deviceinfo … 2` and
/// `properties`); the serial number is left out (the summary masks it).
///
/// The `fuji` personality (``CameraModel/fujifilm``) answers DeviceInfo with these lists, in this order, and describes
/// every property of ``text`` as the real body described it, except where the emulator models the property itself
/// (battery level, image size, white balance, ISO, date, Quality 0xD018, PriorityMode 0xD207, CaptureControl 0xD208,
/// AFStatus 0xD209): those keep the emulator's own descriptions. The properties the real body listed but refused to
/// describe (DevicePropNotSupported, 0x200A, in the summary) are listed and refused here too (``refused``); the
/// exposure properties the real body answers without listing them (FNumber, ExposureTime, ExposureBiasCompensation,
/// PC mode 0xD38C, which libgphoto2 `fixup_cached_deviceinfo` adds to every Fujifilm's list) are answered and not
/// listed.
enum FujifilmXT2Facts {
    /// DeviceInfo Manufacturer, Model and DeviceVersion.
    static let manufacturer = "FUJIFILM"
    static let model = "X-T2"
    static let deviceVersion = "1.10"
    /// VendorExtensionID as the summary prints it, 0x0E (Fujifilm), with version 100 and the description
    /// "fujifilm.co.jp: 1.0;" (a trailing space would not show). libgphoto2 prints the list after `fixup_cached_deviceinfo`, which turns Microsoft's 6
    /// into 0x0E for a FUJIFILM USB body with that description, so the summary does not tell which of the two the body
    /// sent; a real X-T20 sends 6 and "fujifilm.co.jp: 1.0; " with a trailing space (gphoto2 issue 196), which the
    /// summary would not show either.
    static let vendorExtensionID: UInt32 = 0x0E
    static let vendorExtensionDesc = "fujifilm.co.jp: 1.0; "

    /// OperationsSupported, in the body's order.
    static let operations = RealBodyFacts.codes(
        """
        0x1001 0x1002 0x1003 0x1004 0x1005 0x1006 0x1007 0x1008 0x1009 0x100a 0x100b 0x100e 0x100f 0x1014 0x1015
        0x1016 0x1017 0x1018 0x101b 0x101c 0x900c 0x900d 0x901d 0x9801 0x9802 0x9803 0x9805
        """)

    /// EventsSupported.
    static let events = RealBodyFacts.codes("0x4002 0x4003 0x4004 0x4005 0x400d 0xc006")

    /// DevicePropertiesSupported, in the body's order.
    static let properties = RealBodyFacts.codes(
        """
        0x5001 0x5003 0x5005 0x500a 0x500b 0x500c 0x500e 0x500f 0x5011 0x5012 0x5015 0x5018 0x5019 0x501c 0xd001
        0xd002 0xd003 0xd004 0xd005 0xd007 0xd008 0xd009 0xd00a 0xd00b 0xd00c 0xd00d 0xd00e 0xd00f 0xd010 0xd011
        0xd012 0xd013 0xd014 0xd015 0xd016 0xd017 0xd018 0xd019 0xd01a 0xd01b 0xd01c 0xd100 0xd101 0xd102 0xd103
        0xd104 0xd105 0xd106 0xd107 0xd108 0xd109 0xd10a 0xd10b 0xd10c 0xd10d 0xd10e 0xd10f 0xd110 0xd111 0xd112
        0xd113 0xd114 0xd115 0xd116 0xd117 0xd118 0xd119 0xd11a 0xd11b 0xd11c 0xd11d 0xd11e 0xd11f 0xd120 0xd121
        0xd122 0xd123 0xd124 0xd125 0xd126 0xd127 0xd128 0xd129 0xd12a 0xd12b 0xd12c 0xd12d 0xd12e 0xd12f 0xd130
        0xd131 0xd132 0xd133 0xd134 0xd135 0xd136 0xd137 0xd138 0xd139 0xd13a 0xd13b 0xd13c 0xd13d 0xd13e 0xd13f
        0xd140 0xd141 0xd142 0xd143 0xd144 0xd145 0xd146 0xd147 0xd148 0xd149 0xd14a 0xd14b 0xd14c 0xd14d 0xd14e
        0xd14f 0xd150 0xd151 0xd152 0xd153 0xd154 0xd155 0xd157 0xd158 0xd159 0xd15a 0xd15b 0xd15c 0xd15d 0xd15e
        0xd15f 0xd160 0xd161 0xd200 0xd201 0xd202 0xd203 0xd204 0xd205 0xd206 0xd207 0xd208 0xd209 0xd20a 0xd20b
        0xd20c 0xd20d 0xd20e 0xd20f 0xd210 0xd211 0xd212 0xd213 0xd214 0xd215 0xd216 0xd217 0xd218 0xd219 0xd21a
        0xd21b 0xd406 0xd407
        """)

    /// The listed properties the body would not describe: GetDevicePropDesc answered DevicePropNotSupported (0x200A).
    static let refused = RealBodyFacts.codes(
        """
        0x5001 0x500c 0x5018 0x5019 0xd002 0xd003 0xd004 0xd005 0xd009 0xd00d 0xd00e 0xd00f 0xd010 0xd011 0xd012
        0xd013 0xd014 0xd015 0xd016 0xd019 0xd01a 0xd101 0xd102 0xd103 0xd104 0xd105 0xd107 0xd108 0xd109 0xd10c
        0xd10d 0xd10e 0xd10f 0xd110 0xd111 0xd113 0xd114 0xd115 0xd116 0xd117 0xd118 0xd119 0xd11a 0xd11b 0xd11c
        0xd11d 0xd11e 0xd11f 0xd120 0xd121 0xd122 0xd123 0xd124 0xd125 0xd126 0xd127 0xd128 0xd129 0xd12a 0xd12b
        0xd12c 0xd12d 0xd12e 0xd12f 0xd130 0xd131 0xd132 0xd133 0xd134 0xd135 0xd137 0xd138 0xd139 0xd13a 0xd13b
        0xd13c 0xd13d 0xd13e 0xd13f 0xd140 0xd141 0xd142 0xd143 0xd144 0xd146 0xd147 0xd148 0xd149 0xd14a 0xd14b
        0xd14c 0xd14d 0xd14e 0xd14f 0xd150 0xd151 0xd152 0xd157 0xd158 0xd159 0xd15a 0xd15b 0xd15c 0xd15d 0xd15e
        0xd15f 0xd160 0xd161 0xd200 0xd202 0xd203 0xd204 0xd205 0xd206 0xd20a 0xd20f 0xd210 0xd213 0xd214 0xd217
        0xd218 0xd219 0xd21a 0xd21b
        """)

    /// CaptureFormats and ImageFormats, both "Defined Type, JPEG, Unknown(b103)" in the summary: 0x3800, EXIF/JPEG
    /// 0x3801 and RAF 0xB103. No Association: the body lists no folder format.
    static let captureFormats: [UInt16] = [0x3800, 0x3801, 0xB103]
    static let imageFormats: [UInt16] = [0x3800, 0x3801, 0xB103]

    /// The properties the body described, in DeviceInfo's order (0xD212, described with no data type, is left out:
    /// the emulator answers it as the change list).
    static let text = """
    0x5003 str rw enum '3008x2000' '3008x1688' '2000x2000' '4240x2832' '4240x2384' '2832x2832' '6000x4000' '6000x3376' '4000x4000' = '6000x4000'
    0x5005 u16 rw enum 2 4 6 8 32769 32770 32771 32774 32775 32776 32777 32778 = 2
    0x500a u16 rw enum 1 32769 32770 = 32769
    0x500b u16 rw enum 1 2 3 4 = 3
    0x500e u16 rw enum 1 3 4 6 = 3
    0x500f u32 rw enum 100 200 250 320 400 500 640 800 1000 1250 1600 2000 2500 3200 4000 5000 6400 8000 10000 12800 25600 51200 4294967295 4294967294 4294967293 = 4294967295
    0x5011 str rw none = '20160124T003400'
    0x5012 u16 rw enum 10000 2000 0 = 0
    0x5015 i16 rw range -40 40 10 = 0
    0x501c u16 rw enum 32769 32770 32771 = 32769
    0xd001 u16 rw enum 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 = 1
    0xd007 u16 rw enum 65535 100 200 400 = 100
    0xd008 i16 rw range -40 40 10 = 0
    0xd00a u16 rw enum 1 2 = 1
    0xd00b i16 rw range -9 9 1 = 0
    0xd00c i16 rw range -9 9 1 = 0
    0xd017 u16 rw enum 2500 2550 2650 2700 2800 2850 2950 3000 3100 3200 3300 3400 3600 3700 3800 4000 4200 4300 4500 4800 5000 5300 5600 5900 6300 6700 7100 7700 8300 9100 10000 = 10000
    0xd018 u16 rw enum 1 2 3 4 5 = 2
    0xd01b u16 rw enum 1 2 3 = 1
    0xd01c u16 rw enum 0 4096 8192 12288 16384 20480 24576 28672 32768 = 8192
    0xd100 str rw none = ''
    0xd106 u16 rw enum 1 2 3 = 1
    0xd10a u16 rw enum 1 2 = 1
    0xd10b u16 rw enum 1 2 = 1
    0xd112 u16 rw enum 1 2 = 1
    0xd136 u16 rw enum 1 2 3 = 1
    0xd145 str rw none = '0000'
    0xd153 u16 r none = 272
    0xd154 u32 r none = 589824
    0xd155 u32 r none = 0
    0xd201 u16 rw enum 4 = 4
    0xd207 u16 rw enum 1 2 = 1
    0xd208 u16 rw enum 260 512 4 772 1280 12 40960 6 36864 2 37120 1 37632 5 = 772
    0xd209 u16 r enum 1 2 3 4 = 1
    0xd20b str rw none = ''
    0xd20c u16 rw enum 1 2 3 4 = 4
    0xd20d str r none = '0,15,36672,9,0,0,0,0'
    0xd20e u16 r range 0 1 1 = 19
    0xd211 u16 r range 0 65535 1 = 257
    0xd215 str rw none = ''
    0xd216 str rw none = ''
    0xd406 str rw none = ''
    0xd407 u32 r none = 1
    """

    /// Every described property, in the real body's order.
    static let descriptions: [DevicePropDesc] = RealBodyFacts.descriptions(text)
}
