import PTP

/// The table of readable setting names: the standard ISO 15740 properties, plus vendor-range codes for the
/// vendors rawcap knows. The table is open: ``adding(_:)`` puts a vendor's entries in (vendor properties are
/// tracked for a later issue), and any code works without a name as `0x5005`.
///
/// ```swift
/// let catalog = PropertyCatalog.standard
/// let iso = try catalog.definition(named: "iso", vendor: info.cameraVendor)   // ExposureIndex, 0x500F
/// let raw = try catalog.definition(named: "0xD001", vendor: info.cameraVendor)  // bitdepth on rawcap's emulator
/// ```
public struct PropertyCatalog: Sendable {
    /// Every entry, in `config list` order.
    public private(set) var definitions: [PropertyDefinition]

    /// A catalog of `definitions`.
    public init(_ definitions: [PropertyDefinition]) { self.definitions = definitions }

    /// The catalog with `more` entries added after the existing ones.
    public func adding(_ more: [PropertyDefinition]) -> PropertyCatalog { PropertyCatalog(definitions + more) }

    /// The definition `name` selects on a camera of `vendor`: a readable name or alias (case-insensitive), or a
    /// property code in hex (`0x5005`), which always works and reads values as plain numbers.
    ///
    /// - Throws: ``CameraControlError/Code/unknownProperty`` listing the names that apply to the vendor.
    public func definition(named name: String, vendor: VendorExtensionID) throws(CameraControlError)
        -> PropertyDefinition
    {
        let key = name.trimmingWhitespace.lowercased()
        if key.hasPrefix("0x"), let raw = UInt16(key.dropFirst(2), radix: 16) {
            return .unnamed(DevicePropertyCode(rawValue: raw), vendor: vendor)
        }
        if let found = definitions.first(where: { $0.applies(to: vendor) && $0.matches(key) }) { return found }
        throw CameraControlError(
            .unknownProperty, property: name, "no such setting (a property code such as 0x5005 works too)",
            allowed: definitions.filter { $0.applies(to: vendor) }.map(\.name))
    }

    /// The named definition of `code` on a camera of `vendor`, or `nil` when the code has no name here.
    public func definition(for code: DevicePropertyCode, vendor: VendorExtensionID) -> PropertyDefinition? {
        definitions.first { $0.code == code && $0.applies(to: vendor) }
    }

    /// The vendor ID the generic camera reports: 0, no vendor extension (rawcap's emulated camera).
    public static let genericVendor = VendorExtensionID(rawValue: 0)

    /// rawcap's generic raw properties, in the vendor range because ISO 15740 has no raw bit depth or capture
    /// target: the emulated camera (`--camera sim`, VendorExtensionID 0) uses 0xD001 for the raw bit depth (UINT8
    /// 12/14/16) and 0xD002 for the capture target (0 card, 1 camera memory). They apply only to cameras without
    /// a maker's extension, whose vendor range holds nothing else.
    public static let genericRawProperties: [PropertyDefinition] = [
        PropertyDefinition(
            name: "bitdepth", aliases: ["raw-bit-depth", "rawbitdepth"], code: DevicePropertyCode(rawValue: 0xD001),
            style: .number(unit: nil), summary: "Raw bit depth (bits per sample)", vendors: [genericVendor]),
        PropertyDefinition(
            name: "target", aliases: ["capture-target", "capturetarget"], code: DevicePropertyCode(rawValue: 0xD002),
            style: .choices([.init(0, "card"), .init(1, "sdram", aliases: ["memory", "ram", "camera"])]),
            summary: "Where captures are stored: the card, or camera memory until downloaded",
            vendors: [genericVendor]),
    ]

