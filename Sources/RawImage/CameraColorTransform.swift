/// The colour conversion a renderer needs for one shot, worked out from DNG's colour tags: white-balance gains
/// from AsShotNeutral, and one matrix from white-balanced camera RGB to linear sRGB (D65).
///
/// It follows DNG 1.7 §"Mapping Camera Color Space to CIE XYZ Space" with AnalogBalance and CameraCalibration
/// taken as identity (rawcap's frames carry neither):
///
/// 1. **White point.** The as-shot neutral is mapped to XYZ through the inverse of the colour matrix, the
///    matrix interpolated for that XYZ's correlated colour temperature, and so on until the chromaticity settles
///    (the spec's iteration). With two calibrations, the weight of ColorMatrix1 is
///    `(1/T − 1/T₂) / (1/T₁ − 1/T₂)`, clamped to 0…1: linear in inverse temperature (mireds), as the spec says.
/// 2. **Camera → XYZ.** With ForwardMatrix tags: `XYZ_D50 = ForwardMatrix × diag(1/neutral) × camera`, then
///    Bradford from D50 to D65. Without: `XYZ = ColorMatrix⁻¹ × camera`, then Bradford from the white point to
///    D65. Either way a neutral lands exactly on D65 white.
/// 3. **XYZ → sRGB** with the IEC 61966-2-1 matrix.
///
/// The matrix is scaled so that a white-balanced (1, 1, 1), a surface as bright as the clipping point, maps to
/// sRGB luminance 1.
public struct CameraColorTransform: Hashable, Sendable {
    /// Multipliers that turn camera values into white-balanced ones: `1 / AsShotNeutral`, so the smallest is 1.
    public let whiteBalanceGains: (Double, Double, Double)
    /// White-balanced camera RGB → linear sRGB (D65). Rows sum to about 1.
    public let cameraToSRGB: Matrix3
    /// The chromaticity of the as-shot white.
    public let whitePoint: Chromaticity
    /// The correlated colour temperature of ``whitePoint``, in kelvin.
    public var correlatedColorTemperature: Double { whitePoint.correlatedColorTemperature }
    /// The weight given to ColorMatrix1/ForwardMatrix1 (1 when there is only one calibration).
    public let calibrationWeight: Double

    /// Works out the transform; throws when a matrix is singular or the neutral maps to no colour.
    public init(_ calibration: ColorCalibration) throws(RawImageError) {
        let neutral = try calibration.validatedNeutral()
        let largest = max(neutral.0, neutral.1, neutral.2)
        whiteBalanceGains = (largest / neutral.0, largest / neutral.1, largest / neutral.2)

        let temperatures: (Double, Double)? = {
            guard calibration.colorMatrix2 != nil, let first = calibration.illuminant1.correlatedColorTemperature,
                let second = calibration.illuminant2?.correlatedColorTemperature, first != second
            else { return nil }
            return (first, second)
        }()
        func weight(for cct: Double) -> Double {
            guard let (first, second) = temperatures else { return 1 }
            let w = (1 / cct - 1 / second) / (1 / first - 1 / second)
            return min(max(w, 0), 1)
        }
        func colorMatrix(weight: Double) -> Matrix3 {
            guard let second = calibration.colorMatrix2 else { return calibration.colorMatrix1 }
            return calibration.colorMatrix1.blended(with: second, weight: weight)
        }

        // Step 1: iterate white point ↔ matrix until the chromaticity stops moving.
        var w = temperatures == nil ? 1.0 : 0.5
        var white = Chromaticity.d50
        for _ in 0..<50 {
            guard let inverse = colorMatrix(weight: w).inverse else {
                throw RawImageError(.invalidColor, "ColorMatrix is singular at weight \(w)")
            }
            guard let next = Chromaticity(xyz: inverse.apply(neutral)) else {
                throw RawImageError(.invalidColor, "AsShotNeutral \(calibration.asShotNeutral) maps to no colour")
            }
            let settled = abs(next.x - white.x) < 1e-9 && abs(next.y - white.y) < 1e-9
            white = next
            w = weight(for: white.correlatedColorTemperature)
            if settled || temperatures == nil { break }
        }
        whitePoint = white
        calibrationWeight = w

        // Step 2: camera → XYZ (D65-adapted) for white-balanced input.
        let whiteBalancedToXYZ: Matrix3
        if let forward1 = calibration.forwardMatrix1 {
            let forward = calibration.forwardMatrix2.map { forward1.blended(with: $0, weight: w) } ?? forward1
            whiteBalancedToXYZ = Matrix3.bradford(from: .d50, to: .d65) * forward
        } else {
            guard let cameraToXYZ = colorMatrix(weight: w).inverse else {
                throw RawImageError(.invalidColor, "ColorMatrix is singular")
            }
            // A white-balanced value v is the camera value v × neutral; undo the gains, then map to XYZ.
            whiteBalancedToXYZ =
                Matrix3.bradford(from: white, to: .d65) * cameraToXYZ
                * Matrix3.diagonal((neutral.0 / largest, neutral.1 / largest, neutral.2 / largest))
        }
        // Step 3: XYZ → linear sRGB, scaled so that white-balanced (1, 1, 1) has luminance 1.
        let luminance = whiteBalancedToXYZ.rowSums.1
        guard luminance > 0, luminance.isFinite else {
            throw RawImageError(.invalidColor, "the calibration maps white to luminance \(luminance)")
        }
        let matrix = (Matrix3.xyzToSRGB * whiteBalancedToXYZ).scaled(by: 1 / luminance)
        guard matrix.isFinite else { throw RawImageError(.invalidColor, "camera → sRGB matrix is not finite") }
        cameraToSRGB = matrix
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.whiteBalanceGains == rhs.whiteBalanceGains && lhs.cameraToSRGB == rhs.cameraToSRGB
            && lhs.whitePoint == rhs.whitePoint && lhs.calibrationWeight == rhs.calibrationWeight
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(cameraToSRGB)
        hasher.combine(whitePoint)
    }
}

extension ColorCalibration {
    /// AsShotNeutral as three positive, finite numbers whose ratios stay finite: the fields are public and
    /// mutable, so the initializer's check may no longer hold (a reader may also have filled them from a file).
    func validatedNeutral() throws(RawImageError) -> (Double, Double, Double) {
        guard asShotNeutral.count == 3, asShotNeutral.allSatisfy({ $0.isFinite && $0 > 0 }),
            let largest = asShotNeutral.max(), let smallest = asShotNeutral.min(), largest / smallest < 1e6
        else {
            throw RawImageError(.invalidColor, "AsShotNeutral needs 3 positive entries, got \(asShotNeutral)")
        }
        return (asShotNeutral[0], asShotNeutral[1], asShotNeutral[2])
    }
}
