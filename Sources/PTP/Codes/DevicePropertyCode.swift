/// A PTP device property code (DevicePropCode).
///
/// Standard properties are 0x5000–0x5FFF; vendor properties (0xD000–0xDFFF, and Nikon 1's 0xF0xx) sit in vendor
/// namespaces such as ``DevicePropertyCode/Canon``. ISO 15740 §13.
public struct DevicePropertyCode: PTPCodeTable {
    /// The 16-bit code as it appears on the wire.
    public let rawValue: UInt16

    /// Wraps any code, known or not: the table is open, so a camera's new codes pass through unharmed.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Undefined, 0x5000 (PTP §13).
    public static let undefined = DevicePropertyCode(rawValue: 0x5000)
    /// BatteryLevel, 0x5001 (PTP §13).
    public static let batteryLevel = DevicePropertyCode(rawValue: 0x5001)
    /// FunctionalMode, 0x5002 (PTP §13).
    public static let functionalMode = DevicePropertyCode(rawValue: 0x5002)
    /// ImageSize, 0x5003 (PTP §13).
    public static let imageSize = DevicePropertyCode(rawValue: 0x5003)
    /// CompressionSetting, 0x5004 (PTP §13): image quality; vendors encode RAW and RAW+JPEG here.
    public static let compressionSetting = DevicePropertyCode(rawValue: 0x5004)
    /// WhiteBalance, 0x5005 (PTP §13).
    public static let whiteBalance = DevicePropertyCode(rawValue: 0x5005)
    /// RGBGain, 0x5006 (PTP §13).
    public static let rgbGain = DevicePropertyCode(rawValue: 0x5006)
    /// FNumber, 0x5007 (PTP §13): aperture ×100 (UINT16).
    public static let fNumber = DevicePropertyCode(rawValue: 0x5007)
    /// FocalLength, 0x5008 (PTP §13).
    public static let focalLength = DevicePropertyCode(rawValue: 0x5008)
    /// FocusDistance, 0x5009 (PTP §13).
    public static let focusDistance = DevicePropertyCode(rawValue: 0x5009)
    /// FocusMode, 0x500A (PTP §13).
    public static let focusMode = DevicePropertyCode(rawValue: 0x500A)
    /// ExposureMeteringMode, 0x500B (PTP §13).
    public static let exposureMeteringMode = DevicePropertyCode(rawValue: 0x500B)
    /// FlashMode, 0x500C (PTP §13).
    public static let flashMode = DevicePropertyCode(rawValue: 0x500C)
    /// ExposureTime, 0x500D (PTP §13): shutter time in 1/10000 s (UINT32).
    public static let exposureTime = DevicePropertyCode(rawValue: 0x500D)
    /// ExposureProgramMode, 0x500E (PTP §13).
    public static let exposureProgramMode = DevicePropertyCode(rawValue: 0x500E)
    /// ExposureIndex, 0x500F (PTP §13): ISO sensitivity (UINT16).
    public static let exposureIndex = DevicePropertyCode(rawValue: 0x500F)
    /// ExposureBiasCompensation, 0x5010 (PTP §13).
    public static let exposureBiasCompensation = DevicePropertyCode(rawValue: 0x5010)
    /// DateTime, 0x5011 (PTP §13).
    public static let dateTime = DevicePropertyCode(rawValue: 0x5011)
    /// CaptureDelay, 0x5012 (PTP §13).
    public static let captureDelay = DevicePropertyCode(rawValue: 0x5012)
    /// StillCaptureMode, 0x5013 (PTP §13).
    public static let stillCaptureMode = DevicePropertyCode(rawValue: 0x5013)
    /// Contrast, 0x5014 (PTP §13).
    public static let contrast = DevicePropertyCode(rawValue: 0x5014)
    /// Sharpness, 0x5015 (PTP §13).
    public static let sharpness = DevicePropertyCode(rawValue: 0x5015)
    /// DigitalZoom, 0x5016 (PTP §13).
    public static let digitalZoom = DevicePropertyCode(rawValue: 0x5016)
    /// EffectMode, 0x5017 (PTP §13).
    public static let effectMode = DevicePropertyCode(rawValue: 0x5017)
    /// BurstNumber, 0x5018 (PTP §13).
    public static let burstNumber = DevicePropertyCode(rawValue: 0x5018)
    /// BurstInterval, 0x5019 (PTP §13).
    public static let burstInterval = DevicePropertyCode(rawValue: 0x5019)
    /// TimelapseNumber, 0x501A (PTP §13).
    public static let timelapseNumber = DevicePropertyCode(rawValue: 0x501A)
    /// TimelapseInterval, 0x501B (PTP §13).
    public static let timelapseInterval = DevicePropertyCode(rawValue: 0x501B)
    /// FocusMeteringMode, 0x501C (PTP §13).
    public static let focusMeteringMode = DevicePropertyCode(rawValue: 0x501C)
    /// UploadURL, 0x501D (PTP §13).
    public static let uploadURL = DevicePropertyCode(rawValue: 0x501D)
    /// Artist, 0x501E (PTP §13).
    public static let artist = DevicePropertyCode(rawValue: 0x501E)
    /// CopyrightInfo, 0x501F (PTP §13).
    public static let copyrightInfo = DevicePropertyCode(rawValue: 0x501F)
    /// SupportedStreams, 0x5020 (PTP §13): PTP 1.1.
    public static let supportedStreams = DevicePropertyCode(rawValue: 0x5020)
    /// EnabledStreams, 0x5021 (PTP §13): PTP 1.1.
    public static let enabledStreams = DevicePropertyCode(rawValue: 0x5021)
    /// VideoFormat, 0x5022 (PTP §13): PTP 1.1.
    public static let videoFormat = DevicePropertyCode(rawValue: 0x5022)
    /// VideoResolution, 0x5023 (PTP §13): PTP 1.1.
    public static let videoResolution = DevicePropertyCode(rawValue: 0x5023)
    /// VideoQuality, 0x5024 (PTP §13): PTP 1.1.
    public static let videoQuality = DevicePropertyCode(rawValue: 0x5024)
    /// VideoFrameRate, 0x5025 (PTP §13): PTP 1.1.
    public static let videoFrameRate = DevicePropertyCode(rawValue: 0x5025)
    /// VideoContrast, 0x5026 (PTP §13): PTP 1.1.
    public static let videoContrast = DevicePropertyCode(rawValue: 0x5026)
    /// VideoBrightness, 0x5027 (PTP §13): PTP 1.1.
    public static let videoBrightness = DevicePropertyCode(rawValue: 0x5027)
    /// AudioFormat, 0x5028 (PTP §13): PTP 1.1.
    public static let audioFormat = DevicePropertyCode(rawValue: 0x5028)
    /// AudioBitrate, 0x5029 (PTP §13): PTP 1.1.
    public static let audioBitrate = DevicePropertyCode(rawValue: 0x5029)
    /// AudioSamplingRate, 0x502A (PTP §13): PTP 1.1.
    public static let audioSamplingRate = DevicePropertyCode(rawValue: 0x502A)
    /// AudioBitPerSample, 0x502B (PTP §13): PTP 1.1.
    public static let audioBitPerSample = DevicePropertyCode(rawValue: 0x502B)
    /// AudioVolume, 0x502C (PTP §13): PTP 1.1.
    public static let audioVolume = DevicePropertyCode(rawValue: 0x502C)

