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
    /// The property value that selects each of ``qualities``: the profile's first value for it that the camera
    /// enumerates. Empty when the quality is not set through a standard property (Canon EOS).
    public var values: [ShotQuality: PTPValue]
    /// Why the camera's values could not be read as qualities, when the body's numbering is unknown (a Nikon that
    /// neither its model nor its values identify): the quality then stays as set on the camera.
    public var undeterminedReason: String?
    /// Where ``values`` come from, for the debug log (a Nikon's numbering and the evidence for it).
    public var valuesReason: String?
    /// Why the camera's quality property could not be read although the camera lists it (it would not describe
    /// it): the quality then stays as set on the camera.
    public var refusalReason: String?

    /// Creates a catalog.
    public init(
        qualities: [ShotQuality], currentQuality: ShotQuality?, values: [ShotQuality: PTPValue] = [:],
        undeterminedReason: String? = nil
    ) {
        self.qualities = qualities
        self.currentQuality = currentQuality
        self.values = values
        self.undeterminedReason = undeterminedReason
    }

    /// Reads the qualities through `control`, with the values the profile gives this body
    /// (``CameraProfile/qualityValues(for:)``); a value the camera does not enumerate is never chosen.
    public static func read(profile: CameraProfile, control: CameraControl.CameraSettings) async throws -> FormatCatalog
    {
        guard let code = profile.qualityProperty, control.deviceInfo.devicePropertiesSupported.contains(code) else {
            return FormatCatalog(qualities: [], currentQuality: nil)
        }
        let description: DevicePropDesc
        do {
            description = try await control.descriptor(control.definition(for: code))
        } catch let error as CameraControlError where error.code == .refused {
            // A real Nikon D5500 lists CompressionSetting and yet answered GetDevicePropDesc with
            // DevicePropNotSupported in a recorded session: a shot that does not need the setting goes on.
            var catalog = FormatCatalog(qualities: [], currentQuality: nil)
            catalog.refusalReason = error.detail
            return catalog
        }
        let known: [CameraProfile.QualityValue]
        let reason: String
        switch profile.qualityValues(for: description) {
        case .values(let values, let why):
            (known, reason) = (values, why)
        case .undetermined(let reason):
            return FormatCatalog(qualities: [], currentQuality: nil, undeterminedReason: reason)
        }
        var values: [ShotQuality: PTPValue] = [:]
        if case .enumeration(let offered) = description.form {
            for entry in known where values[entry.quality] == nil && offered.contains(entry.value) {
                values[entry.quality] = entry.value
            }
        }
        var catalog = FormatCatalog(
            qualities: ShotQuality.allCases.filter { values[$0] != nil },
            currentQuality: known.first { $0.value == description.currentValue }?.quality, values: values)
        catalog.valuesReason = reason
        return catalog
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
