import CameraControl
import PTP

/// Which shot qualities (RAW, RAW+JPEG, JPEG) a camera offers, read from the profile's quality property, and the
/// one a run needs. The raw formats themselves (Bayer depths, linear) come from CameraControl's
/// `RawFormatCatalog` (``ResolvedFormat/choose(_:from:)``).
public struct FormatCatalog: Hashable, Sendable {
    /// Qualities the camera offers (empty when it has no quality property rawcap knows).
    public var qualities: [ShotQuality]
    /// The quality it is set to, when known.
    public var currentQuality: ShotQuality?

    /// Creates a catalog.
    public init(qualities: [ShotQuality], currentQuality: ShotQuality?) {
        self.qualities = qualities
        self.currentQuality = currentQuality
    }

    /// Reads the qualities through `control`.
    public static func read(profile: CameraProfile, control: CameraControl.CameraSettings) async throws -> FormatCatalog
    {
        guard let code = profile.qualityProperty, control.deviceInfo.devicePropertiesSupported.contains(code) else {
            return FormatCatalog(qualities: [], currentQuality: nil)
        }
        let description = try await control.descriptor(control.definition(for: code))
        var qualities: [ShotQuality] = []
        if case .enumeration(let values) = description.form {
            qualities = ShotQuality.allCases.filter { quality in values.contains { profile.quality(for: $0) == quality }
            }
        }
        return FormatCatalog(qualities: qualities, currentQuality: profile.quality(for: description.currentValue))
    }

    /// The quality to set for a run producing `format`, keeping the JPEG when `keepJPEG` (and keeping RAW+JPEG when
    /// the camera is set to it: its JPEG becomes the preview); `nil` leaves the camera's setting (it has no quality
    /// property rawcap knows).
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/formatUnavailable`` when the camera cannot store what is needed.
    public func quality(for format: ResolvedFormat, keepJPEG: Bool) throws -> ShotQuality? {
        guard !qualities.isEmpty else { return nil }
        let wanted: ShotQuality =
            format.product == .jpeg
            ? .jpeg : (keepJPEG || currentQuality == .rawPlusJPEG ? .rawPlusJPEG : .raw)
        if qualities.contains(wanted) { return wanted }
        if wanted == .raw, qualities.contains(.rawPlusJPEG) { return .rawPlusJPEG }
        throw CaptureError(
            .formatUnavailable,
            "the camera cannot store \(wanted); it offers \(qualities.map(\.description).joined(separator: ", "))")
    }
}

extension CameraControl.CameraSettings {
    /// The definition of `code`: the catalog's, or an unnamed one.
    func definition(for code: DevicePropertyCode) -> PropertyDefinition {
        catalog.definition(for: code, vendor: vendor) ?? .unnamed(code, vendor: vendor)
    }
}
