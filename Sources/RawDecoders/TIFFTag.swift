/// A TIFF tag number: the TIFF 6.0 baseline and extension tags, TIFF/EP (ISO 12234-2), EXIF 2.32 and DNG 1.7.1
/// tags the raw reader looks at.
///
/// Open like every code table here (STYLE.md §4): a tag that is not listed prints as `Unknown(0xC7A1)`.
public struct TIFFTag: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// NewSubfileType (254, 0xFE): 0 main image, 1 reduced-resolution preview (TIFF 6.0 §8; DNG 1.7 p.19).
    public static let newSubfileType = TIFFTag(rawValue: 254)
    /// ImageWidth (256).
    public static let imageWidth = TIFFTag(rawValue: 256)
    /// ImageLength (257).
    public static let imageLength = TIFFTag(rawValue: 257)
    /// BitsPerSample (258).
    public static let bitsPerSample = TIFFTag(rawValue: 258)
    /// Compression (259); see ``TIFFCompression``.
    public static let compression = TIFFTag(rawValue: 259)
    /// PhotometricInterpretation (262); see ``TIFFPhotometric``.
    public static let photometricInterpretation = TIFFTag(rawValue: 262)
    /// FillOrder (266).
    public static let fillOrder = TIFFTag(rawValue: 266)
    /// Make (271).
    public static let make = TIFFTag(rawValue: 271)
    /// Model (272).
    public static let model = TIFFTag(rawValue: 272)
    /// StripOffsets (273).
    public static let stripOffsets = TIFFTag(rawValue: 273)
    /// Orientation (274), required in DNG IFD 0 (DNG 1.7 p.22).
    public static let orientation = TIFFTag(rawValue: 274)
    /// SamplesPerPixel (277).
    public static let samplesPerPixel = TIFFTag(rawValue: 277)
    /// RowsPerStrip (278).
    public static let rowsPerStrip = TIFFTag(rawValue: 278)
    /// StripByteCounts (279).
    public static let stripByteCounts = TIFFTag(rawValue: 279)
    /// PlanarConfiguration (284).
    public static let planarConfiguration = TIFFTag(rawValue: 284)
    /// Software (305).
    public static let software = TIFFTag(rawValue: 305)
    /// DateTime (306).
    public static let dateTime = TIFFTag(rawValue: 306)
    /// Predictor (317).
    public static let predictor = TIFFTag(rawValue: 317)
    /// TileWidth (322).
    public static let tileWidth = TIFFTag(rawValue: 322)
    /// TileLength (323).
    public static let tileLength = TIFFTag(rawValue: 323)
    /// TileOffsets (324).
    public static let tileOffsets = TIFFTag(rawValue: 324)
    /// TileByteCounts (325).
    public static let tileByteCounts = TIFFTag(rawValue: 325)
    /// SubIFDs (330, TIFF Technical Note 1), where DNG puts the raw image and the previews.
    public static let subIFDs = TIFFTag(rawValue: 330)
    /// SampleFormat (339): 1 unsigned integer, 3 IEEE float.
    public static let sampleFormat = TIFFTag(rawValue: 339)
    /// XMP (700).
    public static let xmp = TIFFTag(rawValue: 700)
    /// CFARepeatPatternDim (33421, 0x828D), TIFF/EP: rows, columns of the CFA pattern.
    public static let cfaRepeatPatternDim = TIFFTag(rawValue: 33421)
    /// CFAPattern (33422, 0x828E), TIFF/EP: the colours, row by row (DNG 1.7 p.21).
    public static let cfaPattern = TIFFTag(rawValue: 33422)
    /// ExposureTime (33434, 0x829A), EXIF and TIFF/EP.
    public static let exposureTime = TIFFTag(rawValue: 33434)
    /// FNumber (33437, 0x829D), EXIF and TIFF/EP.
    public static let fNumber = TIFFTag(rawValue: 33437)
    /// ExifIFD (34665, 0x8769): offset of the EXIF IFD.
    public static let exifIFD = TIFFTag(rawValue: 34665)
    /// ISOSpeedRatings / PhotographicSensitivity (34855, 0x8827), EXIF and TIFF/EP.
    public static let isoSpeedRatings = TIFFTag(rawValue: 34855)
    /// DateTimeOriginal (36867, 0x9003), EXIF and TIFF/EP.
    public static let dateTimeOriginal = TIFFTag(rawValue: 36867)
    /// OffsetTimeOriginal (36881, 0x9011), EXIF 2.31.
    public static let offsetTimeOriginal = TIFFTag(rawValue: 36881)
    /// ExposureBiasValue (37380, 0x9204), EXIF and TIFF/EP.
    public static let exposureBiasValue = TIFFTag(rawValue: 37380)
    /// FocalLength (37386, 0x920A), EXIF and TIFF/EP.
    public static let focalLength = TIFFTag(rawValue: 37386)
    /// SubSecTimeOriginal (37521, 0x9291), EXIF.
    public static let subSecTimeOriginal = TIFFTag(rawValue: 37521)
    /// CFAPattern in the EXIF IFD (41730, 0xA302): two SHORT dimensions, then the colours (EXIF 2.32 §4.6.5).
    public static let exifCFAPattern = TIFFTag(rawValue: 41730)
    /// BodySerialNumber (42033, 0xA431), EXIF 2.3.
    public static let bodySerialNumber = TIFFTag(rawValue: 42033)
    /// LensModel (42036, 0xA434), EXIF 2.3.
    public static let lensModel = TIFFTag(rawValue: 42036)
    /// DNGVersion (50706, 0xC612), four bytes (DNG 1.7 p.23).
    public static let dngVersion = TIFFTag(rawValue: 50706)
    /// DNGBackwardVersion (50707).
    public static let dngBackwardVersion = TIFFTag(rawValue: 50707)
    /// UniqueCameraModel (50708).
    public static let uniqueCameraModel = TIFFTag(rawValue: 50708)
    /// CFAPlaneColor (50710): the colour of each CFAPattern value (DNG 1.7 p.25).
    public static let cfaPlaneColor = TIFFTag(rawValue: 50710)
    /// CFALayout (50711): 1 rectangular, 2…9 staggered (DNG 1.7 p.25).
    public static let cfaLayout = TIFFTag(rawValue: 50711)
    /// LinearizationTable (50712): stored value → linear value (DNG 1.7 p.26).
    public static let linearizationTable = TIFFTag(rawValue: 50712)
    /// BlackLevelRepeatDim (50713): rows, columns of the BlackLevel pattern.
    public static let blackLevelRepeatDim = TIFFTag(rawValue: 50713)
    /// BlackLevel (50714), row-column-sample order (DNG 1.7 p.27).
    public static let blackLevel = TIFFTag(rawValue: 50714)
    /// BlackLevelDeltaH (50715): one value per column of the active area.
    public static let blackLevelDeltaH = TIFFTag(rawValue: 50715)
    /// BlackLevelDeltaV (50716): one value per row of the active area.
    public static let blackLevelDeltaV = TIFFTag(rawValue: 50716)
    /// WhiteLevel (50717), one per sample (DNG 1.7 p.28).
    public static let whiteLevel = TIFFTag(rawValue: 50717)
    /// DefaultScale (50718).
    public static let defaultScale = TIFFTag(rawValue: 50718)
    /// DefaultCropOrigin (50719), relative to the active area (DNG 1.7 p.30).
    public static let defaultCropOrigin = TIFFTag(rawValue: 50719)
    /// DefaultCropSize (50720).
    public static let defaultCropSize = TIFFTag(rawValue: 50720)
    /// ColorMatrix1 (50721): XYZ → reference camera space (DNG 1.7 p.31).
    public static let colorMatrix1 = TIFFTag(rawValue: 50721)
    /// ColorMatrix2 (50722).
    public static let colorMatrix2 = TIFFTag(rawValue: 50722)
    /// AnalogBalance (50727).
    public static let analogBalance = TIFFTag(rawValue: 50727)
    /// AsShotNeutral (50728) (DNG 1.7 p.35).
    public static let asShotNeutral = TIFFTag(rawValue: 50728)
    /// AsShotWhiteXY (50729): the white point as CIE xy, the alternative to AsShotNeutral.
    public static let asShotWhiteXY = TIFFTag(rawValue: 50729)
    /// BaselineExposure (50730).
    public static let baselineExposure = TIFFTag(rawValue: 50730)
    /// CameraSerialNumber (50735).
    public static let cameraSerialNumber = TIFFTag(rawValue: 50735)
    /// LensInfo (50736).
    public static let lensInfo = TIFFTag(rawValue: 50736)
    /// CalibrationIlluminant1 (50778).
    public static let calibrationIlluminant1 = TIFFTag(rawValue: 50778)
    /// CalibrationIlluminant2 (50779).
    public static let calibrationIlluminant2 = TIFFTag(rawValue: 50779)
    /// RawDataUniqueID (50781).
    public static let rawDataUniqueID = TIFFTag(rawValue: 50781)
    /// OriginalRawFileName (50827).
    public static let originalRawFileName = TIFFTag(rawValue: 50827)
    /// ActiveArea (50829): top, left, bottom, right (DNG 1.7 p.43).
    public static let activeArea = TIFFTag(rawValue: 50829)
    /// ProfileName (50936), DNG 1.2.
    public static let profileName = TIFFTag(rawValue: 50936)
    /// ProfileToneCurve (50940), DNG 1.2.
    public static let profileToneCurve = TIFFTag(rawValue: 50940)
    /// ForwardMatrix1 (50964), DNG 1.2: white-balanced camera → XYZ D50.
    public static let forwardMatrix1 = TIFFTag(rawValue: 50964)
    /// ForwardMatrix2 (50965), DNG 1.2.
    public static let forwardMatrix2 = TIFFTag(rawValue: 50965)
    /// PreviewColorSpace (50970), DNG 1.2.
    public static let previewColorSpace = TIFFTag(rawValue: 50970)
    /// OpcodeList1 (51008), DNG 1.3: applied to the raw data as read.
    public static let opcodeList1 = TIFFTag(rawValue: 51008)
    /// OpcodeList2 (51009), DNG 1.3: applied after linearization.
    public static let opcodeList2 = TIFFTag(rawValue: 51009)
    /// OpcodeList3 (51022), DNG 1.3: applied after demosaicing.
    public static let opcodeList3 = TIFFTag(rawValue: 51022)
    /// NoiseProfile (51041), DNG 1.3.
    public static let noiseProfile = TIFFTag(rawValue: 51041)
    /// DefaultBlackRender (51110), DNG 1.4.
    public static let defaultBlackRender = TIFFTag(rawValue: 51110)
    /// NewRawImageDigest (51111), DNG 1.4.
    public static let newRawImageDigest = TIFFTag(rawValue: 51111)

    private static let names: [UInt16: String] = [
        254: "NewSubfileType", 256: "ImageWidth", 257: "ImageLength", 258: "BitsPerSample", 259: "Compression",
        262: "PhotometricInterpretation", 266: "FillOrder", 271: "Make", 272: "Model", 273: "StripOffsets",
        274: "Orientation", 277: "SamplesPerPixel", 278: "RowsPerStrip", 279: "StripByteCounts",
        284: "PlanarConfiguration", 305: "Software", 306: "DateTime", 317: "Predictor", 322: "TileWidth",
        323: "TileLength", 324: "TileOffsets", 325: "TileByteCounts", 330: "SubIFDs", 339: "SampleFormat",
        700: "XMP", 33421: "CFARepeatPatternDim", 33422: "CFAPattern", 33434: "ExposureTime", 33437: "FNumber",
        34665: "ExifIFD", 34855: "ISOSpeedRatings", 36867: "DateTimeOriginal", 36881: "OffsetTimeOriginal",
        37380: "ExposureBiasValue", 37386: "FocalLength", 37521: "SubSecTimeOriginal", 41730: "EXIF CFAPattern",
        42033: "BodySerialNumber", 42036: "LensModel", 50706: "DNGVersion", 50707: "DNGBackwardVersion",
        50708: "UniqueCameraModel", 50710: "CFAPlaneColor", 50711: "CFALayout", 50712: "LinearizationTable",
        50713: "BlackLevelRepeatDim", 50714: "BlackLevel", 50715: "BlackLevelDeltaH", 50716: "BlackLevelDeltaV",
        50717: "WhiteLevel", 50718: "DefaultScale", 50719: "DefaultCropOrigin", 50720: "DefaultCropSize",
        50721: "ColorMatrix1", 50722: "ColorMatrix2", 50727: "AnalogBalance", 50728: "AsShotNeutral",
        50729: "AsShotWhiteXY", 50730: "BaselineExposure", 50735: "CameraSerialNumber", 50736: "LensInfo",
        50778: "CalibrationIlluminant1", 50779: "CalibrationIlluminant2", 50781: "RawDataUniqueID",
        50827: "OriginalRawFileName", 50829: "ActiveArea", 50936: "ProfileName", 50940: "ProfileToneCurve",
        50964: "ForwardMatrix1", 50965: "ForwardMatrix2", 50970: "PreviewColorSpace", 51008: "OpcodeList1",
        51009: "OpcodeList2", 51022: "OpcodeList3", 51041: "NoiseProfile", 51110: "DefaultBlackRender",
        51111: "NewRawImageDigest",
    ]

    /// The tag's name, or `Unknown(0x…)`.
    public var description: String {
        Self.names[rawValue] ?? "Unknown(0x\(String(rawValue, radix: 16, uppercase: true)))"
    }
}
