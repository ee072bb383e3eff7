import ArgumentParser
import CameraEmulator

/// The emulated camera's options for `rawcap sim serve` and `rawcap sim usb`.
struct EmulatorOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The camera personality: generic, generic-no-bias, generic-no-bulb, nikon, nikon-no-object-event, canon, sony, sony-no-pc-remote, fuji or hostile.",
            valueName: "name"))
    var model = "generic"

    @Option(help: ArgumentHelp("Sensor size in pixels (default: the model's, 6000x4000).", valueName: "WxH"))
    var sensor: String?

    @Option(
        name: .customLong("fault"),
        help: ArgumentHelp(
            "Misbehave on purpose; repeat or separate with commas: disconnect-after=BYTES, busy=N[:OPERATION], stall=OPERATION, slow=RATE (5MB/s), lose-event=EVENT[:N], card-full.",
            valueName: "fault"))
    var faults: [String] = []

    @Option(help: ArgumentHelp("The memory card's capacity (it lives in memory), e.g. 2GB.", valueName: "size"))
    var cardCapacity: String?

    @Option(help: ArgumentHelp("Selects the sensor noise: the same seed gives the same shots.", valueName: "number"))
    var seed: UInt64 = 0

    @Option(
        help: ArgumentHelp(
            "Order of a shot's events: standard (every ObjectAdded, then CaptureComplete) or gphoto2 (CaptureComplete after the first object, so gphoto2 downloads RAW and JPEG).",
            valueName: "order"))
    var eventOrder: CaptureEventOrder = .standard

    var settings: EmulatorSettings {
        EmulatorSettings(
            model: model, sensor: sensor, faults: faults, cardCapacity: cardCapacity, seed: seed,
            eventOrder: eventOrder)
    }

    /// Checks every option by building a camera once.
    func validate() throws { _ = try settings.makeCamera() }
}
