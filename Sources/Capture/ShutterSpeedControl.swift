import CameraControl
import PTP

/// The shutter speeds a body offers on its family's own property, as `--exposure` chooses among them.
public struct ShutterSpeedChoices: Sendable {
    /// The property (Canon EOS Tv 0xD102, Sony ShutterSpeed 0xD20D).
    public var property: DevicePropertyCode
    /// Each offered value that is a time, with its time in seconds.
    public var offered: [(value: PTPValue, seconds: Double)]
    /// The value that selects bulb, when the body offers it now (its mode dial on M or B).
    public var bulb: PTPValue?
    /// The value the body is set to.
    public var current: PTPValue?

    /// Creates choices.
    public init(
        property: DevicePropertyCode, offered: [(value: PTPValue, seconds: Double)], bulb: PTPValue?,
        current: PTPValue?
    ) {
        self.property = property
        self.offered = offered
        self.bulb = bulb
        self.current = current
    }
}

/// Reads and sets a family's own shutter speed property, where a real body keeps its shutter speed outside the
/// standard ExposureTime (0x500D): Canon EOS Tv (0xD102) in GetEvent records, Sony ShutterSpeed (0xD20D) in
/// GetAllDevicePropData.
public protocol ShutterSpeedControl: Sendable {
    /// What the body offers and is set to; `nil` when it does not have the property (a body of the family that keeps
    /// its shutter on ExposureTime).
    func read(session: PTPSession, control: CameraControl.CameraSettings) async throws -> ShutterSpeedChoices?
    /// Sets `value` (one the body offered).
    func set(_ value: PTPValue, session: PTPSession, control: CameraControl.CameraSettings) async throws
}

/// Canon EOS Tv (0xD102, ``PTP/CanonEOSShutterSpeed``): the values and the current one come from the GetEvent records
/// ``CanonEOSHostState`` keeps (AvailListChanged and PropValueChanged), and a value is set with SetDevicePropValueEx
/// packed in a 4-byte slot (libgphoto2 `ptp.c` `ptp_canon_eos_setdevicepropvalue`; `config.c`
/// `_put_Canon_ShutterSpeed` through the "shutterspeed" widget). Bulb (0x0C) is offered only with the mode dial on
/// M or B (`_put_Canon_EOS_Bulb`: "make sure the mode dial is switched to 'M'").
struct CanonEOSShutterControl: ShutterSpeedControl {
    let state: CanonEOSHostState

    func read(session: PTPSession, control: CameraControl.CameraSettings) async throws -> ShutterSpeedChoices? {
        try await state.prepare(session: session)
        await state.absorb(try await session.canonGetEvents().events)
        guard let offered = await state.offeredShutterSpeeds else { return nil }
        let current = await state.shutterSpeed
        return ShutterSpeedChoices(
            property: CanonEOSShutterSpeed.property,
            offered: offered.compactMap { code in CanonEOSShutterSpeed.seconds(code).map { (.uint16(UInt16(truncatingIfNeeded: code)), $0) } },
            bulb: offered.first(where: CanonEOSShutterSpeed.isBulb).map { .uint16(UInt16(truncatingIfNeeded: $0)) },
            current: current.map { .uint16(UInt16(truncatingIfNeeded: $0)) })
    }

    func set(_ value: PTPValue, session: PTPSession, control: CameraControl.CameraSettings) async throws {
        guard let code = value.integerValue.flatMap(UInt32.init(exactly:)) else {
            throw CaptureError(.invalidPlan, "Canon EOS Tv takes a number, not \(value)")
        }
        try await session.canonSetPropertyValue(CanonEOSPropertyValue(property: CanonEOSShutterSpeed.property, uint32: code))
        await state.setShutterSpeed(code)
    }
}

/// Sony ShutterSpeed (0xD20D, ``PTP/SonyShutterSpeed``) where GetAllDevicePropData describes it with an enumeration
/// (protocol version 3 bodies; libgphoto2 `config.c` `_get_Sony_ShutterSpeed` lists the enumeration, 0 as bulb), set
/// with SetControlDeviceA as `_put_Sony_ShutterSpeed` does. A body that describes it without values (version 2, set
/// there by stepping the dial) is left to its own setting: ``read(session:control:)`` answers `nil`.
struct SonyShutterControl: ShutterSpeedControl {
    func read(session: PTPSession, control: CameraControl.CameraSettings) async throws -> ShutterSpeedChoices? {
        let all = try await session.sonyAllDevicePropDataAfterHandshake()
        guard let description = all[SonyShutterSpeed.property]?.standardDescription,
            case .enumeration(let values) = description.form
        else { return nil }
        var offered: [(value: PTPValue, seconds: Double)] = []
        var bulb: PTPValue?
        for value in values {
            guard let number = value.integerValue.flatMap(UInt32.init(exactly:)) else { continue }
            if number == SonyShutterSpeed.bulb {
                bulb = value
            } else if let seconds = SonyShutterSpeed.seconds(number) {
                offered.append((value, seconds))
            }
        }
        return ShutterSpeedChoices(
            property: SonyShutterSpeed.property, offered: offered, bulb: bulb, current: description.currentValue)
    }

    func set(_ value: PTPValue, session: PTPSession, control: CameraControl.CameraSettings) async throws {
        try await session.sonySetControlDeviceA(SonyShutterSpeed.property, value)
    }
}
