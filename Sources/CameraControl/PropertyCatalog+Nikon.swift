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
