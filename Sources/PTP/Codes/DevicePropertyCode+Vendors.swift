extension DevicePropertyCode {
    /// Nikon device property codes (vendor extension ID ``VendorExtensionID/nikon``). These numbers overlap other
    /// vendors' codes, so name them with ``PTPCodeTable/description(vendor:)``. Source: libgphoto2 `ptp.h`
    /// `PTP_DPC_NIKON_*`.
    public enum Nikon {
        /// RawCompression, 0xD016: NEF compression (lossless, lossy, uncompressed).
        public static let rawCompression = DevicePropertyCode(rawValue: 0xD016)
        /// ExposureIndexEx, 0xD0B4: extended ISO.
        public static let exposureIndexEx = DevicePropertyCode(rawValue: 0xD0B4)
        /// RawImageSize, 0xD0B6.
        public static let rawImageSize = DevicePropertyCode(rawValue: 0xD0B6)
        /// ExposureTime, 0xD100: shutter speed as a Nikon fraction.
        public static let exposureTime = DevicePropertyCode(rawValue: 0xD100)
        /// ACPower, 0xD101.
        public static let acPower = DevicePropertyCode(rawValue: 0xD101)
        /// RecordingMedia, 0xD10B: 0 card, 1 SDRAM.
        public static let recordingMedia = DevicePropertyCode(rawValue: 0xD10B)
        /// RawBitMode, 0xD149: NEF bit depth (0 12-bit, 1 14-bit).
        public static let rawBitMode = DevicePropertyCode(rawValue: 0xD149)
        /// ExposureRemaining, 0xD1F1.
        public static let exposureRemaining = DevicePropertyCode(rawValue: 0xD1F1)
        /// Nikon1ISO, 0xF002: Nikon 1 series.
        public static let nikon1ISO = DevicePropertyCode(rawValue: 0xF002)
        /// Nikon1FNumber, 0xF003: Nikon 1 series.
        public static let nikon1FNumber = DevicePropertyCode(rawValue: 0xF003)
        /// Nikon1ShutterSpeed, 0xF004: Nikon 1 series.
        public static let nikon1ShutterSpeed = DevicePropertyCode(rawValue: 0xF004)
        /// Nikon1ImageCompression, 0xF009: Nikon 1 series.
        public static let nikon1ImageCompression = DevicePropertyCode(rawValue: 0xF009)

        /// The names of Nikon's codes, keyed by raw value.
        public static let names: [UInt16: String] = [
            0xD016: "RawCompression",
            0xD0B4: "ExposureIndexEx",
            0xD0B6: "RawImageSize",
            0xD100: "ExposureTime",
            0xD101: "ACPower",
            0xD10B: "RecordingMedia",
            0xD149: "RawBitMode",
            0xD1F1: "ExposureRemaining",
            0xF002: "Nikon1ISO",
            0xF003: "Nikon1FNumber",
            0xF004: "Nikon1ShutterSpeed",
            0xF009: "Nikon1ImageCompression",
        ]
    }
}

