import CameraControl

/// The format a shoot actually produces, once negotiated with the camera (``choose(_:from:)``).
public struct ResolvedFormat: Hashable, Sendable, CustomStringConvertible {
    /// What each shot's raw object becomes.
    public enum Product: Hashable, Sendable {
        /// A CFA DNG; falls back to LinearRaw when `linearFallback` and the raw is not CFA data.
        case bayer
        /// A LinearRaw DNG.
        case linear
        /// A 16-bit RGB TIFF.
        case tiff
        /// The camera's JPEG only.
        case jpeg
    }

    /// What each shot becomes.
    public var product: Product
    /// The raw bit depth to select on the camera, or `nil` to leave the camera's setting.
    public var rawBitDepth: Int?
    /// The bit depth asked for on a camera that cannot be told one (no raw bit depth property: Canon EOS, Sony,
    /// Fujifilm bodies write raw files at their own depth): not set, but each frame is checked against it.
    public var expectedBitDepth: Int?
    /// `auto` only: write a linear DNG (with a warning) when the raw object is not Bayer CFA data.
    public var linearFallback: Bool
    /// Why this choice, for the log and the journal (e.g. "auto: Bayer 16-bit, the deepest the camera offers").
    public var reason: String

    /// Creates a resolution.
    public init(
        product: Product, rawBitDepth: Int?, expectedBitDepth: Int? = nil, linearFallback: Bool = false,
        reason: String = ""
    ) {
        self.product = product
        self.rawBitDepth = rawBitDepth
        self.expectedBitDepth = expectedBitDepth
        self.linearFallback = linearFallback
        self.reason = reason
    }

    /// `bayer14`, `linear`, `jpeg`, `tiff`, or `bayer` when the depth is the camera's.
    public var description: String {
        switch product {
        case .bayer: (rawBitDepth ?? expectedBitDepth).map { "bayer\($0)" } ?? "bayer"
        case .linear: "linear"
        case .tiff: "tiff"
        case .jpeg: "jpeg"
        }
    }
}

extension ResolvedFormat {
    /// Chooses what to produce for `format` from the camera's raw format catalog (CameraControl decides `auto`).
    ///
    /// `tiff` is rendered by rawcap from the purest raw the camera offers; `linear` is the camera's own linear
    /// DNG or a demosaiced Bayer frame.
    ///
    /// - Throws: ``CaptureError/Code-swift.struct/formatUnavailable`` listing what the camera can give.
    public static func choose(_ format: OutputFormat, from catalog: RawFormatCatalog) throws -> ResolvedFormat {
        func unavailable(_ why: String) -> CaptureError {
            var offered = catalog.formats.filter { $0 != .bayer && $0 != .tiff }.map(\.rawValue)
            if catalog.formats.contains(where: \.isRaw) { offered.insert("auto", at: 0) }
            if catalog.formats.contains(where: \.isBayer) { offered.append("tiff") }
            return CaptureError(
                .formatUnavailable,
                "\(why); this camera can give: \(offered.isEmpty ? "nothing rawcap can save" : offered.joined(separator: ", "))"
            )
        }
        let request: RawFormatRequest
        switch format {
        case .auto, .tiff: request = .auto
        case .bayer12: request = .format(.bayer12)
        case .bayer14: request = .format(.bayer14)
        case .bayer16: request = .format(.bayer16)
        case .linear: request = .format(.linear)
        case .jpeg: request = .format(.jpeg)
        }
        // bayer12/14/16 on a camera without a depth setting: its Bayer raw at whatever depth it writes (a Canon
        // 5D Mark IV's CR2 is always 14-bit), checked frame by frame, rather than a refusal.
        if case .format(let asked) = request, asked.isBayer, !catalog.formats.contains(asked),
            let fixed = catalog.offers.first(where: { $0.format == .bayer }), let depth = asked.bitDepth
        {
            return ResolvedFormat(
                product: .bayer, rawBitDepth: nil, expectedBitDepth: depth,
                reason: "\(asked): asked for; the camera has no raw bit depth setting, so it writes \(fixed.note)"
                    + " and each frame's depth is checked against \(depth) bits")
        }
        let choice: RawFormatCatalog.Choice
        do {
            choice = try catalog.choose(request)
        } catch {
            throw unavailable("--format \(format): \(error.detail)")
        }
        let depth = choice.offer.settings.isEmpty ? nil : choice.offer.bitDepth
        switch (format, choice.offer.format) {
        case (.jpeg, _):
            return ResolvedFormat(product: .jpeg, rawBitDepth: nil, reason: choice.reason)
        case (.tiff, let chosen) where chosen.isBayer:
            return ResolvedFormat(product: .tiff, rawBitDepth: depth, reason: "tiff: rendered from " + choice.reason)
        case (.tiff, _):
            throw unavailable("--format tiff is rendered from Bayer raw, and the camera offers none")
        case (.linear, _):
            return ResolvedFormat(product: .linear, rawBitDepth: nil, reason: choice.reason)
        case (_, let chosen) where chosen.isBayer:
            return ResolvedFormat(
                product: .bayer, rawBitDepth: depth, linearFallback: format == .auto, reason: choice.reason)
        case (.auto, .linear):
            return ResolvedFormat(product: .linear, rawBitDepth: nil, reason: choice.reason)
        default:
            throw unavailable("--format \(format) needs raw and the camera offers only \(choice.offer.format)")
        }
    }
}
