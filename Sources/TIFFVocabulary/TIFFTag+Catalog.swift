// Every tag rawcap writes or reads: one row per tag, its number, type, count and name. Types follow libtiff 4.5's
// field table where libtiff knows the tag (tif_dirinfo.c), and the DNG 1.7.1 specification otherwise; counts are the
// spec's. `registered: true` marks a tag libtiff 4.5's table lacks (notes/dng-facts.md facts 4 and 6), which
// `TIFFFieldRegistry` teaches libtiff for the writer and the reader alike.
//
// A tag goes here and in `all` below; the writer's plan (DNG) or the reader's `TagContext` (RawDecoders) then uses
// it by name.

extension TIFFTag {
    private static func tag(
        _ number: UInt16, _ type: TIFFType, _ count: Int?, _ name: String, registered: Bool = false
    ) -> TIFFTag {
        TIFFTag(rawValue: number, type: type, count: count, name: name, registered: registered)
    }

    // MARK: TIFF 6.0 baseline and extensions

    /// NewSubfileType (254, 0xFE): 0 for the main raw image, 1 for a reduced-resolution preview (TIFF 6.0 §8; DNG 1.7
    /// p.19).
    public static let newSubfileType = tag(254, .long, 1, "NewSubfileType")
    /// ImageWidth (256, 0x100): columns (TIFF 6.0 §8).
    public static let imageWidth = tag(256, .long, 1, "ImageWidth")
    /// ImageLength (257, 0x101): rows (TIFF 6.0 §8).
    public static let imageLength = tag(257, .long, 1, "ImageLength")
    /// BitsPerSample (258, 0x102): one entry per sample (TIFF 6.0 §8).
    public static let bitsPerSample = tag(258, .short, nil, "BitsPerSample")
    /// Compression (259, 0x103): 1 none, 7 JPEG (DNG 1.7 p.19-20).
    public static let compression = tag(259, .short, 1, "Compression")
    /// PhotometricInterpretation (262, 0x106): 2 RGB, 6 YCbCr, 32803 CFA, 34892 LinearRaw (DNG 1.7 p.21).
    public static let photometricInterpretation = tag(262, .short, 1, "PhotometricInterpretation")
    /// FillOrder (266, 0x10A): bit order within a byte (TIFF 6.0 §8).
    public static let fillOrder = tag(266, .short, 1, "FillOrder")
    /// Make (271, 0x10F): the camera manufacturer (TIFF 6.0 §8).
    public static let make = tag(271, .ascii, nil, "Make")
    /// Model (272, 0x110): the camera model (TIFF 6.0 §8).
    public static let model = tag(272, .ascii, nil, "Model")
    /// StripOffsets (273, 0x111): written by libtiff from the strips (TIFF 6.0 §8).
    public static let stripOffsets = tag(273, .long, nil, "StripOffsets")
    /// Orientation (274, 0x112): required in DNG IFD 0 (DNG 1.7 p.22).
    public static let orientation = tag(274, .short, 1, "Orientation")
    /// SamplesPerPixel (277, 0x115) (TIFF 6.0 §8).
    public static let samplesPerPixel = tag(277, .short, 1, "SamplesPerPixel")
    /// RowsPerStrip (278, 0x116) (TIFF 6.0 §8).
    public static let rowsPerStrip = tag(278, .long, 1, "RowsPerStrip")
    /// StripByteCounts (279, 0x117): written by libtiff from the strips (TIFF 6.0 §8).
    public static let stripByteCounts = tag(279, .long, nil, "StripByteCounts")
    /// XResolution (282, 0x11A): pixels per ResolutionUnit (TIFF 6.0 §8).
    public static let xResolution = tag(282, .rational, 1, "XResolution")
    /// YResolution (283, 0x11B) (TIFF 6.0 §8).
    public static let yResolution = tag(283, .rational, 1, "YResolution")
    /// PlanarConfiguration (284, 0x11C): 1 chunky (TIFF 6.0 §8).
    public static let planarConfiguration = tag(284, .short, 1, "PlanarConfiguration")
    /// ResolutionUnit (296, 0x128): 2 = inch (TIFF 6.0 §8).
    public static let resolutionUnit = tag(296, .short, 1, "ResolutionUnit")
    /// Software (305, 0x131) (TIFF 6.0 §8).
    public static let software = tag(305, .ascii, nil, "Software")
    /// DateTime (306, 0x132): `YYYY:MM:DD HH:MM:SS`, when the image was created (TIFF 6.0 §8).
    public static let dateTime = tag(306, .ascii, 20, "DateTime")
    /// Predictor (317, 0x13D): 2 = horizontal differencing (TIFF 6.0 §14).
    public static let predictor = tag(317, .short, 1, "Predictor")
    /// XMP (700, 0x2BC): an XMP packet in UTF-8, as BYTE (DNG 1.7.1 p.14, "Metadata": additional metadata may be
    /// embedded using the XMP metadata tag).
    public static let xmp = tag(700, .byte, nil, "XMP")
    /// TileWidth (322, 0x142): a multiple of 16 (TIFF 6.0 §15).
    public static let tileWidth = tag(322, .long, 1, "TileWidth")
    /// TileLength (323, 0x143): a multiple of 16 (TIFF 6.0 §15).
    public static let tileLength = tag(323, .long, 1, "TileLength")
    /// TileOffsets (324, 0x144): written by libtiff from the tiles (TIFF 6.0 §15).
    public static let tileOffsets = tag(324, .long, nil, "TileOffsets")
    /// TileByteCounts (325, 0x145): written by libtiff from the tiles (TIFF 6.0 §15).
    public static let tileByteCounts = tag(325, .long, nil, "TileByteCounts")
    /// SubIFDs (330, 0x14A): offsets of the child IFDs, filled in by libtiff (TIFF Technical Note 1; DNG 1.7 p.12).
    /// Written as LONG, the form the DNG SDK writes and exiftool expects (libtiff's IFD type is retyped).
    public static let subIFDs = tag(330, .long, nil, "SubIFDs")
    /// SampleFormat (339, 0x153): 1 unsigned integer, 3 IEEE float, one per sample (TIFF 6.0 §19).
    public static let sampleFormat = tag(339, .short, nil, "SampleFormat")
    /// YCbCrSubSampling (530, 0x212): chroma subsampling of a YCbCr JPEG preview (TIFF 6.0 §21).
    public static let yCbCrSubSampling = tag(530, .short, 2, "YCbCrSubSampling")
    /// CFARepeatPatternDim (33421, 0x828D): rows, columns of the CFA pattern (TIFF/EP §5.2.x; DNG 1.7 p.21). Known
    /// to libtiff 4.5.0 and 4.6, missing in 4.5.1 (dng-facts fact 6): registered, as CFAPattern is.
    public static let cfaRepeatPatternDim = tag(33421, .short, 2, "CFARepeatPatternDim", registered: true)
    /// CFAPattern (33422, 0x828E): colour of each pattern position, row by row (TIFF/EP; DNG 1.7 p.21).
    public static let cfaPattern = tag(33422, .byte, nil, "CFAPattern", registered: true)
    /// ExifIFD (34665, 0x8769): offset of the EXIF IFD, filled in by the writer (EXIF 2.32 §4.6.3).
    /// Written as LONG, as EXIF 2.32 specifies (libtiff's IFD type is retyped).
    public static let exifIFD = tag(34665, .long, 1, "ExifIFD")

