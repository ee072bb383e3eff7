import RawImage
import TIFFVocabulary

extension TagContext {
    // MARK: Colour

    /// The colour tags of IFD 0 as a ``RawImage/ColorCalibration``: ColorMatrix1/2 with CalibrationIlluminant1/2,
    /// ForwardMatrix1/2, AsShotNeutral (or AsShotWhiteXY through ColorMatrix1) and BaselineExposure.
    ///
    /// `planeColors` maps the file's colour planes to red, green and blue (CFAPlaneColor); the matrices' plane
    /// rows (ColorMatrix) and columns (ForwardMatrix) and the neutral's entries are reordered to red, green, blue.
    /// Without ColorMatrix1 the result is ``RawImage/ColorCalibration/uncalibrated`` with the file's neutral.
    mutating func colorCalibration(planeColors: [Int]) -> ColorCalibration {
        // byPlane[colour] = the plane that carries that colour.
        var byPlane = [0, 1, 2]
        for (plane, color) in planeColors.enumerated() where (0..<3).contains(color) { byPlane[color] = plane }
        let colorMatrix1 = matrix(.colorMatrix1, planeRows: byPlane)
        let colorMatrix2 = matrix(.colorMatrix2, planeRows: byPlane)
        let forwardMatrix1 = matrix(.forwardMatrix1, planeColumns: byPlane)
        let forwardMatrix2 = matrix(.forwardMatrix2, planeColumns: byPlane)
        let illuminant1 = illuminant(.calibrationIlluminant1) ?? .unknown
        let illuminant2 = colorMatrix2.map { _ in illuminant(.calibrationIlluminant2) ?? .unknown }
        var neutral = [1.0, 1.0, 1.0]
        if let values = profileTag(.asShotNeutral)?.doubles {
            if values.count == 3, values.allSatisfy({ $0 > 0 && $0.isFinite }) {
                neutral = byPlane.map { values[$0] }
            } else {
                warnings.append("AsShotNeutral \(values) is unusable; using a flat neutral")
            }
        } else if let xy = profileTag(.asShotWhiteXY)?.doubles, let colorMatrix1 {
            if let computed = Self.neutral(whiteXY: xy, colorMatrix: colorMatrix1) {
                neutral = computed
            } else {
                warnings.append("AsShotWhiteXY \(xy) is unusable; using a flat neutral")
            }
        }
        let baselineExposure = profileTag(.baselineExposure)?.doubles?.first.flatMap { $0.isFinite ? $0 : nil } ?? 0
        do {
            return try ColorCalibration(
                colorMatrix1: colorMatrix1 ?? ColorCalibration.uncalibrated.colorMatrix1,
                illuminant1: colorMatrix1 == nil ? ColorCalibration.uncalibrated.illuminant1 : illuminant1,
                colorMatrix2: colorMatrix2, illuminant2: illuminant2, forwardMatrix1: forwardMatrix1,
                forwardMatrix2: forwardMatrix2, asShotNeutral: neutral, baselineExposure: baselineExposure)
        } catch {
            warnings.append("colour calibration is unusable (\(error)); using an uncalibrated one")
            return .uncalibrated
        }
    }

    /// A 3×3 matrix tag with its rows (ColorMatrix: XYZ → plane) reordered to red, green, blue.
    private mutating func matrix(_ tag: TIFFTag, planeRows byPlane: [Int]) -> Matrix3? {
        guard let values = matrixValues(tag) else { return nil }
        return try? Matrix3(byPlane.flatMap { plane in values[(plane * 3)..<(plane * 3 + 3)] })
    }

    /// A 3×3 matrix tag with its columns (ForwardMatrix: plane → XYZ) reordered to red, green, blue.
    private mutating func matrix(_ tag: TIFFTag, planeColumns byPlane: [Int]) -> Matrix3? {
        guard let values = matrixValues(tag) else { return nil }
        return try? Matrix3((0..<3).flatMap { row in byPlane.map { values[row * 3 + $0] } })
    }

    private mutating func matrixValues(_ tag: TIFFTag) -> [Double]? {
        guard let value = profileTag(tag) else { return nil }
        guard let values = value.doubles, values.count == 9, values.allSatisfy(\.isFinite),
            values.contains(where: { $0 != 0 })
        else {
            warnings.append("\(tag) \(value) is not a usable 3×3 matrix; ignored")
            return nil
        }
        return values
    }

    private func illuminant(_ tag: TIFFTag) -> LightSource? {
        profileTag(tag)?.integers?.first.flatMap { UInt16(exactly: $0) }.map(LightSource.init(rawValue:))
    }

    /// The camera neutral for a white point given as CIE xy: ColorMatrix × XYZ(x, y, Y = 1), largest entry 1.
    static func neutral(whiteXY: [Double], colorMatrix: Matrix3) -> [Double]? {
        guard whiteXY.count == 2, whiteXY[1] > 0, whiteXY[0] > 0, whiteXY[0] + whiteXY[1] < 1 else { return nil }
        let (x, y) = (whiteXY[0], whiteXY[1])
        let camera = colorMatrix.apply((x / y, 1, (1 - x - y) / y))
        let values = [camera.0, camera.1, camera.2]
        guard let largest = values.max(), largest > 0, values.allSatisfy({ $0 > 0 && $0.isFinite }) else { return nil }
        return values.map { $0 / largest }
    }

