import ArgumentParser
import CameraEmulator

/// The emulated camera's options on camera commands, for `--camera sim`.
public struct SimCameraOptions: ParsableArguments {
    /// The personality.
    @Option(
        name: [.customLong("sim-model"), .customLong("model")],
        help: ArgumentHelp(
            "With --camera sim: the camera personality (generic, generic-no-bias, generic-no-bulb, nikon, nikon-no-object-event, canon, sony, sony-no-pc-remote, fuji, hostile; --model is the same).",
            valueName: "name"),
        completion: .list(CameraModel.all.map(\.identifier)))
    public var simModel = "generic"

    /// The sensor size.
    @Option(help: ArgumentHelp("With --camera sim: the sensor size (default 6000x4000).", valueName: "WxH"))
    public var simSensor: String?

    /// Faults to commit.
    @Option(
        help: ArgumentHelp(
            "With --camera sim: a fault to commit (see rawcap sim serve --help); repeat for several.",
            valueName: "fault"))
    public var simFault: [String] = []

    /// The serial number.
    @Option(
        help: ArgumentHelp(
            "With --camera sim: the serial number (default RC0000001; the second --camera sim RC0000002, …).",
            valueName: "serial"))
    public var simSerial: String?

    /// The idle time before the camera sleeps (the `sleep-after=` fault).
    @Option(
        help: ArgumentHelp(
            "With --camera sim: the camera sleeps after this long without a request and wakes 2 s later (sleep-after=IDLE[:WAKE] as a --sim-fault sets both).",
            valueName: "duration"))
    public var simSleepAfter: String?
    /// Time between presses of the emulated body's shutter button.
    @Option(
        help: ArgumentHelp(
            "With --camera sim: press the body's shutter button every DURATION (500ms, 2s), as for rawcap tether.",
            valueName: "duration"))
    public var simPressEvery: String?

    /// The image quality the emulated body starts with.
    @Option(
        help: ArgumentHelp("With --camera sim: the image quality the body starts with (raw, raw+jpeg, jpeg).", valueName: "quality"))
    public var simQuality: String?

    /// Creates the defaults.
    public init() {}

    var settings: EmulatorSettings {
        var settings = EmulatorSettings(
            model: simModel, sensor: simSensor, faults: simFault + (simSleepAfter.map { ["sleep-after=\($0)"] } ?? []),
            serial: simSerial)
        settings.pressEvery = try? ShutterPresses.interval(simPressEvery, option: "--sim-press-every")
        settings.quality = simQuality
        return settings
    }

    /// Whether any option was given.
    var isUsed: Bool {
        simModel != "generic" || simSensor != nil || !simFault.isEmpty || simSerial != nil || simSleepAfter != nil
            || simPressEvery != nil || simQuality != nil
    }

    /// The serial number of the `index`-th (from 0) `--camera sim` of a `rawcap shoot` with several: the first
    /// keeps `--sim-serial` (or the model's), the others get their own, so `{serial}` keeps their files apart.
    func serial(forCameraAt index: Int) -> String? {
        guard index > 0 else { return simSerial }
        if let simSerial { return "\(simSerial)-\(index + 1)" }
        let number = String(index + 1)
        return "RC" + String(repeating: "0", count: max(0, 7 - number.count)) + number
    }
}