    // MARK: DNG 1.0–1.4 (DNG 1.7.1 §"Tags")

    /// DNGVersion (50706, 0xC612): four bytes, e.g. 1.4.0.0 (DNG 1.7 p.23).
    public static let dngVersion = tag(50706, .byte, 4, "DNGVersion")
    /// DNGBackwardVersion (50707, 0xC613): the oldest reader version that can read the file (DNG 1.7 p.23).
    public static let dngBackwardVersion = tag(50707, .byte, 4, "DNGBackwardVersion")
    /// UniqueCameraModel (50708, 0xC614): non-localised model name including the maker (DNG 1.7 p.24).
    public static let uniqueCameraModel = tag(50708, .ascii, nil, "UniqueCameraModel")
    /// CFAPlaneColor (50710, 0xC616): the colour of each CFA plane, default 0, 1, 2 (DNG 1.7 p.25).
    public static let cfaPlaneColor = tag(50710, .byte, nil, "CFAPlaneColor")
    /// CFALayout (50711, 0xC617): 1 rectangular (DNG 1.7 p.25).
    public static let cfaLayout = tag(50711, .short, 1, "CFALayout")
    /// LinearizationTable (50712, 0xC618): maps stored values to linear values (DNG 1.7 p.26).
    public static let linearizationTable = tag(50712, .short, nil, "LinearizationTable")
    /// BlackLevelRepeatDim (50713, 0xC619): rows, columns of the BlackLevel pattern (DNG 1.7 p.26).
    public static let blackLevelRepeatDim = tag(50713, .short, 2, "BlackLevelRepeatDim")
    /// BlackLevel (50714, 0xC61A): row-column-sample order (DNG 1.7 p.27); RATIONAL as libtiff declares it.
    public static let blackLevel = tag(50714, .rational, nil, "BlackLevel")
    /// BlackLevelDeltaH (50715, 0xC61B): one value per column of the active area (DNG 1.7 p.27).
    public static let blackLevelDeltaH = tag(50715, .srational, nil, "BlackLevelDeltaH")
    /// BlackLevelDeltaV (50716, 0xC61C): one value per row of the active area (DNG 1.7 p.28).
    public static let blackLevelDeltaV = tag(50716, .srational, nil, "BlackLevelDeltaV")
    /// WhiteLevel (50717, 0xC61D): one per sample (DNG 1.7 p.28).
    public static let whiteLevel = tag(50717, .long, nil, "WhiteLevel")
    /// DefaultScale (50718, 0xC61E): horizontal, vertical (DNG 1.7 p.29).
    public static let defaultScale = tag(50718, .rational, 2, "DefaultScale")
    /// DefaultCropOrigin (50719, 0xC61F): relative to the active area's top-left (DNG 1.7 p.30).
    public static let defaultCropOrigin = tag(50719, .rational, 2, "DefaultCropOrigin")
    /// DefaultCropSize (50720, 0xC620) (DNG 1.7 p.30).
    public static let defaultCropSize = tag(50720, .rational, 2, "DefaultCropSize")
    /// ColorMatrix1 (50721, 0xC621): XYZ → reference camera space, required for colour DNGs (DNG 1.7 p.31).
    public static let colorMatrix1 = tag(50721, .srational, nil, "ColorMatrix1")
    /// ColorMatrix2 (50722, 0xC622) (DNG 1.7 p.32).
    public static let colorMatrix2 = tag(50722, .srational, nil, "ColorMatrix2")
    /// AnalogBalance (50727, 0xC627) (DNG 1.7 p.34).
    public static let analogBalance = tag(50727, .rational, nil, "AnalogBalance")
    /// AsShotNeutral (50728, 0xC628): the camera-space neutral at capture (DNG 1.7 p.35).
    public static let asShotNeutral = tag(50728, .rational, nil, "AsShotNeutral")
    /// AsShotWhiteXY (50729, 0xC629): the white point as CIE xy, the alternative to AsShotNeutral (DNG 1.7 p.35).
    public static let asShotWhiteXY = tag(50729, .rational, 2, "AsShotWhiteXY")
    /// BaselineExposure (50730, 0xC62A): EV shift of the zero point (DNG 1.7 p.35).
    public static let baselineExposure = tag(50730, .srational, 1, "BaselineExposure")
    /// BayerGreenSplit (50733, 0xC62D): how far the two greens of a Bayer sensor track, 0 = identical (DNG 1.7 p.36).
    public static let bayerGreenSplit = tag(50733, .long, 1, "BayerGreenSplit")
    /// CameraSerialNumber (50735, 0xC62F) (DNG 1.7 p.37).
    public static let cameraSerialNumber = tag(50735, .ascii, nil, "CameraSerialNumber")
    /// LensInfo (50736, 0xC630): focal lengths and f-numbers, min and max (DNG 1.7 p.37).
    public static let lensInfo = tag(50736, .rational, 4, "LensInfo")
    /// AntiAliasStrength (50738, 0xC632): 0 no anti-alias filter … 1 normal (DNG 1.7 p.38).
    public static let antiAliasStrength = tag(50738, .rational, 1, "AntiAliasStrength")
    /// CalibrationIlluminant1 (50778, 0xC65A) (DNG 1.7 p.30).
    public static let calibrationIlluminant1 = tag(50778, .short, 1, "CalibrationIlluminant1")
    /// CalibrationIlluminant2 (50779, 0xC65B) (DNG 1.7 p.31).
    public static let calibrationIlluminant2 = tag(50779, .short, 1, "CalibrationIlluminant2")
    /// BestQualityScale (50780, 0xC65C) (DNG 1.7 p.40).
    public static let bestQualityScale = tag(50780, .rational, 1, "BestQualityScale")
    /// RawDataUniqueID (50781, 0xC65D): 16 bytes that identify the raw data (DNG 1.7 p.41).
    public static let rawDataUniqueID = tag(50781, .byte, 16, "RawDataUniqueID")
    /// OriginalRawFileName (50827, 0xC68B) (DNG 1.7 p.42).
    public static let originalRawFileName = tag(50827, .byte, nil, "OriginalRawFileName")
    /// ActiveArea (50829, 0xC68D): top, left, bottom, right (DNG 1.7 p.43).
    public static let activeArea = tag(50829, .long, 4, "ActiveArea")
    /// ColorimetricReference (50879, 0xC6BF) (DNG 1.7 p.46). Registered.
    public static let colorimetricReference = tag(50879, .short, 1, "ColorimetricReference", registered: true)
    /// AsShotProfileName (50934, 0xC6F6) (DNG 1.7 p.48). Registered.
    public static let asShotProfileName = tag(50934, .ascii, nil, "AsShotProfileName", registered: true)
    /// ProfileName (50936, 0xC6F8) (DNG 1.7 p.48). Not in libtiff 4.5's table: registered.
    public static let profileName = tag(50936, .ascii, nil, "ProfileName", registered: true)
    /// ProfileToneCurve (50940, 0xC6FC): (x, y) pairs from (0, 0) to (1, 1) (DNG 1.7 p.50). Registered by the writer.
    public static let profileToneCurve = tag(50940, .float, nil, "ProfileToneCurve", registered: true)
    /// ProfileEmbedPolicy (50941, 0xC6FD) (DNG 1.7 p.50). Registered.
    public static let profileEmbedPolicy = tag(50941, .long, 1, "ProfileEmbedPolicy", registered: true)
    /// ProfileCopyright (50942, 0xC6FE) (DNG 1.7 p.51). Registered.
    public static let profileCopyright = tag(50942, .ascii, nil, "ProfileCopyright", registered: true)
    /// ForwardMatrix1 (50964, 0xC714): white-balanced camera → XYZ D50 (DNG 1.7 p.53). Registered by the writer.
    public static let forwardMatrix1 = tag(50964, .srational, nil, "ForwardMatrix1", registered: true)
    /// ForwardMatrix2 (50965, 0xC715) (DNG 1.7 p.53). Registered by the writer.
    public static let forwardMatrix2 = tag(50965, .srational, nil, "ForwardMatrix2", registered: true)
    /// PreviewApplicationName (50966, 0xC716) (DNG 1.7 p.54). Registered.
    public static let previewApplicationName = tag(50966, .ascii, nil, "PreviewApplicationName", registered: true)
    /// PreviewApplicationVersion (50967, 0xC717) (DNG 1.7 p.54). Registered.
    public static let previewApplicationVersion = tag(
        50967, .ascii, nil, "PreviewApplicationVersion", registered: true)
    /// PreviewSettingsName (50968, 0xC718) (DNG 1.7 p.54). Registered.
    public static let previewSettingsName = tag(50968, .ascii, nil, "PreviewSettingsName", registered: true)
    /// PreviewSettingsDigest (50969, 0xC719): 16 bytes (DNG 1.7 p.55). Registered.
    public static let previewSettingsDigest = tag(50969, .byte, 16, "PreviewSettingsDigest", registered: true)
    /// PreviewColorSpace (50970, 0xC71A): 2 = sRGB (DNG 1.7 p.55). Registered by the writer.
    public static let previewColorSpace = tag(50970, .long, 1, "PreviewColorSpace", registered: true)
    /// PreviewDateTime (50971, 0xC71B) (DNG 1.7 p.55). Registered.
    public static let previewDateTime = tag(50971, .ascii, nil, "PreviewDateTime", registered: true)
    /// OpcodeList1 (51008, 0xC740), DNG 1.3: applied to the raw data as read (DNG 1.7 p.57). Registered.
    public static let opcodeList1 = tag(51008, .undefined, nil, "OpcodeList1", registered: true)
    /// OpcodeList2 (51009, 0xC741), DNG 1.3: applied after linearization. Registered.
    public static let opcodeList2 = tag(51009, .undefined, nil, "OpcodeList2", registered: true)
    /// OpcodeList3 (51022, 0xC74E), DNG 1.3: applied after demosaicing. Registered.
    public static let opcodeList3 = tag(51022, .undefined, nil, "OpcodeList3", registered: true)
    /// NoiseProfile (51041, 0xC761), DNG 1.3 (DNG 1.7 p.59). Registered.
    public static let noiseProfile = tag(51041, .double, nil, "NoiseProfile", registered: true)
    /// BaselineExposureOffset (51109, 0xC7A5), DNG 1.4 (DNG 1.7 p.61). Registered.
    public static let baselineExposureOffset = tag(
        51109, .srational, 1, "BaselineExposureOffset", registered: true)
    /// DefaultBlackRender (51110, 0xC7A6): 0 auto, 1 none (DNG 1.7 p.61). Registered by the writer.
    public static let defaultBlackRender = tag(51110, .long, 1, "DefaultBlackRender", registered: true)
    /// NewRawImageDigest (51111, 0xC7A7): the DNG SDK's tiled MD5 of the raw samples (DNG 1.7 p.65). Registered by
    /// the writer.
    public static let newRawImageDigest = tag(51111, .byte, 16, "NewRawImageDigest", registered: true)
    /// DefaultUserCrop (51125, 0xC7B5), DNG 1.4: top, left, bottom, right, relative to the default crop (DNG 1.7
    /// p.63). Registered.
    public static let defaultUserCrop = tag(51125, .rational, 4, "DefaultUserCrop", registered: true)

