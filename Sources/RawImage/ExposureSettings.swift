#if canImport(Glibc)
    import Glibc
#endif

/// The exposure of one shot: shutter, aperture, ISO, exposure bias and focal length, as the camera reports them
/// (EXIF ExposureTime, FNumber, PhotographicSensitivity, ExposureBiasValue, FocalLength).
public struct ExposureSettings: Hashable, Sendable, Codable {
    /// Shutter time in seconds, e.g. 1/125.
    public var exposureTime: Rational
    /// Aperture f-number, e.g. 8.
    public var fNumber: Double
    /// ISO speed.
    public var iso: Int
    /// Exposure bias in EV. The emulated camera applies it as a change of exposure (a bracket of −2/0/+2 EV
    /// gives ¼×, 1× and 4× the light) and records it in EXIF, as an auto-exposure camera would.
    public var exposureBias: Rational
    /// Focal length in millimetres.
    public var focalLength: Double

    /// Creates settings after checking that every value is usable: a positive, finite shutter time up to an hour,
    /// f/0.5…f/256, ISO 1…1 638 400, bias within ±16 EV, focal length 1…10 000 mm.
    public init(
        exposureTime: Rational, fNumber: Double, iso: Int, exposureBias: Rational = .zero,
        focalLength: Double = 50
    ) throws(RawImageError) {
        let seconds = exposureTime.doubleValue
        guard seconds.isFinite, seconds > 0, seconds <= 3600 else {
            throw RawImageError(.invalidSettings, "exposure time \(exposureTime) s")
        }
        guard fNumber.isFinite, (0.5...256).contains(fNumber) else {
            throw RawImageError(.invalidSettings, "f-number \(fNumber)")
        }
        guard (1...1_638_400).contains(iso) else { throw RawImageError(.invalidSettings, "ISO \(iso)") }
        let bias = exposureBias.doubleValue
        guard bias.isFinite, abs(bias) <= 16 else {
            throw RawImageError(.invalidSettings, "exposure bias \(exposureBias) EV")
        }
        guard focalLength.isFinite, (1...10_000).contains(focalLength) else {
            throw RawImageError(.invalidSettings, "focal length \(focalLength) mm")
        }
        self.exposureTime = exposureTime
        self.fNumber = fNumber
        self.iso = iso
        self.exposureBias = exposureBias
        self.focalLength = focalLength
    }

    /// 1/125 s at f/8, ISO 100, no bias, 50 mm: the metered exposure for the synthetic scene's default
    /// lighting (an 18 % grey card at 900 cd/m² meters at 1/112 s with ISO 2720's K = 12.5).
    public static let standard: ExposureSettings = {
        do {
            guard let time = Rational(1, 125) else { throw RawImageError(.invalidSettings) }
            return try ExposureSettings(exposureTime: time, fNumber: 8, iso: 100, exposureBias: .zero)
        } catch {
            preconditionFailure("built-in exposure settings are valid: \(error)")
        }
    }()

    /// The same settings with a different exposure bias, e.g. for a bracket.
    public func withExposureBias(_ bias: Rational) throws(RawImageError) -> ExposureSettings {
        try ExposureSettings(
            exposureTime: exposureTime, fNumber: fNumber, iso: iso, exposureBias: bias, focalLength: focalLength)
    }

    /// The shutter time in seconds.
    public var exposureTimeSeconds: Double { exposureTime.doubleValue }

    /// `2^bias`: the factor the bias multiplies the light by.
    public var exposureBiasFactor: Double { pow(2, exposureBias.doubleValue) }
}

extension Rational {
    /// Zero (0/1), e.g. no exposure bias.
    public static let zero: Rational = {
        guard let zero = Rational(0, 1) else { preconditionFailure("0/1 is a valid fraction") }
        return zero
    }()
}
