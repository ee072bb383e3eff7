import PTP

extension PropertyCatalog {
    /// Nikon's CompressionSetting (0x5004) before rawcap knows the body's numbering: plain numbers, since the same
    /// number is a NEF on one body and a JPEG on another (4 is "NEF (Raw)" on a D810, "JPEG Fine" on a D850;
    /// ``PTP/NikonImageQualityTable``). Ahead of the standard entry, so a Nikon never reads the standard names.
    /// ``CameraSettings/identifyingNikonImageQuality(usbProductID:)`` replaces it with ``nikonImageQuality(_:)``.
    public static let nikonImageQualityNumbers = PropertyDefinition(
        name: "quality", aliases: ["image-quality", "imagequality", "compression"], code: .compressionSetting,
        style: .number(unit: nil), summary: "Image quality (Nikon's numbers: this body's numbering is unknown)",
        vendors: [.nikon])

    /// Nikon's CompressionSetting named by `table`: `raw` (NEF), `raw+jpeg` (NEF + Fine), `raw+jpeg-normal`,
    /// `raw+jpeg-basic`, `jpeg` (Fine), `jpeg-normal`, `jpeg-basic`, `tiff`, and each ★ (optimal quality) JPEG
    /// with a `*`: `jpeg-fine*`, `raw+jpeg-fine*` (also `jpeg-fine-optimal`, `jpeg-fine★`). The names are the
    /// standard entry's where the meaning is the same, whatever number the body uses.
    public static func nikonImageQuality(_ table: NikonImageQualityTable) -> PropertyDefinition {
        PropertyDefinition(
            name: "quality", aliases: ["image-quality", "imagequality", "compression"], code: .compressionSetting,
            style: .choices(
                table.entries.map { entry in
                    let (name, aliases) = choiceName(entry.quality)
                    return .init(Int(entry.value), name, aliases: aliases)
                }),
            summary: "Image quality: raw, raw+jpeg, jpeg (Nikon's \(table) numbering)", vendors: [.nikon])
    }

    /// A Nikon's own properties and its values of standard ones, ahead of the standard entries. Values from
    /// libgphoto2 `camlibs/ptp2/config.c`: `nikon_recordingmedia` (0 Card, 1 SDRAM), the `rawbitmode` widget (0
    /// 12 bit, 1 14 bit), and the PTP_VENDOR_NIKON rows of `focusmodes` (0x8010 AF-S, 0x8011 AF-C, 0x8012 AF-A,
    /// 0x8013 AF-F), `capture_mode` (0x8010 continuous low speed, 0x8011 timer, 0x8012 mirror up, 0x8013 remote,
    /// 0x8014 quick-response remote, 0x8015 delayed remote, 0x8016 quiet release, 0x8018 continuous quiet release)
    /// and `flash_mode` (0x8010 auto, 0x8011 auto slow sync, 0x8012 rear curtain + slow sync, 0x8013 red-eye +
    /// slow sync).
    public static let nikonProperties: [PropertyDefinition] = [
        PropertyDefinition(
            name: "bitdepth", aliases: ["raw-bit-depth", "rawbitdepth", "rawbitmode"], code: .Nikon.rawBitMode,
            style: .choices([.init(0, "12"), .init(1, "14")]), summary: "NEF bit depth (RawBitMode: 12 or 14 bits)",
            vendors: [.nikon]),
        PropertyDefinition(
            name: "target", aliases: ["capture-target", "capturetarget", "recordingmedia"],
            code: .Nikon.recordingMedia,
            style: .choices([.init(0, "card"), .init(1, "sdram", aliases: ["memory", "ram", "camera"])]),
            summary: "Where captures are stored: the card, or camera memory until downloaded (RecordingMedia)",
            vendors: [.nikon]),
        PropertyDefinition(
            name: "focus", aliases: ["focus-mode", "focusmode"], code: .focusMode,
            style: .choices([
                .init(1, "manual", aliases: ["mf"]), .init(2, "auto", aliases: ["af", "automatic"]),
                .init(3, "macro"), .init(0x8010, "af-s"), .init(0x8011, "af-c"), .init(0x8012, "af-a"),
                .init(0x8013, "af-f"),
            ]),
            summary: "Focus mode", vendors: [.nikon]),
        PropertyDefinition(
            name: "drive", aliases: ["drive-mode", "drivemode", "still-capture-mode"], code: .stillCaptureMode,
            style: .choices([
                .init(1, "single", aliases: ["normal"]), .init(2, "burst", aliases: ["continuous", "continuous-high"]),
                .init(3, "timelapse"), .init(0x8010, "continuous-low"), .init(0x8011, "timer"),
                .init(0x8012, "mirror-up"), .init(0x8013, "remote"), .init(0x8014, "quick-remote"),
                .init(0x8015, "delayed-remote"), .init(0x8016, "quiet"), .init(0x8018, "continuous-quiet"),
            ]),
            summary: "Drive mode (still capture mode)", vendors: [.nikon]),
        PropertyDefinition(
            name: "flash", aliases: ["flash-mode"], code: .flashMode,
            style: .choices([
                .init(1, "auto"), .init(2, "off"), .init(3, "fill", aliases: ["on"]), .init(4, "red-eye-auto"),
                .init(5, "red-eye-fill"), .init(6, "external-sync"), .init(0x8010, "nikon-auto"),
                .init(0x8011, "slow-sync"), .init(0x8012, "rear-curtain-slow-sync"),
                .init(0x8013, "red-eye-slow-sync"),
            ]),
            summary: "Flash mode", vendors: [.nikon]),
    ]

    /// The catalog with `definition` ahead of every entry, so that it wins for its code and its names.
    public func preferring(_ definition: PropertyDefinition) -> PropertyCatalog {
        PropertyCatalog([definition] + definitions)
    }

    /// The name and aliases of one Nikon image quality.
    static func choiceName(_ quality: NikonImageQuality) -> (String, [String]) {
        if quality.isTIFF { return ("tiff", []) }
        guard let jpeg = quality.jpeg else { return ("raw", ["nef"]) }
        let prefix = quality.includesRaw ? "raw+" : ""
        let long = prefix + "jpeg-" + jpeg.rawValue
        let nef = quality.includesRaw ? ["nef+" + jpeg.rawValue] : []
        if quality.optimalQuality {
            return (long + "*", [long + "-optimal", long + "★"] + nef.map { $0 + "*" })
        }
        return jpeg == .fine ? (prefix + "jpeg", [long] + nef) : (long, nef)
    }
}
