import CameraControl
import PTP

#if canImport(Glibc)
    import Glibc
#endif

/// How a run gets the exposure time `--exposure` asks for: a shutter speed the camera offers, set like any other
/// setting (snapped to the descriptor), or bulb, held by the driver for the requested time.
public struct ExposureSetting: Hashable, Sendable {
    /// The way the shutter is timed.
    public enum Mode: Hashable, Sendable {
        /// The camera times the exposure: ExposureTime (0x500D), or the family's own property, set to `value`,
        /// `seconds` long.
        case shutter(value: PTPValue, seconds: Double)
        /// The host times it in bulb; `bulbValue` is the value that selects bulb, when the family sets one (a Nikon's
        /// ExposureTime 0xFFFFFFFF, a Canon EOS Tv 0x0C, a Sony ShutterSpeed 0).
        case bulb(bulbValue: PTPValue?)
    }

    /// A property set before the exposure's own (and put back after the run with it).
    public struct Preset: Hashable, Sendable {
        /// The property.
        public var property: DevicePropertyCode
        /// Its value for the run.
        public var value: PTPValue

        /// Creates a preset.
        public init(property: DevicePropertyCode, value: PTPValue) {
            self.property = property
            self.value = value
        }
    }

    /// What was asked for.
    public var request: ExposureRequest
    /// How it is given.
    public var mode: Mode
    /// What must be set first for `mode` to be offered: a Nikon's ExposureProgramMode at M for bulb
    /// (``CaptureDriver/bulbExposureProgram``); `nil` when the camera is ready as it is.
    public var preset: Preset?
    /// The family's own shutter speed property that carries ``value`` (Canon EOS Tv 0xD102, Sony ShutterSpeed
    /// 0xD20D), set and put back through ``CaptureDriver/shutterSpeedControl``; `nil` for ExposureTime.
    public var vendorProperty: DevicePropertyCode?
    /// With ``vendorProperty``: its value before the run, put back when the run ends.
    public var vendorValueBefore: PTPValue?

    /// Creates a setting.
    public init(
        request: ExposureRequest, mode: Mode, preset: Preset? = nil, vendorProperty: DevicePropertyCode? = nil,
        vendorValueBefore: PTPValue? = nil
    ) {
        self.request = request
        self.mode = mode
        self.preset = preset
        self.vendorProperty = vendorProperty
        self.vendorValueBefore = vendorValueBefore
    }

    /// Whether the driver holds the shutter open.
    public var isBulb: Bool { if case .bulb = mode { true } else { false } }

    /// `shutter` or `bulb`, as the journal writes it.
    public var modeName: String { isBulb ? "bulb" : "shutter" }

    /// The property set before the first shot, when one is.
    public var property: DevicePropertyCode? {
        switch mode {
        case .shutter: vendorProperty ?? .exposureTime
        case .bulb(let value): value == nil ? nil : vendorProperty ?? .exposureTime
        }
    }

    /// The value set before the first shot, when one is.
    public var value: PTPValue? {
        switch mode {
        case .shutter(let value, _): value
        case .bulb(let value): value
        }
    }

    /// ExposureTime (0x500D) values that are not times: 0xFFFFFFFF bulb (libgphoto2 `config.c` `_put_Nikon_Bulb`),
    /// 0xFFFFFFFD "time" and 0xFFFFFFFE, both listed after bulb by a real D850 (`cameras/nikon-d850.txt`).
    static let nonTimeValues: Set<Int> = [0xFFFF_FFFF, 0xFFFF_FFFE, 0xFFFF_FFFD]

    /// How far (in stops) an offered shutter speed may be from the request and still be taken for it: a sixth of a
    /// stop, half the distance between third stops.
    static let snapTolerance = 1.0 / 6

