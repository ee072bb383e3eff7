/// A light source as EXIF and DNG number it (EXIF 2.32 §LightSource; DNG CalibrationIlluminant1/2).
public struct LightSource: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Unknown (0).
    public static let unknown = LightSource(rawValue: 0)
    /// Daylight (1).
    public static let daylight = LightSource(rawValue: 1)
    /// Fluorescent (2).
    public static let fluorescent = LightSource(rawValue: 2)
    /// Tungsten, incandescent light (3).
    public static let tungsten = LightSource(rawValue: 3)
    /// Flash (4).
    public static let flash = LightSource(rawValue: 4)
    /// Standard light A, 2856 K (17).
    public static let standardA = LightSource(rawValue: 17)
    /// D55 (20).
    public static let d55 = LightSource(rawValue: 20)
    /// D65 (21).
    public static let d65 = LightSource(rawValue: 21)
    /// D50 (23).
    public static let d50 = LightSource(rawValue: 23)

    public var description: String {
        switch rawValue {
        case 0: "Unknown"
        case 1: "Daylight"
        case 2: "Fluorescent"
        case 3: "Tungsten"
        case 4: "Flash"
        case 17: "Standard Light A"
        case 20: "D55"
        case 21: "D65"
        case 23: "D50"
        default: "LightSource(\(rawValue))"
        }
    }
}

/// A 3×3 matrix, row-major, as DNG stores ColorMatrix and ForwardMatrix for a three-colour sensor.
public struct Matrix3: Hashable, Sendable, Codable {
    /// Nine entries, row by row.
    public var values: [Double]

    /// Creates a matrix from nine row-major entries; throws for any other count or a non-finite entry.
    public init(_ values: [Double]) throws(RawImageError) {
        guard values.count == 9, values.allSatisfy(\.isFinite) else {
            throw RawImageError(.invalidColor, "a 3×3 matrix needs 9 finite entries, got \(values)")
        }
        self.values = values
    }

    private init(unchecked values: [Double]) { self.values = values }

    /// The identity matrix.
    public static let identity = Matrix3(unchecked: [1, 0, 0, 0, 1, 0, 0, 0, 1])

    /// The entry at `row`, `column`.
    public subscript(row: Int, column: Int) -> Double { values[row * 3 + column] }

    /// The matrix product `self × other`.
    public static func * (lhs: Matrix3, rhs: Matrix3) -> Matrix3 {
        var result = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for column in 0..<3 {
                result[row * 3 + column] = (0..<3).reduce(0) { $0 + lhs[row, $1] * rhs[$1, column] }
            }
        }
        return Matrix3(unchecked: result)
    }

    /// The matrix applied to a column vector.
    public func apply(_ vector: (Double, Double, Double)) -> (Double, Double, Double) {
        (
            values[0] * vector.0 + values[1] * vector.1 + values[2] * vector.2,
            values[3] * vector.0 + values[4] * vector.1 + values[5] * vector.2,
            values[6] * vector.0 + values[7] * vector.1 + values[8] * vector.2
        )
    }

    /// The inverse, or `nil` when the matrix is singular.
    public var inverse: Matrix3? {
        let m = values
        let c00 = m[4] * m[8] - m[5] * m[7]
        let c01 = m[5] * m[6] - m[3] * m[8]
        let c02 = m[3] * m[7] - m[4] * m[6]
        let det = m[0] * c00 + m[1] * c01 + m[2] * c02
        guard abs(det) > 1e-12 else { return nil }
        let inv: [Double] = [
            c00, m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            c01, m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            c02, m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        return Matrix3(unchecked: inv.map { $0 / det })
    }

    /// Linear sRGB (D65) to CIE XYZ (IEC 61966-2-1).
    public static let sRGBToXYZ = Matrix3(unchecked: [
        0.4124564, 0.3575761, 0.1804375,
        0.2126729, 0.7151522, 0.0721750,
        0.0193339, 0.1191920, 0.9503041,
    ])
    /// CIE XYZ to linear sRGB (D65) (IEC 61966-2-1).
    public static let xyzToSRGB = Matrix3(unchecked: [
        3.2404542, -1.5371385, -0.4985314,
        -0.9692660, 1.8760108, 0.0415560,
        0.0556434, -0.2040259, 1.0572252,
    ])
}

