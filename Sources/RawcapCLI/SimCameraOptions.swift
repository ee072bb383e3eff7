import ArgumentParser
import CameraEmulator

/// The emulated camera's options on camera commands, for `--camera sim`.
public struct SimCameraOptions: ParsableArguments {
    /// The personality.
    @Option(help: ArgumentHelp("With --camera sim: the camera personality (generic).", valueName: "name"))
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

    /// Creates the defaults.
    public init() {}

    var settings: EmulatorSettings { EmulatorSettings(model: simModel, sensor: simSensor, faults: simFault) }

    /// Whether any option was given.
    var isUsed: Bool { simModel != "generic" || simSensor != nil || !simFault.isEmpty }
}