    /// The standard properties of ISO 15740 §13 with readable names and value tables, then
    /// ``genericRawProperties``.
    public static let standard = PropertyCatalog(
        sonyProperties + [nikonImageQualityNumbers] + nikonProperties + [
            PropertyDefinition(
                name: "iso", aliases: ["exposure-index", "exposureindex"], code: .exposureIndex, style: .iso,
                summary: "ISO speed (auto where the camera offers it)"),
            PropertyDefinition(
                name: "shutter", aliases: ["exposure-time", "exposuretime", "speed"], code: .exposureTime,
                style: .exposureTime, summary: "Shutter time in seconds (1/125, 0.5, 30, bulb)"),
            PropertyDefinition(
                name: "aperture", aliases: ["f-number", "fnumber", "f"], code: .fNumber,
                style: .hundredths(prefix: "f/", suffix: ""), summary: "Aperture (f/8)"),
            PropertyDefinition(
                name: "wb", aliases: ["white-balance", "whitebalance"], code: .whiteBalance,
                style: .choices([
                    .init(1, "manual"), .init(2, "auto", aliases: ["automatic"]),
                    .init(3, "one-push", aliases: ["onepush"]), .init(4, "daylight", aliases: ["sun", "sunny"]),
                    .init(5, "fluorescent"), .init(6, "tungsten", aliases: ["incandescent"]), .init(7, "flash"),
                ]),
                summary: "White balance"),
            PropertyDefinition(
                name: "ev", aliases: ["exposure-bias", "exposurebias", "bias", "exposure-compensation"],
                code: .exposureBiasCompensation, style: .exposureBias,
                summary: "Exposure bias in EV (-1/3, +2/3, +1)"),
            // CompressionSetting's values are the maker's (ISO 15740 only says higher compresses less); these are
            // the values libgphoto2 names for any camera (its ptp_value_list_Nikon: 0 JPEG Basic, 1 JPEG Norm,
            // 2 JPEG Fine, 4 RAW, 5 RAW + JPEG Basic), which the emulated camera uses. Other values print as numbers.
            // Sony and Nikon bodies number it their own way: their entries come first.
            PropertyDefinition(
                name: "quality", aliases: ["image-quality", "imagequality", "compression"], code: .compressionSetting,
                style: .choices([
                    .init(0, "jpeg-basic"), .init(1, "jpeg-normal"), .init(2, "jpeg", aliases: ["jpeg-fine"]),
                    .init(4, "raw"), .init(5, "raw+jpeg", aliases: ["raw+jpeg-basic"]),
                ]),
                summary: "Image quality: raw, raw+jpeg, jpeg"),
            PropertyDefinition(
                name: "focus", aliases: ["focus-mode", "focusmode"], code: .focusMode,
                style: .choices([
                    .init(1, "manual", aliases: ["mf"]), .init(2, "auto", aliases: ["af", "automatic"]),
                    .init(3, "macro"),
                ]),
                summary: "Focus mode"),
            PropertyDefinition(
                name: "drive", aliases: ["drive-mode", "drivemode", "still-capture-mode"], code: .stillCaptureMode,
                style: .choices([
                    .init(1, "single", aliases: ["normal"]), .init(2, "burst", aliases: ["continuous"]),
                    .init(3, "timelapse"),
                ]),
                summary: "Drive mode (still capture mode)"),
            PropertyDefinition(
                name: "program", aliases: ["exposure-program", "mode"], code: .exposureProgramMode,
                style: .choices([
                    .init(1, "manual", aliases: ["m"]), .init(2, "program", aliases: ["p", "auto"]),
                    .init(3, "aperture-priority", aliases: ["a", "av"]),
                    .init(4, "shutter-priority", aliases: ["s", "tv"]), .init(5, "creative"), .init(6, "action"),
                    .init(7, "portrait"),
                ]),
                summary: "Exposure program"),
            PropertyDefinition(
                name: "metering", aliases: ["metering-mode"], code: .exposureMeteringMode,
                style: .choices([
                    .init(1, "average"), .init(2, "center-weighted"), .init(3, "multi-spot", aliases: ["matrix"]),
                    .init(4, "center-spot", aliases: ["spot"]),
                ]),
                summary: "Exposure metering mode"),
            PropertyDefinition(
                name: "flash", aliases: ["flash-mode"], code: .flashMode,
                style: .choices([
                    .init(1, "auto"), .init(2, "off"), .init(3, "fill", aliases: ["on"]), .init(4, "red-eye-auto"),
                    .init(5, "red-eye-fill"), .init(6, "external-sync"),
                ]),
                summary: "Flash mode"),
            PropertyDefinition(
                name: "focus-metering", code: .focusMeteringMode,
                style: .choices([.init(1, "center-spot"), .init(2, "multi-spot")]), summary: "Focus metering mode"),
            PropertyDefinition(
                name: "battery", code: .batteryLevel, style: .number(unit: nil), summary: "Battery level"),
            PropertyDefinition(
                name: "imagesize", aliases: ["image-size"], code: .imageSize, style: .text,
                summary: "Image size (WIDTHxHEIGHT)"),
            PropertyDefinition(
                name: "focallength", aliases: ["focal-length"], code: .focalLength,
                style: .hundredths(prefix: "", suffix: "mm"), summary: "Focal length"),
            PropertyDefinition(
                name: "focusdistance", aliases: ["focus-distance"], code: .focusDistance,
                style: .number(unit: "mm"), summary: "Focus distance in millimetres"),
            PropertyDefinition(
                name: "delay", aliases: ["capture-delay"], code: .captureDelay, style: .number(unit: "ms"),
                summary: "Capture delay in milliseconds"),
            PropertyDefinition(
                name: "burst", aliases: ["burst-number"], code: .burstNumber, style: .number(unit: nil),
                summary: "Frames per burst"),
            PropertyDefinition(
                name: "burst-interval", code: .burstInterval, style: .number(unit: "ms"),
                summary: "Time between burst frames in milliseconds"),
            PropertyDefinition(
                name: "contrast", code: .contrast, style: .number(unit: nil), summary: "Contrast"),
            PropertyDefinition(
                name: "sharpness", code: .sharpness, style: .number(unit: nil), summary: "Sharpness"),
            PropertyDefinition(
                name: "datetime", aliases: ["date-time", "clock"], code: .dateTime, style: .dateTime,
                summary: "Camera clock (YYYYMMDDThhmmss; set: now)"),
            PropertyDefinition(name: "artist", code: .artist, style: .text, summary: "Artist"),
            PropertyDefinition(name: "copyright", code: .copyrightInfo, style: .text, summary: "Copyright"),
        ] + genericRawProperties)
}
