import PTP
import WireFormat

/// The shutter speed as the Canon EOS and Sony personalities' real bodies carry it: Canon EOS Tv (0xD102) in GetEvent
/// records and SetDevicePropValueEx, Sony ShutterSpeed (0xD20D) in GetAllDevicePropData and SetControlDeviceA. Both
/// are views of the emulated body's one shutter setting, its ExposureTime property (0x500D), which develops the shot:
/// a value set on either property sets ExposureTime to the same speed (bulb to ``CameraModel/bulbExposureTimeValue``).
extension EmulatedCamera {
    /// The ExposureTime (0x500D) value the body exposes at now (1/10000 s, or the bulb value), whichever property set it.
    public var currentExposureTimeValue: Int? { properties.integer(.exposureTime) }

    /// The model's speeds with their EOS Tv codes (``PTP/CanonEOSShutterSpeed``: the nearest code of libgphoto2's
    /// `canon_shutterspeed` table), longest first.
    var canonShutterCodes: [(code: UInt32, speed: ShutterSpeed)] {
        model.shutterSpeeds.sorted { $0.nominal.doubleValue > $1.nominal.doubleValue }.map {
            (CanonEOSShutterSpeed.nearestCode($0.nominal.doubleValue), $0)
        }
    }

    /// Tv as the body reports it: bulb, the code of the current speed, or auto for a value it does not know.
    var canonShutterCode: UInt32 {
        let current = properties.integer(.exposureTime)
        if let bulb = model.bulbExposureTimeValue, current == Int(bulb) { return CanonEOSShutterSpeed.bulb }
        return canonShutterCodes.first { Int($0.speed.propertyValue) == current }?.code ?? CanonEOSShutterSpeed.auto
    }

    /// Queues Tv's PropValueChanged and AvailListChanged records (list type 3, bulb first, then longest to shortest,
    /// the order of `canon_shutterspeed`), as a body sends its settings after SetEventMode(1) and each change.
    func queueCanonShutterSpeed() {
        var value = WireWriter(byteOrder: .little)
        value.write(canonShutterCode)
        canon.queue(.propertyChanged(CanonEOSPropertyChange(property: CanonEOSShutterSpeed.property, value: value.bytes)))
        let codes = (model.bulbExposureTimeValue == nil ? [] : [CanonEOSShutterSpeed.bulb]) + canonShutterCodes.map(\.code)
        canon.queue(.availableListChanged(CanonEOSAvailableList(property: CanonEOSShutterSpeed.property, uint32Values: codes)))
    }

    /// SetDevicePropValueEx of Tv: a 4-byte slot holding an offered code. Returns the response code.
    func setCanonShutterSpeed(_ bytes: [UInt8]) -> ResponseCode {
        guard bytes.count == 4 || bytes.count == 2 else { return .invalidDevicePropFormat }
        let code = bytes.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        if CanonEOSShutterSpeed.isBulb(code), let bulb = model.bulbExposureTimeValue {
            properties.setCurrent(.exposureTime, .uint32(bulb))
        } else if let speed = canonShutterCodes.first(where: { $0.code == code })?.speed {
            properties.setCurrent(.exposureTime, .uint32(speed.propertyValue))
        } else {
            return .invalidDevicePropValue
        }
        return .ok
    }

    /// The Sony value of `speed` (``PTP/SonyShutterSpeed``: whole seconds in tenths).
    static func sonyShutterValue(_ speed: ShutterSpeed) -> UInt32 {
        SonyShutterSpeed.value(
            numerator: UInt32(speed.nominal.numerator), denominator: UInt32(speed.nominal.denominator))
    }

    /// ShutterSpeed (0xD20D) as a protocol-3 body describes it in GetAllDevicePropData (the DSC-RX100M7's layout in
    /// `Fixtures/ptp-real/sony-dsc-rx100m7_ptpip-sdio-allprops.hex`: UINT32, settable, enabled, factory 0xFFFFFFFF,
    /// an enumeration with bulb (0) first, then longest to shortest).
    func sonyShutterSpeedDescription() -> SonyDevicePropDesc {
        let speeds = model.shutterSpeeds.sorted { $0.nominal.doubleValue > $1.nominal.doubleValue }
        let values = (model.bulbExposureTimeValue == nil ? [] : [SonyShutterSpeed.bulb]) + speeds.map(Self.sonyShutterValue)
        let current = properties.integer(.exposureTime)
        let currentValue: UInt32 =
            if let bulb = model.bulbExposureTimeValue, current == Int(bulb) {
                SonyShutterSpeed.bulb
            } else {
                speeds.first { Int($0.propertyValue) == current }.map(Self.sonyShutterValue) ?? 0xFFFF_FFFF
            }
        return SonyDevicePropDesc(
            propertyCode: SonyShutterSpeed.property, dataType: .uint32, getSet: 1, isEnabledFlag: 1,
            factoryDefaultValue: .uint32(0xFFFF_FFFF), currentValue: .uint32(currentValue),
            form: .enumeration(values.map(PTPValue.uint32)))
    }

    /// SetControlDeviceA of ShutterSpeed: one of the described values (`_put_Sony_ShutterSpeed` sends it as UINT32).
    func setSonyShutterSpeed(_ bytes: [UInt8]) -> ResponseCode {
        guard let value = try? PTPValue(ptpEncoded: bytes, type: .uint32).integerValue.flatMap(UInt32.init(exactly:))
        else { return .invalidDevicePropFormat }
        if value == SonyShutterSpeed.bulb, let bulb = model.bulbExposureTimeValue {
            properties.setCurrent(.exposureTime, .uint32(bulb))
        } else if let speed = model.shutterSpeeds.first(where: { Self.sonyShutterValue($0) == value }) {
            properties.setCurrent(.exposureTime, .uint32(speed.propertyValue))
        } else {
            return .invalidDevicePropValue
        }
        return .ok
    }
}
