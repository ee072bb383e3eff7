import ArgumentParser
import CameraEmulator

/// The emulated camera's options for `rawcap sim serve` and `rawcap sim usb`.
struct EmulatorOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The camera personality: generic, generic-no-bias, generic-no-bulb, nikon, nikon-no-object-event, canon, sony, sony-no-pc-remote, fuji or hostile.",
            valueName: "name"),
        completion: .list(CameraModel.all.map(\.identifier)))
    var model = "generic"

    @Option(help: ArgumentHelp("Sensor size in pixels (default: the model's, 6000x4000).", valueName: "WxH"))
    var sensor: String?

    @Option(
        name: .customLong("fault"),
        help: ArgumentHelp(
            "Misbehave on purpose; repeat or separate with commas: disconnect-after=BYTES, busy=N[:OPERATION], stall=OPERATION, slow=RATE (5MB/s), lose-event=EVENT[:N], card-full, disappear-after=SHOTS[:DURATION], sleep-after=IDLE[:WAKE], every=SHOTS (docs/emulated-camera.md).",
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

    @Option(
        help: ArgumentHelp(
            "The camera sleeps after this long without a request: it leaves the USB bus or the network and wakes 2 s later, or over PTP/IP soon after a host knocks (sleep-after=IDLE[:WAKE] as a --fault sets both).",
            valueName: "duration"))
    var sleepAfter: String?

    @Option(
        help: ArgumentHelp(
            "Press the body's shutter button every DURATION (500ms, 2s): the camera shoots by itself and announces the shot its family's way (for rawcap tether).",
            valueName: "duration"))
    var pressEvery: String?

    @Option(help: ArgumentHelp("The image quality the body starts with: raw, raw+jpeg or jpeg.", valueName: "quality"))
    var quality: String?

    var settings: EmulatorSettings {
        var settings = EmulatorSettings(
            model: model, sensor: sensor, faults: faults + (sleepAfter.map { ["sleep-after=\($0)"] } ?? []),
            cardCapacity: cardCapacity, seed: seed, eventOrder: eventOrder)
        settings.pressEvery = try? ShutterPresses.interval(pressEvery, option: "--press-every")
        settings.quality = quality
        return settings
    }

    /// Checks every option by building a camera once.
    func validate() throws {
        _ = try ShutterPresses.interval(pressEvery, option: "--press-every")
        _ = try settings.makeCamera()
    }
}