extension DevicePropertyCode {
    /// Canon device property codes (vendor extension ID ``VendorExtensionID/canon``). These numbers overlap other
    /// vendors' codes, so name them with ``PTPCodeTable/description(vendor:)``. Source: libgphoto2 `ptp.h`
    /// `PTP_DPC_CANON_* and PTP_DPC_CANON_EOS_*`.
    public enum Canon {
        /// ImageQuality, 0xD006: PowerShot.
        public static let imageQuality = DevicePropertyCode(rawValue: 0xD006)
        /// ISOSpeed, 0xD01C: PowerShot.
        public static let isoSpeed = DevicePropertyCode(rawValue: 0xD01C)
        /// Aperture, 0xD01D: PowerShot.
        public static let aperture = DevicePropertyCode(rawValue: 0xD01D)
        /// ShutterSpeed, 0xD01E: PowerShot.
        public static let shutterSpeed = DevicePropertyCode(rawValue: 0xD01E)
        /// CaptureTransferMode, 0xD029: PowerShot.
        public static let captureTransferMode = DevicePropertyCode(rawValue: 0xD029)
        /// EOSAperture, 0xD101: EOS.
        public static let eosAperture = DevicePropertyCode(rawValue: 0xD101)
        /// EOSShutterSpeed, 0xD102: EOS.
        public static let eosShutterSpeed = DevicePropertyCode(rawValue: 0xD102)
        /// EOSISOSpeed, 0xD103: EOS.
        public static let eosISOSpeed = DevicePropertyCode(rawValue: 0xD103)
        /// EOSExpCompensation, 0xD104: EOS.
        public static let eosExpCompensation = DevicePropertyCode(rawValue: 0xD104)
        /// EOSAutoExposureMode, 0xD105: EOS.
        public static let eosAutoExposureMode = DevicePropertyCode(rawValue: 0xD105)
        /// EOSBatteryPower, 0xD111: EOS.
        public static let eosBatteryPower = DevicePropertyCode(rawValue: 0xD111)
        /// EOSAvailableShots, 0xD11B: EOS.
        public static let eosAvailableShots = DevicePropertyCode(rawValue: 0xD11B)
        /// EOSCaptureDestination, 0xD11C: EOS: 4 = host.
        public static let eosCaptureDestination = DevicePropertyCode(rawValue: 0xD11C)
        /// EOSImageFormat, 0xD120: EOS file setting (RAW, JPEG, RAW+JPEG, sizes).
        public static let eosImageFormat = DevicePropertyCode(rawValue: 0xD120)
        /// EOSImageFormatCF, 0xD121: EOS.
        public static let eosImageFormatCF = DevicePropertyCode(rawValue: 0xD121)
        /// EOSImageFormatSD, 0xD122: EOS.
        public static let eosImageFormatSD = DevicePropertyCode(rawValue: 0xD122)
        /// EOSBatteryInfo, 0xD1A6: EOS.
        public static let eosBatteryInfo = DevicePropertyCode(rawValue: 0xD1A6)
        /// EOSSerialNumber, 0xD1AF: EOS.
        public static let eosSerialNumber = DevicePropertyCode(rawValue: 0xD1AF)

        /// The names of Canon's codes, keyed by raw value.
        public static let names: [UInt16: String] = [
            0xD006: "ImageQuality",
            0xD01C: "ISOSpeed",
            0xD01D: "Aperture",
            0xD01E: "ShutterSpeed",
            0xD029: "CaptureTransferMode",
            0xD101: "EOSAperture",
            0xD102: "EOSShutterSpeed",
            0xD103: "EOSISOSpeed",
            0xD104: "EOSExpCompensation",
            0xD105: "EOSAutoExposureMode",
            0xD111: "EOSBatteryPower",
            0xD11B: "EOSAvailableShots",
            0xD11C: "EOSCaptureDestination",
            0xD120: "EOSImageFormat",
            0xD121: "EOSImageFormatCF",
            0xD122: "EOSImageFormatSD",
            0xD1A6: "EOSBatteryInfo",
            0xD1AF: "EOSSerialNumber",
        ]
    }
}