    /// The names of the codes the standard defines, keyed by raw value.
    public static let standardNames: [UInt16: String] = [
        0x5000: "Undefined",
        0x5001: "BatteryLevel",
        0x5002: "FunctionalMode",
        0x5003: "ImageSize",
        0x5004: "CompressionSetting",
        0x5005: "WhiteBalance",
        0x5006: "RGBGain",
        0x5007: "FNumber",
        0x5008: "FocalLength",
        0x5009: "FocusDistance",
        0x500A: "FocusMode",
        0x500B: "ExposureMeteringMode",
        0x500C: "FlashMode",
        0x500D: "ExposureTime",
        0x500E: "ExposureProgramMode",
        0x500F: "ExposureIndex",
        0x5010: "ExposureBiasCompensation",
        0x5011: "DateTime",
        0x5012: "CaptureDelay",
        0x5013: "StillCaptureMode",
        0x5014: "Contrast",
        0x5015: "Sharpness",
        0x5016: "DigitalZoom",
        0x5017: "EffectMode",
        0x5018: "BurstNumber",
        0x5019: "BurstInterval",
        0x501A: "TimelapseNumber",
        0x501B: "TimelapseInterval",
        0x501C: "FocusMeteringMode",
        0x501D: "UploadURL",
        0x501E: "Artist",
        0x501F: "CopyrightInfo",
        0x5020: "SupportedStreams",
        0x5021: "EnabledStreams",
        0x5022: "VideoFormat",
        0x5023: "VideoResolution",
        0x5024: "VideoQuality",
        0x5025: "VideoFrameRate",
        0x5026: "VideoContrast",
        0x5027: "VideoBrightness",
        0x5028: "AudioFormat",
        0x5029: "AudioBitrate",
        0x502A: "AudioSamplingRate",
        0x502B: "AudioBitPerSample",
        0x502C: "AudioVolume",
    ]
}
