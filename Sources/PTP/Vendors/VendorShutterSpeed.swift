/// Canon EOS Tv, the body's shutter speed: property 0xD102 (`PTP_DPC_CANON_EOS_ShutterSpeed` in libgphoto2 `ptp.h`),
/// reported in GetEvent PropValueChanged/AvailListChanged records and set with SetDevicePropValueEx. EOS bodies do
/// not list the standard ExposureTime (0x500D).
///
/// The values are libgphoto2 `config.c` `canon_shutterspeed` (the "shutterspeed" widget of
/// `PTP_DPC_CANON_EOS_ShutterSpeed`, `GENERIC16TABLE(Canon_ShutterSpeed, …)`): 0x00 auto, 0x04 and 0x0C bulb, then
/// 0x10 (30 s) to 0xA8 (1/16000 s), eight codes a stop; the times are that table's labels.
public enum CanonEOSShutterSpeed {
    /// The property, 0xD102.
    public static let property = DevicePropertyCode.Canon.eosShutterSpeed
    /// Bulb as an EOS body reports and takes it (`canon_shutterspeed`: "bulb" 0x000c; 0x0004 is also labelled bulb).
    public static let bulb: UInt32 = 0x0C
    /// The other code `canon_shutterspeed` labels bulb.
    public static let alternateBulb: UInt32 = 0x04
    /// Automatic (the body chooses), 0x00.
    public static let auto: UInt32 = 0x00

    /// Each code of `canon_shutterspeed` that is a time, and its label as seconds.
    public static let times: [(code: UInt32, seconds: Double)] = [
        (0x10, 30), (0x13, 25), (0x14, 20.3), (0x15, 20), (0x18, 15), (0x1B, 13), (0x1C, 10), (0x1D, 10.3),
        (0x20, 8), (0x23, 6.3), (0x24, 6), (0x25, 5), (0x28, 4), (0x2B, 3.2), (0x2C, 3), (0x2D, 2.5), (0x30, 2),
        (0x33, 1.6), (0x34, 1.5), (0x35, 1.3), (0x38, 1), (0x3B, 0.8), (0x3C, 0.7), (0x3D, 0.6), (0x40, 0.5),
        (0x43, 0.4), (0x44, 0.3), (0x45, 0.3), (0x48, 1.0 / 4), (0x4B, 1.0 / 5), (0x4C, 1.0 / 6), (0x4D, 1.0 / 6),
        (0x50, 1.0 / 8), (0x53, 1.0 / 10), (0x54, 1.0 / 10), (0x55, 1.0 / 13), (0x58, 1.0 / 15), (0x5B, 1.0 / 20),
        (0x5C, 1.0 / 20), (0x5D, 1.0 / 25), (0x60, 1.0 / 30), (0x63, 1.0 / 40), (0x64, 1.0 / 45), (0x65, 1.0 / 50),
        (0x68, 1.0 / 60), (0x6B, 1.0 / 80), (0x6C, 1.0 / 90), (0x6D, 1.0 / 100), (0x70, 1.0 / 125),
        (0x73, 1.0 / 160), (0x74, 1.0 / 180), (0x75, 1.0 / 200), (0x78, 1.0 / 250), (0x7B, 1.0 / 320),
        (0x7C, 1.0 / 350), (0x7D, 1.0 / 400), (0x80, 1.0 / 500), (0x83, 1.0 / 640), (0x84, 1.0 / 750),
        (0x85, 1.0 / 800), (0x88, 1.0 / 1000), (0x8B, 1.0 / 1250), (0x8C, 1.0 / 1500), (0x8D, 1.0 / 1600),
        (0x90, 1.0 / 2000), (0x93, 1.0 / 2500), (0x94, 1.0 / 3000), (0x95, 1.0 / 3200), (0x98, 1.0 / 4000),
        (0x9B, 1.0 / 5000), (0x9C, 1.0 / 6000), (0x9D, 1.0 / 6400), (0xA0, 1.0 / 8000), (0xA8, 1.0 / 16000),
    ]

    /// The time `code` stands for, or `nil` for auto, bulb and codes the table does not know.
    public static func seconds(_ code: UInt32) -> Double? {
        times.first { $0.code == code }?.seconds
    }

    /// Whether `code` is bulb.
    public static func isBulb(_ code: UInt32) -> Bool { code == bulb || code == alternateBulb }

    /// The code whose time is nearest `seconds` (in stops), from the table.
    public static func nearestCode(_ seconds: Double) -> UInt32 {
        // The larger of the two ratios grows with the distance in stops either way.
        func distance(_ time: Double) -> Double { Swift.max(time / seconds, seconds / time) }
        return times.min { distance($0.seconds) < distance($1.seconds) }?.code ?? auto
    }
}

/// Sony's shutter speed: property 0xD20D (`PTP_DPC_SONY_ShutterSpeed`, UINT32), described in GetAllDevicePropData
/// and set with SetControlDeviceA on bodies of protocol version 3 (libgphoto2 `config.c` `_get_Sony_ShutterSpeed`,
/// `_put_Sony_ShutterSpeed`). A value is the numerator in the high 16 bits and the denominator in the low 16 bits;
/// 0 is bulb. Whole seconds come as tenths (300/10 for 30 s): a real DSC-RX100M7's description
/// (`Fixtures/ptp-real/sony-dsc-rx100m7_ptpip-sdio-allprops.hex`) is an enumeration of 62 values starting 0,
/// 300/10, 250/10, 200/10, 150/10, current 1/15; `_put_Sony_ShutterSpeed` sends whole seconds as `10 * a` / 10.
public enum SonyShutterSpeed {
    /// The property, 0xD20D.
    public static let property = DevicePropertyCode.Sony.shutterSpeed
    /// Bulb, 0 (`_put_Sony_ShutterSpeed`: "Docs imply bulb can be set with zero").
    public static let bulb: UInt32 = 0

    /// The time `value` stands for, or `nil` for bulb and values without a denominator.
    public static func seconds(_ value: UInt32) -> Double? {
        let numerator = value >> 16
        let denominator = value & 0xFFFF
        guard value != bulb, numerator > 0, denominator > 0 else { return nil }
        return Double(numerator) / Double(denominator)
    }

    /// The value of `numerator`/`denominator` seconds as a body writes it: whole seconds in tenths.
    public static func value(numerator: UInt32, denominator: UInt32) -> UInt32 {
        if denominator == 1, numerator * 10 <= 0xFFFF { return (numerator * 10) << 16 | 10 }
        return (numerator & 0xFFFF) << 16 | (denominator & 0xFFFF)
    }
}