extension DevicePropertyCode {
    /// Sony device property codes (vendor extension ID ``VendorExtensionID/sony``). These numbers overlap other
    /// vendors' codes, so name them with ``PTPCodeTable/description(vendor:)``. Source: libgphoto2 `ptp.h`
    /// `PTP_DPC_SONY_*`.
    public enum Sony {
        /// DPCCompensation, 0xD200.
        public static let dpcCompensation = DevicePropertyCode(rawValue: 0xD200)
        /// DRangeOptimize, 0xD201.
        public static let dRangeOptimize = DevicePropertyCode(rawValue: 0xD201)
        /// ImageSize, 0xD203.
        public static let imageSize = DevicePropertyCode(rawValue: 0xD203)
        /// ShutterSpeed, 0xD20D.
        public static let shutterSpeed = DevicePropertyCode(rawValue: 0xD20D)
        /// ColorTemp, 0xD20F.
        public static let colorTemp = DevicePropertyCode(rawValue: 0xD20F)
        /// AspectRatio, 0xD211.
        public static let aspectRatio = DevicePropertyCode(rawValue: 0xD211)
        /// FocusFound, 0xD213.
        public static let focusFound = DevicePropertyCode(rawValue: 0xD213)
        /// ObjectInMemory, 0xD215: above 0x8000 when a shot waits in memory.
        public static let objectInMemory = DevicePropertyCode(rawValue: 0xD215)
        /// ExposeIndex, 0xD216.
        public static let exposeIndex = DevicePropertyCode(rawValue: 0xD216)
        /// BatteryLevel, 0xD218.
        public static let batteryLevel = DevicePropertyCode(rawValue: 0xD218)
        /// ISO, 0xD21E.
        public static let iso = DevicePropertyCode(rawValue: 0xD21E)
        /// StillImageStoreDestination, 0xD222.
        public static let stillImageStoreDestination = DevicePropertyCode(rawValue: 0xD222)
        /// ExposureCompensation, 0xD224.
        public static let exposureCompensation = DevicePropertyCode(rawValue: 0xD224)
        /// ISO2, 0xD226.
        public static let iso2 = DevicePropertyCode(rawValue: 0xD226)
        /// ShutterSpeed2, 0xD229.
        public static let shutterSpeed2 = DevicePropertyCode(rawValue: 0xD229)
        /// AutoFocus, 0xD2C1: half press button (SetControlDeviceB).
        public static let autoFocus = DevicePropertyCode(rawValue: 0xD2C1)
        /// Capture, 0xD2C2: full press button (SetControlDeviceB).
        public static let capture = DevicePropertyCode(rawValue: 0xD2C2)
        /// StillImage, 0xD2C7.
        public static let stillImage = DevicePropertyCode(rawValue: 0xD2C7)
        /// Movie, 0xD2C8.
        public static let movie = DevicePropertyCode(rawValue: 0xD2C8)

        /// The names of Sony's codes, keyed by raw value.
        public static let names: [UInt16: String] = [
            0xD200: "DPCCompensation",
            0xD201: "DRangeOptimize",
            0xD203: "ImageSize",
            0xD20D: "ShutterSpeed",
            0xD20F: "ColorTemp",
            0xD211: "AspectRatio",
            0xD213: "FocusFound",
            0xD215: "ObjectInMemory",
            0xD216: "ExposeIndex",
            0xD218: "BatteryLevel",
            0xD21E: "ISO",
            0xD222: "StillImageStoreDestination",
            0xD224: "ExposureCompensation",
            0xD226: "ISO2",
            0xD229: "ShutterSpeed2",
            0xD2C1: "AutoFocus",
            0xD2C2: "Capture",
            0xD2C7: "StillImage",
            0xD2C8: "Movie",
        ]
    }
}

