/// An exact fraction such as an exposure time of 1/125 s or an exposure bias of -1/3 EV.
public struct Rational: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The numerator.
    public var numerator: Int32
    /// The denominator; never zero for a value made with ``init(_:_:)``.
    public var denominator: Int32

    /// Creates `numerator / denominator`; returns `nil` when the denominator is zero.
    public init?(_ numerator: Int32, _ denominator: Int32) {
        guard denominator != 0 else { return nil }
        (self.numerator, self.denominator) = (numerator, denominator)
    }

    /// The value as a floating-point number.
    public var doubleValue: Double { Double(numerator) / Double(denominator) }

    /// The closest fraction to `value` with a denominator up to `maxDenominator` (continued fractions);
    /// `nil` for non-finite values or values beyond `Int32`.
    public init?(approximating value: Double, maxDenominator: Int32 = 100_000) {
        guard value.isFinite, abs(value) < Double(Int32.max) else { return nil }
        if value == value.rounded() {
            self.init(Int32(value), 1)
            return
        }
        var (h0, h1, k0, k1) = (0.0, 1.0, 1.0, 0.0)
        var x = value
        for _ in 0..<32 {
            let a = x.rounded(.down)
            let h2 = a * h1 + h0
            let k2 = a * k1 + k0
            if k2 > Double(maxDenominator) || abs(h2) > Double(Int32.max) { break }
            (h0, h1, k0, k1) = (h1, h2, k1, k2)
            let fraction = x - a
            if abs(h1 / k1 - value) < 1e-12 || fraction < 1e-12 { break }
            x = 1 / fraction
        }
        self.init(Int32(h1), Int32(k1))
    }

    /// `1/125` style for values below one, otherwise the reduced fraction or the whole number.
    public var description: String {
        denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)"
    }
}

/// When a frame was captured, to the sub-second, with the camera's offset from UTC when it is known.
///
/// Kept as the camera's wall-clock fields rather than an absolute instant, because cameras rarely know their
/// time zone: EXIF DateTimeOriginal, SubSecTimeOriginal and OffsetTimeOriginal carry exactly these.
public struct CaptureTime: Hashable, Sendable, Codable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// Fractional seconds as decimal digits, e.g. `"042"` for 0.042 s (EXIF SubSecTime keeps the digits).
    public var subSeconds: String
    /// Offset from UTC in minutes (east positive), when known.
    public var utcOffsetMinutes: Int?

    /// Creates a capture time; throws when a field is out of range or `subSeconds` is not all digits.
    public init(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
        subSeconds: String = "", utcOffsetMinutes: Int? = nil
    ) throws(RawImageError) {
        guard (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour),
            (0...59).contains(minute), (0...60).contains(second),
            subSeconds.count <= 9, subSeconds.allSatisfy({ $0.isASCII && $0.isNumber }),
            utcOffsetMinutes.map({ (-14 * 60...14 * 60).contains($0) }) ?? true
        else {
            throw RawImageError(.invalidLevels, "capture time out of range")
        }
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (
            year, month, day, hour, minute, second
        )
        self.subSeconds = subSeconds
        self.utcOffsetMinutes = utcOffsetMinutes
    }

    /// EXIF DateTimeOriginal form: `YYYY:MM:DD HH:MM:SS`.
    public var exifDateTime: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4)):\(pad(month, 2)):\(pad(day, 2)) \(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
    }

    /// EXIF OffsetTimeOriginal form: `+HH:MM`, or `nil` when the offset is unknown.
    public var exifOffset: String? {
        guard let utcOffsetMinutes else { return nil }
        let sign = utcOffsetMinutes < 0 ? "-" : "+"
        let magnitude = abs(utcOffsetMinutes)
        let hours = magnitude / 60
        let minutes = magnitude % 60
        return "\(sign)\(hours < 10 ? "0" : "")\(hours):\(minutes < 10 ? "0" : "")\(minutes)"
    }

    public var description: String {
        exifDateTime + (subSeconds.isEmpty ? "" : ".\(subSeconds)") + (exifOffset ?? "")
    }
}