    /// Decides how `request` is given on this camera: the offered ExposureTime value nearest the request when one is
    /// within a sixth of a stop (and `--bulb` was not given), else bulb through `driver`.
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/exposureUnavailable`` (exit 64, before anything is fired) when
    ///   the camera has neither a shutter speed that long nor bulb, or when the request is shorter than its fastest
    ///   speed; what the session throws.
    public static func resolve(
        _ request: ExposureRequest, control: CameraControl.CameraSettings, deviceInfo: DeviceInfo,
        driver: any CaptureDriver
    ) async throws -> ExposureSetting {
        if let vendor = driver.shutterSpeedControl,
            let choices = try await vendor.read(session: control.session, control: control)
        {
            return try resolve(request, choices: choices, deviceInfo: deviceInfo, driver: driver)
        }
        let wanted = request.duration.seconds
        var offered: [(value: PTPValue, seconds: Double)] = []
        var offersBulb = false
        if deviceInfo.devicePropertiesSupported.contains(.exposureTime),
            let description = try? await control.descriptor(control.definition(for: .exposureTime))
        {
            let values: [PTPValue]
            switch description.form {
            case .enumeration(let list): values = list
            case .range(let minimum, let maximum, let step):
                // A range of 1/10000 s units: its two ends and, when the request lies inside, the nearest step.
                var inside: [PTPValue] = [minimum, maximum]
                if let low = minimum.integerValue, let high = maximum.integerValue, let by = step.integerValue, by > 0 {
                    let units = Int((wanted * 10_000).rounded())
                    if units > low, units < high,
                        let near = try? PTPValue(low + ((units - low + by / 2) / by) * by, as: description.dataType)
                    {
                        inside.append(near)
                    }
                }
                values = inside
            case .none: values = []
            }
            for value in values {
                guard let units = value.integerValue else { continue }
                if units == 0xFFFF_FFFF { offersBulb = true }
                guard !nonTimeValues.contains(units), units > 0 else { continue }
                offered.append((value, Double(units) / 10_000))
            }
        }
        if !request.forceBulb,
            let nearest = offered.min(by: { abs(log2($0.seconds / wanted)) < abs(log2($1.seconds / wanted)) }),
            abs(log2(nearest.seconds / wanted)) <= snapTolerance
        {
            return ExposureSetting(request: request, mode: .shutter(value: nearest.value, seconds: nearest.seconds))
        }
        let longest = offered.map(\.seconds).max()
        if !request.forceBulb, let shortest = offered.map(\.seconds).min(), wanted < shortest {
            throw CaptureError(
                .exposureUnavailable,
                "--exposure \(format(wanted)): the camera's fastest shutter speed is \(format(shortest))")
        }
        if let reason = driver.bulbUnavailableReason(deviceInfo: deviceInfo) {
            let speeds = longest.map { "its longest shutter speed is \(format($0))" } ?? "it offers no shutter speed"
            throw CaptureError(
                .exposureUnavailable,
                "--exposure \(format(wanted))\(request.forceBulb ? " --bulb" : ""): \(speeds), and \(reason)")
        }
        switch driver.bulbShutterSetting {
        case .none:
            return ExposureSetting(request: request, mode: .bulb(bulbValue: nil))
        case .exposureTime(let value, let required):
            if offersBulb { return ExposureSetting(request: request, mode: .bulb(bulbValue: value)) }
            if required {
                // A body outside M: the family's manual program offers bulb when the host may select it.
                if let preset = try await manualProgram(for: driver, control: control, deviceInfo: deviceInfo) {
                    return ExposureSetting(request: request, mode: .bulb(bulbValue: value), preset: preset)
                }
                throw CaptureError(
                    .exposureUnavailable,
                    "--exposure \(format(wanted)): bulb needs ExposureTime (0x500D) at bulb, which the camera does not "
                        + "offer in its current mode (set the mode dial to M or B)")
            }
            return ExposureSetting(request: request, mode: .bulb(bulbValue: nil))
        }
    }

