import RawImage

/// The colour response of rawcap's emulated camera: how its three filters see CIE XYZ under each calibration
/// illuminant, and the DNG colour tags that describe it.
///
/// The response is a linear model chosen to resemble a real Bayer sensor's: each filter sees a mixture of the sRGB
/// primaries (cross-talk ``crossTalkD65``), scaled by per-channel sensitivities so that D65 white gives the
/// neutral (0.47, 1, 0.66), as typical CMOS sensors do (red and blue far less sensitive than green). Under
/// Standard A the cross-talk differs slightly (``crossTalkA``), standing in for the metamerism that makes real
/// cameras need two calibrations. Everything is invertible and well conditioned (condition number about 3.5).
///
/// The synthetic scene produces its pixels with exactly these matrices, so the DNG colour tags are consistent
/// with the pixels by construction: a DNG renderer maps each chart patch back to its reference colour.
enum EmulatedCameraColor {
    /// Per-channel sensitivity: the camera response to D65 white of luminance 1.
    static let sensitivity = (0.47, 1.0, 0.66)

    /// Rows: how much of linear sRGB red, green and blue each filter passes under D65. Rows sum to 1.
    static let crossTalkD65 = Matrix3(computed: [
        0.70, 0.32, -0.02,
        0.12, 0.78, 0.10,
        0.02, 0.30, 0.68,
    ])

    /// The cross-talk under Standard A. Rows sum to 1.
    static let crossTalkA = Matrix3(computed: [
        0.72, 0.30, -0.02,
        0.13, 0.77, 0.10,
        0.03, 0.33, 0.64,
    ])

    /// XYZ (as lit by `illuminant`, luminance 1 for white) → camera RGB, before DNG's normalisation; its green
    /// row has about unit gain for neutrals, so a camera value is directly a fraction of luminance.
    static func xyzToCamera(_ illuminant: SceneIlluminant) -> Matrix3 {
        let crossTalk = illuminant == .d65 ? crossTalkD65 : crossTalkA
        return Matrix3.diagonal(sensitivity) * crossTalk * .xyzToSRGB
    }

    /// The DNG ColorMatrix for `illuminant`: ``xyzToCamera(_:)`` scaled so that D50 white maps to a camera value
    /// whose largest entry is 1, the normalisation the DNG SDK applies (`NormalizeColorMatrix`).
    static func colorMatrix(_ illuminant: SceneIlluminant) -> Matrix3 {
        let matrix = xyzToCamera(illuminant)
        let d50 = matrix.apply(Chromaticity.d50.xyz)
        return matrix.scaled(by: 1 / max(d50.0, d50.1, d50.2))
    }

    /// The camera's response to the illuminant's own white, largest entry 1: the AsShotNeutral of a shot lit
    /// by it.
    static func neutral(_ illuminant: SceneIlluminant) -> [Double] {
        let white = xyzToCamera(illuminant).apply(illuminant.chromaticity.xyz)
        let largest = max(white.0, white.1, white.2)
        return [white.0 / largest, white.1 / largest, white.2 / largest]
    }

    /// The DNG ForwardMatrix for `illuminant`: white-balanced camera → XYZ D50, mapping (1, 1, 1) to D50 white.
    static func forwardMatrix(_ illuminant: SceneIlluminant) -> Matrix3 {
        let neutral = neutral(illuminant)
        // The model matrices are fixed and invertible (checked by a test), so the fallback is never taken.
        let cameraToXYZ = xyzToCamera(illuminant).inverse ?? .identity
        let matrix =
            Matrix3.bradford(from: illuminant.chromaticity, to: .d50) * cameraToXYZ
            * .diagonal((neutral[0], neutral[1], neutral[2]))
        return matrix.scaled(by: 1 / matrix.rowSums.1)
    }

    /// The full calibration of a shot lit by `illuminant`: both calibrations (A first, as Adobe's profiles
    /// order them), forward matrices, the as-shot neutral and `baselineExposure`.
    static func calibration(for illuminant: SceneIlluminant, baselineExposure: Double) throws(RawImageError)
        -> ColorCalibration
    {
        try ColorCalibration(
            colorMatrix1: colorMatrix(.standardA), illuminant1: .standardA,
            colorMatrix2: colorMatrix(.d65), illuminant2: .d65,
            forwardMatrix1: forwardMatrix(.standardA), forwardMatrix2: forwardMatrix(.d65),
            asShotNeutral: neutral(illuminant), baselineExposure: baselineExposure)
    }
}
