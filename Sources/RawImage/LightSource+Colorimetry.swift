/// Colour temperatures and white points of the EXIF light sources, for DNG's two-calibration interpolation.
extension LightSource {
    /// The correlated colour temperature DNG readers assign to this light source, in kelvin, or `nil` for
    /// unknown and non-standard codes.
    ///
    /// Values are the nominal temperatures of the EXIF 2.32 §LightSource definitions: the CIE illuminants' own
    /// (A 2856 K, B 4874 K, C 6774 K, D50/D55/D65/D75 at their CIE 15 temperatures) and the usual figures for the
    /// named fluorescent families (JIS Z 8719: daylight 6430 K, day white 5000 K, cool white 4150 K, white 3450 K,
    /// warm white 2940 K).
    public var correlatedColorTemperature: Double? {
        switch rawValue {
        case 1: 5500  // Daylight
        case 2: 4150  // Fluorescent (cool white)
        case 3: 2850  // Tungsten
        case 4: 5500  // Flash
        case 9: 5500  // Fine weather
        case 10: 6500  // Cloudy
        case 11: 7500  // Shade
        case 12: 6430  // Daylight fluorescent
        case 13: 5000  // Day white fluorescent
        case 14: 4150  // Cool white fluorescent
        case 15: 3450  // White fluorescent
        case 16: 2940  // Warm white fluorescent
        case 17: 2856  // Standard light A
        case 18: 4874  // Standard light B
        case 19: 6774  // Standard light C
        case 20: 5503  // D55
        case 21: 6504  // D65
        case 22: 7504  // D75
        case 23: 5003  // D50
        case 24: 3200  // ISO studio tungsten
        default: nil
        }
    }

    /// The white point of the CIE standard illuminants among the light sources (A, D50, D55, D65, D75), or `nil`.
    public var chromaticity: Chromaticity? {
        switch rawValue {
        case 17: .standardA
        case 20: .d55
        case 21: .d65
        case 22: .d75
        case 23: .d50
        default: nil
        }
    }
}