    /// `request` on a body whose shutter speed is its family's own property (``ShutterSpeedChoices``): the offered
    /// speed nearest the request within a sixth of a stop (unless `--bulb`), else bulb through the same property.
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/exposureUnavailable`` when the request is shorter than the fastest
    ///   speed, or when bulb is needed and the body has no bulb operations or does not offer bulb in its mode.
    static func resolve(
        _ request: ExposureRequest, choices: ShutterSpeedChoices, deviceInfo: DeviceInfo, driver: any CaptureDriver
    ) throws -> ExposureSetting {
        let wanted = request.duration.seconds
        let name = choices.property.description(vendor: deviceInfo.cameraVendor)
        func setting(_ mode: Mode) -> ExposureSetting {
            ExposureSetting(
                request: request, mode: mode, vendorProperty: choices.property, vendorValueBefore: choices.current)
        }
        let offered = choices.offered
        if !request.forceBulb,
            let nearest = offered.min(by: { abs(log2($0.seconds / wanted)) < abs(log2($1.seconds / wanted)) }),
            abs(log2(nearest.seconds / wanted)) <= snapTolerance
        {
            return setting(.shutter(value: nearest.value, seconds: nearest.seconds))
        }
        if !request.forceBulb, let shortest = offered.map(\.seconds).min(), wanted < shortest {
            throw CaptureError(
                .exposureUnavailable,
                "--exposure \(format(wanted)): the camera's fastest shutter speed is \(format(shortest))")
        }
        let speeds =
            offered.map(\.seconds).max().map { "its longest shutter speed is \(format($0))" }
            ?? "it offers no shutter speed"
        if let reason = driver.bulbUnavailableReason(deviceInfo: deviceInfo) {
            throw CaptureError(
                .exposureUnavailable,
                "--exposure \(format(wanted))\(request.forceBulb ? " --bulb" : ""): \(speeds), and \(reason)")
        }
        guard let bulb = choices.bulb else {
            throw CaptureError(
                .exposureUnavailable,
                "--exposure \(format(wanted))\(request.forceBulb ? " --bulb" : ""): \(speeds), and its \(name) offers no "
                    + "bulb in its current mode (set the mode dial to M or B)")
        }
        return setting(.bulb(bulbValue: bulb))
    }

    /// The driver's manual exposure program (``CaptureDriver/bulbExposureProgram``) when the camera lists the property,
    /// lets the host set it, offers the value and is not on it already; `nil` otherwise.
    static func manualProgram(
        for driver: any CaptureDriver, control: CameraControl.CameraSettings, deviceInfo: DeviceInfo
    ) async throws -> Preset? {
        guard let preset = driver.bulbExposureProgram,
            deviceInfo.devicePropertiesSupported.contains(preset.property),
            let description = try? await control.descriptor(control.definition(for: preset.property)),
            description.isSettable, description.currentValue != preset.value
        else { return nil }
        switch description.form {
        case .enumeration(let values) where !values.contains(preset.value): return nil
        default: return preset
        }
    }

    /// `1/250 s`, `2.5 s`, `240 s`.
    public static func format(_ seconds: Double) -> String {
        if seconds < 1 {
            let denominator = 1 / seconds
            if abs(denominator - denominator.rounded()) < 0.05 { return "1/\(Int(denominator.rounded())) s" }
        }
        let rounded = (seconds * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? "\(Int(rounded)) s" : "\(rounded) s"
    }
}

/// The ExposureTime setting a family's bulb needs before the shutter opens.
public enum BulbShutterSetting: Hashable, Sendable {
    /// None: the bulb operations themselves hold the shutter (InitiateOpenCapture).
    case none
    /// ExposureTime (0x500D) set to `value`; `required` refuses bulb (exit 64) when the camera does not offer it,
    /// otherwise the body's own setting is trusted (a real EOS keeps its Tv in an EOS property).
    case exposureTime(PTPValue, required: Bool)
}
