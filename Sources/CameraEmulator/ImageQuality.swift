import PTP

/// What one shot produces: the raw file, a JPEG, or both from the same exposure (RAW+JPEG).
///
/// The camera's image-quality property selects it; a personality maps its own property values to these (the generic
/// model uses CompressionSetting 0x5004, see ``CameraModel/qualityValues``).
public struct ImageQuality: Hashable, Sendable, CustomStringConvertible {
    /// Whether the shot is stored as a TIFF/EP raw object (format 0x3802).
    public let includesRaw: Bool
    /// Whether the shot is stored as an EXIF/JPEG object (format 0x3801).
    public let includesJPEG: Bool

    private init(raw: Bool, jpeg: Bool) { (includesRaw, includesJPEG) = (raw, jpeg) }

    /// The raw file alone.
    public static let raw = ImageQuality(raw: true, jpeg: false)
    /// The raw file and a JPEG rendered from it.
    public static let rawPlusJPEG = ImageQuality(raw: true, jpeg: true)
    /// A JPEG alone.
    public static let jpeg = ImageQuality(raw: false, jpeg: true)

    /// The object formats a shot of this quality stores, raw first (the order of its ObjectAdded events).
    public var objectFormats: [ObjectFormatCode] {
        (includesRaw ? [ObjectFormatCode.tiffEP] : []) + (includesJPEG ? [ObjectFormatCode.exifJPEG] : [])
    }

    /// `RAW`, `RAW+JPEG` or `JPEG`.
    public var description: String {
        switch (includesRaw, includesJPEG) {
        case (true, true): "RAW+JPEG"
        case (true, false): "RAW"
        default: "JPEG"
        }
    }
}