    // MARK: EXIF 2.32 (CIPA DC-008-2019 §4.6.5)

    /// ExposureTime (33434, 0x829A), seconds.
    public static let exposureTime = tag(33434, .rational, 1, "ExposureTime", registered: true)
    /// FNumber (33437, 0x829D).
    public static let fNumber = tag(33437, .rational, 1, "FNumber", registered: true)
    /// PhotographicSensitivity (34855, 0x8827), formerly ISOSpeedRatings; 65535 means "see
    /// RecommendedExposureIndex".
    public static let photographicSensitivity = tag(34855, .short, nil, "PhotographicSensitivity", registered: true)
    /// SensitivityType (34864, 0x8830): 2 = recommended exposure index.
    public static let sensitivityType = tag(34864, .short, 1, "SensitivityType")
    /// RecommendedExposureIndex (34866, 0x8832): the ISO value when it exceeds 65535.
    public static let recommendedExposureIndex = tag(34866, .long, 1, "RecommendedExposureIndex")
    /// ExifVersion (36864, 0x9000): four ASCII digits as UNDEFINED, `0232`.
    public static let exifVersion = tag(36864, .undefined, 4, "ExifVersion")
    /// DateTimeOriginal (36867, 0x9003): `YYYY:MM:DD HH:MM:SS`.
    public static let dateTimeOriginal = tag(36867, .ascii, 20, "DateTimeOriginal", registered: true)
    /// OffsetTimeOriginal (36881, 0x9011): `+HH:MM`.
    public static let offsetTimeOriginal = tag(36881, .ascii, 7, "OffsetTimeOriginal")
    /// ExposureBiasValue (37380, 0x9204), EV.
    public static let exposureBiasValue = tag(37380, .srational, 1, "ExposureBiasValue", registered: true)
    /// FocalLength (37386, 0x920A), millimetres.
    public static let focalLength = tag(37386, .rational, 1, "FocalLength", registered: true)
    /// SubSecTimeOriginal (37521, 0x9291): fractional seconds as digits.
    public static let subSecTimeOriginal = tag(37521, .ascii, nil, "SubSecTimeOriginal")
    /// FlashpixVersion (40960, 0xA000): `0100`.
    public static let flashpixVersion = tag(40960, .undefined, 4, "FlashpixVersion")
    /// ColorSpace (40961, 0xA001): 1 = sRGB.
    public static let colorSpace = tag(40961, .short, 1, "ColorSpace")
    /// CFAPattern in the EXIF IFD (41730, 0xA302): two SHORT dimensions, then the colours, as UNDEFINED.
    public static let exifCFAPattern = tag(41730, .undefined, nil, "EXIF CFAPattern")
    /// BodySerialNumber (42033, 0xA431).
    public static let bodySerialNumber = tag(42033, .ascii, nil, "BodySerialNumber")
    /// LensModel (42036, 0xA434).
    public static let lensModel = tag(42036, .ascii, nil, "LensModel")

