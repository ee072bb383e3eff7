extension ResponseCode {
    /// Nikon response codes (vendor extension ID ``VendorExtensionID/nikon``). These numbers overlap other vendors'
    /// codes, so name them with ``PTPCodeTable/description(vendor:)``. Source: libgphoto2 `ptp.h` `PTP_RC_NIKON_*`.
    public enum Nikon {
        /// HardwareError, 0xA001.
        public static let hardwareError = ResponseCode(rawValue: 0xA001)
        /// OutOfFocus, 0xA002.
        public static let outOfFocus = ResponseCode(rawValue: 0xA002)
        /// ChangeCameraModeFailed, 0xA003.
        public static let changeCameraModeFailed = ResponseCode(rawValue: 0xA003)
        /// InvalidStatus, 0xA004.
        public static let invalidStatus = ResponseCode(rawValue: 0xA004)
        /// SetPropertyNotSupported, 0xA005.
        public static let setPropertyNotSupported = ResponseCode(rawValue: 0xA005)
        /// WbResetError, 0xA006.
        public static let wbResetError = ResponseCode(rawValue: 0xA006)
        /// DustReferenceError, 0xA007.
        public static let dustReferenceError = ResponseCode(rawValue: 0xA007)
        /// ShutterSpeedBulb, 0xA008.
        public static let shutterSpeedBulb = ResponseCode(rawValue: 0xA008)
        /// MirrorUpSequence, 0xA009.
        public static let mirrorUpSequence = ResponseCode(rawValue: 0xA009)
        /// CameraModeNotAdjustFNumber, 0xA00A.
        public static let cameraModeNotAdjustFNumber = ResponseCode(rawValue: 0xA00A)
        /// NotLiveView, 0xA00B.
        public static let notLiveView = ResponseCode(rawValue: 0xA00B)
        /// MfDriveStepEnd, 0xA00C.
        public static let mfDriveStepEnd = ResponseCode(rawValue: 0xA00C)
        /// MfDriveStepInsufficiency, 0xA00E.
        public static let mfDriveStepInsufficiency = ResponseCode(rawValue: 0xA00E)
        /// NoFullHDPresent, 0xA00F.
        public static let noFullHDPresent = ResponseCode(rawValue: 0xA00F)
        /// StoreError, 0xA021.
        public static let storeError = ResponseCode(rawValue: 0xA021)
        /// StoreUnformatted, 0xA022.
        public static let storeUnformatted = ResponseCode(rawValue: 0xA022)
        /// BulbReleaseBusy, 0xA200.
        public static let bulbReleaseBusy = ResponseCode(rawValue: 0xA200)
        /// SilentReleaseBusy, 0xA201.
        public static let silentReleaseBusy = ResponseCode(rawValue: 0xA201)
        /// MovieFrameReleaseBusy, 0xA202.
        public static let movieFrameReleaseBusy = ResponseCode(rawValue: 0xA202)
        /// ShutterSpeedTime, 0xA204.
        public static let shutterSpeedTime = ResponseCode(rawValue: 0xA204)
        /// Waiting2ndRelease, 0xA207.
        public static let waiting2ndRelease = ResponseCode(rawValue: 0xA207)
        /// MirrorUpCaptureAlreadyStarted, 0xA208.
        public static let mirrorUpCaptureAlreadyStarted = ResponseCode(rawValue: 0xA208)
        /// InvalidSBAttributeValue, 0xA209.
        public static let invalidSBAttributeValue = ResponseCode(rawValue: 0xA209)

        /// The names of Nikon's codes, keyed by raw value.
        public static let names: [UInt16: String] = [
            0xA001: "HardwareError",
            0xA002: "OutOfFocus",
            0xA003: "ChangeCameraModeFailed",
            0xA004: "InvalidStatus",
            0xA005: "SetPropertyNotSupported",
            0xA006: "WbResetError",
            0xA007: "DustReferenceError",
            0xA008: "ShutterSpeedBulb",
            0xA009: "MirrorUpSequence",
            0xA00A: "CameraModeNotAdjustFNumber",
            0xA00B: "NotLiveView",
            0xA00C: "MfDriveStepEnd",
            0xA00E: "MfDriveStepInsufficiency",
            0xA00F: "NoFullHDPresent",
            0xA021: "StoreError",
            0xA022: "StoreUnformatted",
            0xA200: "BulbReleaseBusy",
            0xA201: "SilentReleaseBusy",
            0xA202: "MovieFrameReleaseBusy",
            0xA204: "ShutterSpeedTime",
            0xA207: "Waiting2ndRelease",
            0xA208: "MirrorUpCaptureAlreadyStarted",
            0xA209: "InvalidSBAttributeValue",
        ]
    }
}

extension ResponseCode {
    /// Canon response codes (vendor extension ID ``VendorExtensionID/canon``). These numbers overlap other vendors'
    /// codes, so name them with ``PTPCodeTable/description(vendor:)``. Source: libgphoto2 `ptp.h` `PTP_RC_CANON_*`.
    public enum Canon {
        /// UnknownCommand, 0xA001.
        public static let unknownCommand = ResponseCode(rawValue: 0xA001)
        /// OperationRefused, 0xA005.
        public static let operationRefused = ResponseCode(rawValue: 0xA005)
        /// LensCoverClosed, 0xA006.
        public static let lensCoverClosed = ResponseCode(rawValue: 0xA006)
        /// A009, 0xA009: meaning unknown.
        public static let a009 = ResponseCode(rawValue: 0xA009)
        /// LowBattery, 0xA101.
        public static let lowBattery = ResponseCode(rawValue: 0xA101)
        /// ObjectNotReady, 0xA102.
        public static let objectNotReady = ResponseCode(rawValue: 0xA102)
        /// CannotMakeObject, 0xA104.
        public static let cannotMakeObject = ResponseCode(rawValue: 0xA104)
        /// MemoryStatusNotReady, 0xA106.
        public static let memoryStatusNotReady = ResponseCode(rawValue: 0xA106)

        /// The names of Canon's codes, keyed by raw value.
        public static let names: [UInt16: String] = [
            0xA001: "UnknownCommand",
            0xA005: "OperationRefused",
            0xA006: "LensCoverClosed",
            0xA009: "A009",
            0xA101: "LowBattery",
            0xA102: "ObjectNotReady",
            0xA104: "CannotMakeObject",
            0xA106: "MemoryStatusNotReady",
        ]
    }
}

extension ResponseCode {
    /// The names a vendor gives to codes in its extension range (empty for a vendor without a table here).
    public static func vendorNames(_ vendor: VendorExtensionID) -> [UInt16: String] {
        switch vendor {
        case .nikon: Nikon.names
        case .canon: Canon.names
        default: [:]
        }
    }
}
