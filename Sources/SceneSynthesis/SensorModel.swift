import RawImage

#if canImport(Glibc)
    import Glibc
#endif

/// The electronic behaviour of the emulated sensor: how much light saturates it, and how noisy it is.
///
/// Exposure follows ISO 12232's saturation-based speed: a photosite saturates at a focal-plane exposure of
/// `78 / ISO` lux·s, and the focal-plane exposure of a surface of luminance `L` is `0.65 · L · t / N²`
/// (ISO 12232 §A; `q = 0.65` for a typical lens). So the signal, as a fraction of the clipping level, is
///
///     fraction = 0.65 · L · t · ISO · 2^bias / (78 · N²)
///
/// which is linear in shutter time, ISO and `2^bias` and falls with the square of the f-number.
///
/// Noise has two parts, in units of the sample values (DN):
/// - **shot noise**: the photoelectron count is Poisson, so its variance equals its mean. At ISO `S` the sensor
///   saturates at `fullWellElectrons · min(1, 100 / S)` electrons (higher ISO is more analogue gain on fewer
///   electrons), so the variance in DN is `fraction · range² / saturationElectrons`;
/// - **read noise**: ``readNoiseElectrons`` before the gain (so it grows with ISO in DN) plus ``adcNoise``
///   after it (fixed in DN, given for a 14-bit range and scaled with the bit depth).
public struct SensorModel: Hashable, Sendable, Codable {
    /// Electrons a photosite holds at base ISO 100.
    public var fullWellElectrons: Double
    /// Read noise before the amplifier, in electrons (RMS).
    public var readNoiseElectrons: Double
    /// Noise added after the amplifier, in DN of a 14-bit range (RMS).
    public var adcNoise: Double

    /// Creates a sensor model.
    public init(fullWellElectrons: Double, readNoiseElectrons: Double, adcNoise: Double) {
        self.fullWellElectrons = fullWellElectrons
        self.readNoiseElectrons = readNoiseElectrons
        self.adcNoise = adcNoise
    }

    /// A modern APS-C-class CMOS sensor: 30 000 e⁻ full well, 2.5 e⁻ read noise, 1 DN (14-bit) ADC noise.
    public static let typical = SensorModel(fullWellElectrons: 30_000, readNoiseElectrons: 2.5, adcNoise: 1)

    /// No noise at all: every sample is exactly the expected signal, rounded. For demosaicing and colour tests.
    public static let noiseless = SensorModel(fullWellElectrons: .infinity, readNoiseElectrons: 0, adcNoise: 0)

    /// ISO 12232's saturation exposure constant (lux·s · ISO) and lens factor `q`.
    static let saturationConstant = 78.0
    static let lensFactor = 0.65

    /// The signal of a surface of `luminance` cd/m² as a fraction of the clipping level (may exceed 1).
    public static func signalFraction(luminance: Double, exposure: ExposureSettings) -> Double {
        lensFactor * luminance * exposure.exposureTimeSeconds * Double(exposure.iso)
            * exposure.exposureBiasFactor / (saturationConstant * exposure.fNumber * exposure.fNumber)
    }

    /// Electrons at the clipping level for `iso`.
    public func saturationElectrons(iso: Int) -> Double {
        fullWellElectrons * min(1, 100 / Double(max(iso, 1)))
    }

    /// The variance of shot noise per unit of signal fraction, in DN², for a `range` of sample values between
    /// black and white: the variance at a signal `fraction` is `fraction` times this.
    public func shotVariancePerFraction(range: Double, iso: Int) -> Double {
        let electrons = saturationElectrons(iso: iso)
        guard electrons.isFinite, electrons > 0 else { return 0 }
        return range * range / electrons
    }

    /// The read-noise variance in DN² for a `range` of sample values and `bitsPerSample`.
    public func readVariance(range: Double, iso: Int, bitsPerSample: Int) -> Double {
        let electrons = saturationElectrons(iso: iso)
        let dnPerElectron = electrons.isFinite && electrons > 0 ? range / electrons : 0
        let preAmplifier = readNoiseElectrons * dnPerElectron
        let afterAmplifier = adcNoise * pow(2, Double(bitsPerSample - 14))
        return preAmplifier * preAmplifier + afterAmplifier * afterAmplifier
    }

    /// The noise standard deviation in DN at a signal `fraction` of the clipping level: the model the
    /// synthetic scene samples from, for tests to compare measured noise against.
    public func noiseSigma(fraction: Double, range: Double, iso: Int, bitsPerSample: Int) -> Double {
        (max(fraction, 0) * shotVariancePerFraction(range: range, iso: iso)
            + readVariance(range: range, iso: iso, bitsPerSample: bitsPerSample)).squareRoot()
    }
}