/// How the sensor's colours relate to CIE XYZ, and the white balance at capture: the DNG colour tags.
///
/// `colorMatrix1` maps XYZ to reference camera space under `illuminant1` (DNG ColorMatrix1 and
/// CalibrationIlluminant1); a second matrix and illuminant allow interpolation by colour temperature.
/// `asShotNeutral` is the camera's response to a neutral (grey) surface under the shot's light, normalised so the
/// largest entry is 1 (DNG AsShotNeutral).
public struct ColorCalibration: Hashable, Sendable, Codable {
    /// XYZ → camera under ``illuminant1`` (DNG ColorMatrix1, required for colour DNGs).
    public var colorMatrix1: Matrix3
    /// The light ``colorMatrix1`` was measured under (DNG CalibrationIlluminant1).
    public var illuminant1: LightSource
    /// XYZ → camera under ``illuminant2`` (DNG ColorMatrix2), when known.
    public var colorMatrix2: Matrix3?
    /// The light ``colorMatrix2`` was measured under (DNG CalibrationIlluminant2).
    public var illuminant2: LightSource?
    /// White-balanced camera → XYZ D50 under ``illuminant1`` (DNG ForwardMatrix1), when known.
    public var forwardMatrix1: Matrix3?
    /// White-balanced camera → XYZ D50 under ``illuminant2`` (DNG ForwardMatrix2), when known.
    public var forwardMatrix2: Matrix3?
    /// The camera-space neutral at capture, one entry per colour, largest 1 (DNG AsShotNeutral).
    public var asShotNeutral: [Double]
    /// Exposure shift in EV a renderer should apply (DNG BaselineExposure).
    public var baselineExposure: Double

    /// Creates a calibration; throws when the neutral does not have three positive entries.
    public init(
        colorMatrix1: Matrix3,
        illuminant1: LightSource,
        colorMatrix2: Matrix3? = nil,
        illuminant2: LightSource? = nil,
        forwardMatrix1: Matrix3? = nil,
        forwardMatrix2: Matrix3? = nil,
        asShotNeutral: [Double],
        baselineExposure: Double = 0
    ) throws(RawImageError) {
        guard asShotNeutral.count == 3, asShotNeutral.allSatisfy({ $0 > 0 && $0.isFinite }) else {
            throw RawImageError(.invalidColor, "AsShotNeutral needs 3 positive entries, got \(asShotNeutral)")
        }
        guard baselineExposure.isFinite else { throw RawImageError(.invalidColor, "BaselineExposure is not finite") }
        guard (colorMatrix2 == nil) == (illuminant2 == nil) else {
            throw RawImageError(.invalidColor, "ColorMatrix2 and CalibrationIlluminant2 go together")
        }
        self.colorMatrix1 = colorMatrix1
        self.illuminant1 = illuminant1
        self.colorMatrix2 = colorMatrix2
        self.illuminant2 = illuminant2
        self.forwardMatrix1 = forwardMatrix1
        self.forwardMatrix2 = forwardMatrix2
        self.asShotNeutral = asShotNeutral
        self.baselineExposure = baselineExposure
    }

    /// A neutral calibration: camera space is XYZ and the neutral is flat. Used when a source file carries no
    /// colour information; renderings look plausible, not accurate.
    public static let uncalibrated: ColorCalibration = {
        // Camera space = linear sRGB, so XYZ → camera is the sRGB matrix; the neutral of D65 white is (1, 1, 1).
        do {
            return try ColorCalibration(colorMatrix1: .xyzToSRGB, illuminant1: .d65, asShotNeutral: [1, 1, 1])
        } catch {
            preconditionFailure("built-in calibration is valid: \(error)")
        }
    }()
}
