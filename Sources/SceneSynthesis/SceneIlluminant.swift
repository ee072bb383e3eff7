import RawImage

/// The light the synthetic scene is lit by. The emulated camera is calibrated under both (DNG
/// CalibrationIlluminant1 = Standard Light A, CalibrationIlluminant2 = D65), so either exercises DNG's
/// two-matrix interpolation at one of its ends.
public enum SceneIlluminant: String, Hashable, Sendable, CaseIterable, Codable {
    /// CIE D65 daylight, 6504 K.
    case d65
    /// CIE standard illuminant A, tungsten at 2856 K.
    case standardA

    /// The EXIF/DNG light source code.
    public var lightSource: LightSource {
        switch self {
        case .d65: .d65
        case .standardA: .standardA
        }
    }

    /// The illuminant's white point.
    public var chromaticity: Chromaticity {
        switch self {
        case .d65: .d65
        case .standardA: .standardA
        }
    }
}