extension DevicePropertyCode {
    /// Fujifilm device property codes (vendor extension ID ``VendorExtensionID/fujifilm``). These numbers overlap other
    /// vendors' codes, so name them with ``PTPCodeTable/description(vendor:)``. Source: libgphoto2 `ptp.h`
    /// `PTP_DPC_FUJI_*`.
    public enum Fujifilm {
        /// FilmSimulation, 0xD001.
        public static let filmSimulation = DevicePropertyCode(rawValue: 0xD001)
        /// Quality, 0xD018: image quality (RAW, RAW+JPEG).
        public static let quality = DevicePropertyCode(rawValue: 0xD018)
        /// RawCompression, 0xD022.
        public static let rawCompression = DevicePropertyCode(rawValue: 0xD022)
        /// ExposureIndex, 0xD02A.
        public static let exposureIndex = DevicePropertyCode(rawValue: 0xD02A)
        /// PriorityMode, 0xD207: who controls the camera (host or body).
        public static let priorityMode = DevicePropertyCode(rawValue: 0xD207)
        /// CaptureControl, 0xD208: unnamed in libgphoto2; 0x304 shoots, 0x200 focuses.
        public static let captureControl = DevicePropertyCode(rawValue: 0xD208)
        /// AFStatus, 0xD209: 1 while focusing, 2 focused, 3 failed (libgphoto2 `config.c` `_put_Fuji_AFDrive`).
        public static let afStatus = DevicePropertyCode(rawValue: 0xD209)
        /// MediaRecord, 0xD20C.
        public static let mediaRecord = DevicePropertyCode(rawValue: 0xD20C)
        /// FreeSDRAMImages, 0xD20E.
        public static let freeSDRAMImages = DevicePropertyCode(rawValue: 0xD20E)
        /// CurrentState, 0xD212.
        public static let currentState = DevicePropertyCode(rawValue: 0xD212)
        /// Aperture, 0xD218.
        public static let aperture = DevicePropertyCode(rawValue: 0xD218)
        /// ShutterSpeed, 0xD219.
        public static let shutterSpeed = DevicePropertyCode(rawValue: 0xD219)
        /// CaptureRemaining, 0xD229.
        public static let captureRemaining = DevicePropertyCode(rawValue: 0xD229)
        /// BatteryLevel, 0xD242.
        public static let batteryLevel = DevicePropertyCode(rawValue: 0xD242)
        /// ObjectCount, 0xD222: objects on the card (camlib/fudge `fujiptp.h` `PTP_PC_FUJI_ObjectCount`); reported in
        /// the 0xD212 change list when a shot is stored.
        public static let objectCount = DevicePropertyCode(rawValue: 0xD222)
        /// PC mode, 0xD38C: 1 puts the body under the host (libgphoto2 `library.c` `camera_prepare_capture`:
        /// "d38c -> 1 (PC Mode)", unnamed in `ptp.h`).
        public static let pcMode = DevicePropertyCode(rawValue: 0xD38C)
        /// InitSequence, 0xDF01 (UINT16): a host on Wi-Fi sets it to 5 after OpenSession (libgphoto2 `ptp.h`
        /// `PTP_DPC_FUJI_InitSequence`, `library.c` `camera_init` "Special fuji wlan init code"; fuji-cam-wifi-tool
        /// `init_control_connection` sends the same 0x0005, from captures of Fujifilm's app).
        public static let initSequence = DevicePropertyCode(rawValue: 0xDF01)
        /// AppVersion, 0xDF24 (UINT32): a host on Wi-Fi reads it and writes back the version it speaks (libgphoto2
        /// writes back what it read; fuji-cam-wifi-tool writes 0x00020004 for remote mode).
        public static let appVersion = DevicePropertyCode(rawValue: 0xDF24)

        /// The names of Fujifilm's codes, keyed by raw value.
        public static let names: [UInt16: String] = [
            0xD001: "FilmSimulation",
            0xD018: "Quality",
            0xD022: "RawCompression",
            0xD02A: "ExposureIndex",
            0xD207: "PriorityMode",
            0xD208: "CaptureControl",
            0xD209: "AFStatus",
            0xD20C: "MediaRecord",
            0xD20E: "FreeSDRAMImages",
            0xD212: "CurrentState",
            0xD218: "Aperture",
            0xD219: "ShutterSpeed",
            0xD229: "CaptureRemaining",
            0xD222: "ObjectCount",
            0xD242: "BatteryLevel",
            0xDF01: "InitSequence",
            0xDF24: "AppVersion",
            0xD38C: "PCMode",
        ]
    }
}

extension DevicePropertyCode {
    /// The names a vendor gives to codes in its extension range (empty for a vendor without a table here).
    public static func vendorNames(_ vendor: VendorExtensionID) -> [UInt16: String] {
        switch vendor {
        case .nikon: Nikon.names
        case .canon: Canon.names
        case .sony: Sony.names
        case .fujifilm: Fujifilm.names
        default: [:]
        }
    }
}
