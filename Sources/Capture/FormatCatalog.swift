import PTP

/// What a camera can deliver, read from its properties, and the choice of a ``ResolvedFormat`` for a request.
///
/// The catalog comes from the profile's quality property (which of RAW, RAW+JPEG, JPEG it offers) and raw bit depth
/// property (which depths); a camera whose profile knows neither is taken at its word: it offers raw when its
/// DeviceInfo lists a raw capture format, at whatever depth it is set to.
public struct FormatCatalog: Hashable, Sendable {
    /// Qualities the camera offers (empty when it has no quality property rawcap knows).
    public var qualities: [ShotQuality]
    /// The quality it is set to, when known.
    public var currentQuality: ShotQuality?
    /// Raw bit depths it offers, ascending (empty when it has no depth property).
    public var rawBitDepths: [Int]
    /// Whether it can deliver a raw object at all.
    public var offersRaw: Bool
    /// Whether it can deliver a JPEG.
    public var offersJPEG: Bool

    /// Creates a catalog.
    public init(
        qualities: [ShotQuality], currentQuality: ShotQuality?, rawBitDepths: [Int], offersRaw: Bool,
        offersJPEG: Bool
    ) {
        self.qualities = qualities
        self.currentQuality = currentQuality
        self.rawBitDepths = rawBitDepths.sorted()
        self.offersRaw = offersRaw
        self.offersJPEG = offersJPEG
    }

    /// Reads the catalog from the camera.
    public static func read(
        deviceInfo: DeviceInfo, profile: CameraProfile, settings: CameraSettings
    ) async throws -> FormatCatalog {
        var qualities: [ShotQuality] = []
        var current: ShotQuality?
        if let code = profile.qualityProperty, deviceInfo.devicePropertiesSupported.contains(code) {
            let description = try await settings.description(of: code)
            if case .enumeration(let values) = description.form {
                qualities = ShotQuality.allCases.filter { quality in
                    values.contains { profile.quality(for: $0) == quality }
                }
            }
            current = profile.quality(for: description.currentValue)
        }
        var depths: [Int] = []
        if let code = profile.rawBitDepthProperty, deviceInfo.devicePropertiesSupported.contains(code) {
            let description = try await settings.description(of: code)
            if case .enumeration(let values) = description.form {
                depths = values.compactMap(\.integerValue).filter { (8...16).contains($0) }
            }
        }
        let rawFormats: Set<ObjectFormatCode> = [.tiffEP, .dng]
        let listsRaw = !rawFormats.isDisjoint(with: deviceInfo.captureFormats + deviceInfo.imageFormats)
        let offersRaw = qualities.isEmpty ? listsRaw : qualities.contains { $0.includesRaw }
        let offersJPEG =
            qualities.isEmpty
            ? (deviceInfo.captureFormats + deviceInfo.imageFormats).contains(.exifJPEG)
            : qualities.contains { $0.includesJPEG }
        return FormatCatalog(
            qualities: qualities, currentQuality: current, rawBitDepths: depths, offersRaw: offersRaw,
            offersJPEG: offersJPEG)
    }

    /// The `--format` values this camera can satisfy.
    public var offered: [OutputFormat] {
        var formats: [OutputFormat] = []
        if offersRaw {
            formats.append(.auto)
            if rawBitDepths.isEmpty {
                formats += [.bayer12, .bayer14, .bayer16]  // the camera's own depth; checked per frame
            } else {
                formats += [OutputFormat.bayer12, .bayer14, .bayer16].filter {
                    rawBitDepths.contains($0.bayerBitDepth ?? 0)
                }
            }
            formats += [.linear, .tiff]
        }
        if offersJPEG { formats.append(.jpeg) }
        return formats
    }

    /// Chooses what to produce for `format`.
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/formatUnavailable`` listing what the camera can give.
    public func resolve(_ format: OutputFormat) throws -> ResolvedFormat {
        func unavailable(_ why: String) -> CaptureError {
            let list = offered.map(\.rawValue).joined(separator: ", ")
            return CaptureError(
                .formatUnavailable, "\(why); this camera can give: \(list.isEmpty ? "nothing rawcap can save" : list)")
        }
        if format.needsRaw, !offersRaw { throw unavailable("--format \(format) needs raw and the camera offers none") }
        switch format {
        case .auto:
            if let deepest = rawBitDepths.last {
                return ResolvedFormat(
                    product: .bayer, rawBitDepth: deepest, linearFallback: true,
                    reason: "auto: Bayer \(deepest)-bit, the deepest raw the camera offers")
            }
            return ResolvedFormat(
                product: .bayer, rawBitDepth: nil, linearFallback: true,
                reason: "auto: Bayer at the camera's raw bit depth")
        case .bayer12, .bayer14, .bayer16:
            let depth = format.bayerBitDepth ?? 0
            if !rawBitDepths.isEmpty, !rawBitDepths.contains(depth) {
                throw unavailable("the camera has no \(depth)-bit raw (it offers \(rawBitDepths.map(String.init).joined(separator: ", ")) bits)")
            }
            return ResolvedFormat(
                product: .bayer, rawBitDepth: rawBitDepths.isEmpty ? nil : depth, reason: "\(format) requested")
        case .linear:
            return ResolvedFormat(
                product: .linear, rawBitDepth: rawBitDepths.last, reason: "linear requested: demosaiced from raw")
        case .tiff:
            return ResolvedFormat(
                product: .tiff, rawBitDepth: rawBitDepths.last, reason: "tiff requested: rendered from raw")
        case .jpeg:
            guard offersJPEG else { throw unavailable("the camera offers no JPEG") }
            return ResolvedFormat(product: .jpeg, rawBitDepth: nil, reason: "jpeg requested: the camera's JPEG")
        }
    }

    /// The quality to set for a run producing `format`, keeping the JPEG when `keepJPEG`; `nil` leaves the
    /// camera's setting (it has no quality property rawcap knows).
    public func quality(for format: ResolvedFormat, keepJPEG: Bool) throws -> ShotQuality? {
        guard !qualities.isEmpty else { return nil }
        let wanted: ShotQuality =
            format.product == .jpeg ? .jpeg : (keepJPEG ? .rawPlusJPEG : (currentQuality == .rawPlusJPEG ? .rawPlusJPEG : .raw))
        if qualities.contains(wanted) { return wanted }
        if wanted == .raw, qualities.contains(.rawPlusJPEG) { return .rawPlusJPEG }
        throw CaptureError(
            .formatUnavailable,
            "the camera cannot store \(wanted); it offers \(qualities.map(\.description).joined(separator: ", "))")
    }
}