    /// ProfileToneCurve (DNG 1.2, tag 50940) as (x, y) pairs, when it runs from (0, 0) to (1, 1).
    mutating func profileToneCurve() -> [(x: Double, y: Double)]? {
        guard let values = profileTag(.profileToneCurve)?.doubles else { return nil }
        guard values.count >= 4, values.count % 2 == 0, values.first == 0, values[1] == 0,
            values[values.count - 2] == 1, values[values.count - 1] == 1
        else {
            warnings.append("ProfileToneCurve does not run from (0, 0) to (1, 1); ignored")
            return nil
        }
        return stride(from: 0, to: values.count, by: 2).map { (x: values[$0], y: values[$0 + 1]) }
    }

    // MARK: Capture metadata

    /// Make, Model, UniqueCameraModel, serial number, lens, exposure, time and orientation.
    mutating func captureMetadata() -> CaptureMetadata {
        var metadata = CaptureMetadata()
        metadata.make = profileTag(.make)?.string
        metadata.model = profileTag(.model)?.string
        metadata.uniqueCameraModel = profileTag(.uniqueCameraModel)?.string
        metadata.serialNumber = profileTag(.cameraSerialNumber)?.string ?? exifTag(.bodySerialNumber)?.string
        metadata.lensModel = exifTag(.lensModel)?.string
        if let seconds = exifTag(.exposureTime)?.doubles?.first, seconds > 0 {
            metadata.exposureTime = Self.exposureRational(seconds)
        }
        if let fNumber = exifTag(.fNumber)?.doubles?.first, fNumber > 0, fNumber.isFinite {
            metadata.fNumber = (fNumber * 100).rounded() / 100
        }
        if let iso = exifTag(.photographicSensitivity)?.integers?.first, let value = Int(exactly: iso), value > 0 {
            metadata.iso = value
        }
        if let bias = exifTag(.exposureBiasValue)?.doubles?.first {
            metadata.exposureBias = Rational(approximating: bias, maxDenominator: 100)
        }
        if let focal = exifTag(.focalLength)?.doubles?.first, focal > 0, focal.isFinite {
            metadata.focalLength = (focal * 100).rounded() / 100
        }
        if let text = exifTag(.dateTimeOriginal)?.string {
            metadata.captureTime = Self.captureTime(
                text, subSeconds: exifTag(.subSecTimeOriginal)?.string, offset: exifTag(.offsetTimeOriginal)?.string)
            if metadata.captureTime == nil { warnings.append("DateTimeOriginal \"\(text)\" is malformed; ignored") }
        }
        // XMP is BYTE (libtiff hands it over as integers) or, from some writers, UNDEFINED.
        switch ifd0[.xmp] {
        case .bytes(let packet)?: metadata.focusStep = Self.xmpInteger(packet, "rawcap:FocusStep")
        case .integers(let values)?:
            metadata.focusStep = Self.xmpInteger(values.map { UInt8(truncatingIfNeeded: $0) }, "rawcap:FocusStep")
        default: break
        }
        if let value = ifd0.orientation ?? raw.orientation {
            if let orientation = Orientation(rawValue: value) {
                metadata.orientation = orientation
            } else {
                warnings.append("Orientation \(value) is outside 1…8; using normal")
            }
        }
        return metadata
    }

    /// The integer value of the simple XMP property `name` in `packet`, written as an attribute (`name="-20"`, as
    /// rawcap writes it) or as an element (`<name>-20</name>`, as tools that rewrite XMP may); `nil` when it is
    /// absent or not a small integer.
    static func xmpInteger(_ packet: [UInt8], _ name: String) -> Int? {
        let text = String(decoding: packet, as: UTF8.self)
        for opener in [name + "=\"", name + "='", "<" + name + ">"] {
            guard let found = text.firstRange(of: opener) else { continue }
            let digits = text[found.upperBound...].prefix { $0 == "-" || $0.isASCII && $0.isNumber }.prefix(8)
            if let value = Int(digits) { return value }
        }
        return nil
    }

    /// An exposure time as the fraction photographers use: `1/n` below a second, else the closest simple fraction.
    ///
    /// libtiff hands rationals over as `float`, so 1/3 s arrives as 0.33333334; rounding the reciprocal recovers the
    /// fraction the camera wrote.
    static func exposureRational(_ seconds: Double) -> Rational? {
        guard seconds.isFinite, seconds > 0, seconds < 1e6 else { return nil }
        if seconds < 1 {
            let reciprocal = 1 / seconds
            if abs(reciprocal - reciprocal.rounded()) < 1e-3 * reciprocal, reciprocal.rounded() < Double(Int32.max) {
                return Rational(1, Int32(reciprocal.rounded()))
            }
        }
        return Rational(approximating: seconds, maxDenominator: 1000)
    }

    /// Parses EXIF `YYYY:MM:DD HH:MM:SS` with SubSecTimeOriginal digits and an OffsetTimeOriginal `±HH:MM`.
    static func captureTime(_ text: String, subSeconds: String?, offset: String?) -> CaptureTime? {
        let fields = text.split(whereSeparator: { $0 == ":" || $0 == " " }).compactMap { Int($0) }
        guard fields.count == 6 else { return nil }
        var offsetMinutes: Int?
        if let offset, offset.count == 6, let sign = offset.first, sign == "+" || sign == "-" {
            let parts = offset.dropFirst().split(separator: ":").compactMap { Int($0) }
            if parts.count == 2 { offsetMinutes = (sign == "-" ? -1 : 1) * (parts[0] * 60 + parts[1]) }
        }
        let digits = (subSeconds ?? "").filter { $0.isASCII && $0.isNumber }
        return try? CaptureTime(
            year: fields[0], month: fields[1], day: fields[2], hour: fields[3], minute: fields[4], second: fields[5],
            subSeconds: String(digits.prefix(9)), utcOffsetMinutes: offsetMinutes)
    }
}