    /// Every tag above, in number order.
    public static let catalog: [TIFFTag] = [
        newSubfileType, imageWidth, imageLength, bitsPerSample, compression, photometricInterpretation, fillOrder,
        make, model, stripOffsets, orientation, samplesPerPixel, rowsPerStrip, stripByteCounts, xResolution,
        yResolution, planarConfiguration, resolutionUnit, software, dateTime, predictor, xmp, tileWidth, tileLength,
        tileOffsets, tileByteCounts, subIFDs, sampleFormat, yCbCrSubSampling, cfaRepeatPatternDim, cfaPattern,
        exposureTime, fNumber, exifIFD, photographicSensitivity, sensitivityType, recommendedExposureIndex,
        exifVersion, dateTimeOriginal, offsetTimeOriginal, exposureBiasValue, focalLength, subSecTimeOriginal,
        flashpixVersion, colorSpace, exifCFAPattern, bodySerialNumber, lensModel, dngVersion, dngBackwardVersion,
        uniqueCameraModel, cfaPlaneColor, cfaLayout, linearizationTable, blackLevelRepeatDim, blackLevel,
        blackLevelDeltaH, blackLevelDeltaV, whiteLevel, defaultScale, defaultCropOrigin, defaultCropSize,
        colorMatrix1, colorMatrix2, analogBalance, asShotNeutral, asShotWhiteXY, baselineExposure, bayerGreenSplit,
        cameraSerialNumber, lensInfo, antiAliasStrength, calibrationIlluminant1, calibrationIlluminant2,
        bestQualityScale, rawDataUniqueID, originalRawFileName, activeArea, colorimetricReference, asShotProfileName,
        profileName, profileToneCurve, profileEmbedPolicy, profileCopyright, forwardMatrix1, forwardMatrix2,
        previewApplicationName, previewApplicationVersion, previewSettingsName, previewSettingsDigest,
        previewColorSpace, previewDateTime, opcodeList1, opcodeList2, opcodeList3, noiseProfile,
        baselineExposureOffset, defaultBlackRender, newRawImageDigest, defaultUserCrop,
    ].sorted()

    /// The catalog by number, for ``init(rawValue:)`` and the names of tags made with ``init(rawValue:type:count:)``.
    static let catalogByNumber: [UInt16: TIFFTag] = Dictionary(
        catalog.map { ($0.rawValue, $0) }, uniquingKeysWith: { first, _ in first })

    /// Tags the writer's libtiff adapter writes itself from the image data; a plan must not list them.
    public static let writerManaged: Set<UInt16> = [
        stripOffsets.rawValue, stripByteCounts.rawValue, tileOffsets.rawValue, tileByteCounts.rawValue,
        subIFDs.rawValue, exifIFD.rawValue,
    ]
}