/// How the image must be rotated or flipped for display, numbered as in TIFF/EXIF Orientation (1…8).
public struct Orientation: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: UInt16
    /// Creates an orientation; returns `nil` outside 1…8.
    public init?(rawValue: UInt16) {
        guard (1...8).contains(rawValue) else { return nil }
        self.rawValue = rawValue
    }
    private init(unchecked rawValue: UInt16) { self.rawValue = rawValue }

    /// Row 0 at the top, column 0 at the left (1).
    public static let normal = Orientation(unchecked: 1)
    /// Mirrored horizontally (2).
    public static let mirrorHorizontal = Orientation(unchecked: 2)
    /// Rotated 180° (3).
    public static let rotate180 = Orientation(unchecked: 3)
    /// Mirrored vertically (4).
    public static let mirrorVertical = Orientation(unchecked: 4)
    /// Mirrored along the top-left diagonal (5).
    public static let transpose = Orientation(unchecked: 5)
    /// Rotated 90° clockwise for display (6).
    public static let rotate90 = Orientation(unchecked: 6)
    /// Mirrored along the top-right diagonal (7).
    public static let transverse = Orientation(unchecked: 7)
    /// Rotated 270° clockwise (90° counter-clockwise) for display (8).
    public static let rotate270 = Orientation(unchecked: 8)

    public var description: String {
        switch rawValue {
        case 1: "normal"
        case 2: "mirror horizontal"
        case 3: "rotate 180"
        case 4: "mirror vertical"
        case 5: "transpose"
        case 6: "rotate 90 CW"
        case 7: "transverse"
        case 8: "rotate 270 CW"
        default: "Orientation(\(rawValue))"
        }
    }
}

/// What the camera knew about a shot: who made it, with what lens and settings, when, and which way up.
///
/// Every field is optional except orientation, because files from the wire and from other tools often lack some;
/// the DNG encoder writes what is present (TIFF Make/Model, DNG UniqueCameraModel and CameraSerialNumber, EXIF
/// exposure fields and dates).
public struct CaptureMetadata: Hashable, Sendable, Codable {
    /// Manufacturer (TIFF Make), e.g. `rawcap`.
    public var make: String?
    /// Model (TIFF Model).
    public var model: String?
    /// A non-localised name that identifies the camera model including its maker (DNG UniqueCameraModel).
    /// Defaults to `make model` when not given.
    public var uniqueCameraModel: String?
    /// Body serial number (DNG CameraSerialNumber, EXIF BodySerialNumber).
    public var serialNumber: String?
    /// Lens model (EXIF LensModel).
    public var lensModel: String?
    /// Exposure time in seconds (EXIF ExposureTime).
    public var exposureTime: Rational?
    /// Aperture as an f-number, e.g. 8 for f/8 (EXIF FNumber).
    public var fNumber: Double?
    /// ISO speed (EXIF PhotographicSensitivity / ISOSpeedRatings).
    public var iso: Int?
    /// Exposure bias in EV (EXIF ExposureBiasValue).
    public var exposureBias: Rational?
    /// Focal length in millimetres (EXIF FocalLength).
    public var focalLength: Double?
    /// When the frame was captured (EXIF DateTimeOriginal, SubSecTimeOriginal, OffsetTimeOriginal).
    public var captureTime: CaptureTime?
    /// Display orientation (TIFF Orientation, required in DNG).
    public var orientation: Orientation
    /// In a focus bracket, the lens's position when the frame was taken: drives of the smallest size from the
    /// bracket's first frame, negative towards near (the journal's `focusStep`). DNG has no tag for it; the writer
    /// puts it in the file's XMP packet as `rawcap:FocusStep`.
    public var focusStep: Int?

    /// Creates metadata; everything but orientation may be left out.
    public init(
        make: String? = nil, model: String? = nil, uniqueCameraModel: String? = nil, serialNumber: String? = nil,
        lensModel: String? = nil, exposureTime: Rational? = nil, fNumber: Double? = nil, iso: Int? = nil,
        exposureBias: Rational? = nil, focalLength: Double? = nil, captureTime: CaptureTime? = nil,
        orientation: Orientation = .normal, focusStep: Int? = nil
    ) {
        self.make = make
        self.model = model
        self.uniqueCameraModel = uniqueCameraModel
        self.serialNumber = serialNumber
        self.lensModel = lensModel
        self.exposureTime = exposureTime
        self.fNumber = fNumber
        self.iso = iso
        self.exposureBias = exposureBias
        self.focalLength = focalLength
        self.captureTime = captureTime
        self.orientation = orientation
        self.focusStep = focusStep
    }

    /// ``uniqueCameraModel`` when set, else `make model`, else `rawcap`.
    public var effectiveUniqueCameraModel: String {
        if let uniqueCameraModel, !uniqueCameraModel.isEmpty { return uniqueCameraModel }
        let joined = [make, model].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        return joined.isEmpty ? "rawcap" : joined
    }
}
