extension EventCode {
    /// Nikon event codes (vendor extension ID ``VendorExtensionID/nikon``). These numbers overlap other vendors' codes,
    /// so name them with ``PTPCodeTable/description(vendor:)``. Source: libgphoto2 `ptp.h` `PTP_EC_Nikon_*`.
    public enum Nikon {
        /// ObjectAddedInSdram, 0xC101: parameter 1 is the handle of the shot in SDRAM.
        public static let objectAddedInSdram = EventCode(rawValue: 0xC101)
        /// CaptureCompleteRecInSdram, 0xC102.
        public static let captureCompleteRecInSdram = EventCode(rawValue: 0xC102)
        /// AdvancedTransfer, 0xC103.
        public static let advancedTransfer = EventCode(rawValue: 0xC103)
        /// PreviewImageAdded, 0xC104.
        public static let previewImageAdded = EventCode(rawValue: 0xC104)
        /// MovieRecordInterrupted, 0xC105.
        public static let movieRecordInterrupted = EventCode(rawValue: 0xC105)
        /// FirstCaptureComplete, 0xC106.
        public static let firstCaptureComplete = EventCode(rawValue: 0xC106)
        /// MirrorUpCancelComplete, 0xC107.
        public static let mirrorUpCancelComplete = EventCode(rawValue: 0xC107)
        /// MovieRecordComplete, 0xC108.
        public static let movieRecordComplete = EventCode(rawValue: 0xC108)
        /// MovieRecordStarted, 0xC10A.
        public static let movieRecordStarted = EventCode(rawValue: 0xC10A)
        /// PictureControlAdjustChanged, 0xC10B.
        public static let pictureControlAdjustChanged = EventCode(rawValue: 0xC10B)
        /// LiveViewStateChanged, 0xC10C.
        public static let liveViewStateChanged = EventCode(rawValue: 0xC10C)
        /// ManualSettingsLensDataChanged, 0xC10E.
        public static let manualSettingsLensDataChanged = EventCode(rawValue: 0xC10E)
        /// ActiveSelectionInterrupted, 0xC112.
        public static let activeSelectionInterrupted = EventCode(rawValue: 0xC112)
        /// SBAdded, 0xC120.
        public static let sbAdded = EventCode(rawValue: 0xC120)
        /// SBRemoved, 0xC121.
        public static let sbRemoved = EventCode(rawValue: 0xC121)
        /// SBAttrChanged, 0xC122.
        public static let sbAttrChanged = EventCode(rawValue: 0xC122)
        /// SBGroupAttrChanged, 0xC123.
        public static let sbGroupAttrChanged = EventCode(rawValue: 0xC123)

        /// The names of Nikon's codes, keyed by raw value.
        public static let names: [UInt16: String] = [
            0xC101: "ObjectAddedInSdram",
            0xC102: "CaptureCompleteRecInSdram",
            0xC103: "AdvancedTransfer",
            0xC104: "PreviewImageAdded",
            0xC105: "MovieRecordInterrupted",
            0xC106: "FirstCaptureComplete",
            0xC107: "MirrorUpCancelComplete",
            0xC108: "MovieRecordComplete",
            0xC10A: "MovieRecordStarted",
            0xC10B: "PictureControlAdjustChanged",
            0xC10C: "LiveViewStateChanged",
            0xC10E: "ManualSettingsLensDataChanged",
            0xC112: "ActiveSelectionInterrupted",
            0xC120: "SBAdded",
            0xC121: "SBRemoved",
            0xC122: "SBAttrChanged",
            0xC123: "SBGroupAttrChanged",
        ]
    }
}

extension EventCode {
    /// Canon event codes (vendor extension ID ``VendorExtensionID/canon``). These numbers overlap other vendors' codes,
    /// so name them with ``PTPCodeTable/description(vendor:)``. Source: libgphoto2 `ptp.h` `PTP_EC_CANON_* and
    /// PTP_EC_CANON_EOS_*`.
    public enum Canon {
        /// ExtendedErrorcode, 0xC005.
        public static let extendedErrorCode = EventCode(rawValue: 0xC005)
        /// PowerShotObjectInfoChanged, 0xC008: PowerShot.
        public static let powerShotObjectInfoChanged = EventCode(rawValue: 0xC008)
        /// PowerShotRequestObjectTransfer, 0xC009: PowerShot.
        public static let powerShotRequestObjectTransfer = EventCode(rawValue: 0xC009)
        /// ShutterButtonPressed0, 0xC00B.
        public static let shutterButtonPressed0 = EventCode(rawValue: 0xC00B)
        /// CameraModeChanged, 0xC00C.
        public static let cameraModeChanged = EventCode(rawValue: 0xC00C)
        /// ShutterButtonPressed1, 0xC00E.
        public static let shutterButtonPressed1 = EventCode(rawValue: 0xC00E)
        /// StartDirectTransfer, 0xC011.
        public static let startDirectTransfer = EventCode(rawValue: 0xC011)
        /// StopDirectTransfer, 0xC013.
        public static let stopDirectTransfer = EventCode(rawValue: 0xC013)
        /// RequestGetEvent, 0xC101: EOS: poll GetEvent now.
        public static let requestGetEvent = EventCode(rawValue: 0xC101)
        /// RequestCancelTransferMA, 0xC180.
        public static let requestCancelTransferMA = EventCode(rawValue: 0xC180)
        /// ObjectAddedEx, 0xC181.
        public static let objectAddedEx = EventCode(rawValue: 0xC181)
        /// ObjectRemoved, 0xC182.
        public static let objectRemoved = EventCode(rawValue: 0xC182)
        /// RequestGetObjectInfoEx, 0xC183.
        public static let requestGetObjectInfoEx = EventCode(rawValue: 0xC183)
        /// StorageStatusChanged, 0xC184.
        public static let storageStatusChanged = EventCode(rawValue: 0xC184)
        /// StorageInfoChanged, 0xC185.
        public static let storageInfoChanged = EventCode(rawValue: 0xC185)
        /// RequestObjectTransfer, 0xC186.
        public static let requestObjectTransfer = EventCode(rawValue: 0xC186)
        /// ObjectInfoChangedEx, 0xC187.
        public static let objectInfoChangedEx = EventCode(rawValue: 0xC187)
        /// ObjectContentChanged, 0xC188.
        public static let objectContentChanged = EventCode(rawValue: 0xC188)
        /// PropValueChanged, 0xC189.
        public static let propValueChanged = EventCode(rawValue: 0xC189)
        /// AvailListChanged, 0xC18A.
        public static let availListChanged = EventCode(rawValue: 0xC18A)
        /// CameraStatusChanged, 0xC18B.
        public static let cameraStatusChanged = EventCode(rawValue: 0xC18B)
        /// WillSoonShutdown, 0xC18D.
        public static let willSoonShutdown = EventCode(rawValue: 0xC18D)
        /// ShutdownTimerUpdated, 0xC18E.
        public static let shutdownTimerUpdated = EventCode(rawValue: 0xC18E)
        /// RequestCancelTransfer, 0xC18F.
        public static let requestCancelTransfer = EventCode(rawValue: 0xC18F)
        /// RequestObjectTransferDT, 0xC190.
        public static let requestObjectTransferDT = EventCode(rawValue: 0xC190)
        /// RequestCancelTransferDT, 0xC191.
        public static let requestCancelTransferDT = EventCode(rawValue: 0xC191)
        /// StoreAdded, 0xC192.
        public static let storeAdded = EventCode(rawValue: 0xC192)
        /// StoreRemoved, 0xC193.
        public static let storeRemoved = EventCode(rawValue: 0xC193)
        /// BulbExposureTime, 0xC194.
        public static let bulbExposureTime = EventCode(rawValue: 0xC194)
        /// RecordingTime, 0xC195.
        public static let recordingTime = EventCode(rawValue: 0xC195)
        /// RequestObjectTransferTS, 0xC1A2.
        public static let requestObjectTransferTS = EventCode(rawValue: 0xC1A2)
        /// AfResult, 0xC1A3.
        public static let afResult = EventCode(rawValue: 0xC1A3)
        /// ObjectAddedEx64, 0xC1A7.
        public static let objectAddedEx64 = EventCode(rawValue: 0xC1A7)
        /// ObjectInfoChangedEx64, 0xC1A8.
        public static let objectInfoChangedEx64 = EventCode(rawValue: 0xC1A8)
        /// RequestObjectTransfer64, 0xC1A9.
        public static let requestObjectTransfer64 = EventCode(rawValue: 0xC1A9)
        /// RequestObjectTransfer64LFN, 0xC1B8: the newest bodies' transfer request, without a file name.
        public static let requestObjectTransfer64LFN = EventCode(rawValue: 0xC1B8)

        /// The names of Canon's codes, keyed by raw value.
        public static let names: [UInt16: String] = [
            0xC005: "ExtendedErrorcode",
            0xC008: "PowerShotObjectInfoChanged",
            0xC009: "PowerShotRequestObjectTransfer",
            0xC00B: "ShutterButtonPressed0",
            0xC00C: "CameraModeChanged",
            0xC00E: "ShutterButtonPressed1",
            0xC011: "StartDirectTransfer",
            0xC013: "StopDirectTransfer",
            0xC101: "RequestGetEvent",
            0xC180: "RequestCancelTransferMA",
            0xC181: "ObjectAddedEx",
            0xC182: "ObjectRemoved",
            0xC183: "RequestGetObjectInfoEx",
            0xC184: "StorageStatusChanged",
            0xC185: "StorageInfoChanged",
            0xC186: "RequestObjectTransfer",
            0xC187: "ObjectInfoChangedEx",
            0xC188: "ObjectContentChanged",
            0xC189: "PropValueChanged",
            0xC18A: "AvailListChanged",
            0xC18B: "CameraStatusChanged",
            0xC18D: "WillSoonShutdown",
            0xC18E: "ShutdownTimerUpdated",
            0xC18F: "RequestCancelTransfer",
            0xC190: "RequestObjectTransferDT",
            0xC191: "RequestCancelTransferDT",
            0xC192: "StoreAdded",
            0xC193: "StoreRemoved",
            0xC194: "BulbExposureTime",
            0xC195: "RecordingTime",
            0xC1A2: "RequestObjectTransferTS",
            0xC1A3: "AfResult",
            0xC1A7: "ObjectAddedEx64",
            0xC1A8: "ObjectInfoChangedEx64",
            0xC1A9: "RequestObjectTransfer64",
            0xC1B8: "RequestObjectTransfer64LFN",
        ]
    }
}

extension EventCode {
    /// Sony event codes (vendor extension ID ``VendorExtensionID/sony``). These numbers overlap other vendors' codes,
    /// so name them with ``PTPCodeTable/description(vendor:)``. Source: libgphoto2 `ptp.h` `PTP_EC_Sony_*`.
    public enum Sony {
        /// ObjectAdded, 0xC201: parameter 1 is the handle (0xFFFFC001 for the in-memory shot).
        public static let objectAdded = EventCode(rawValue: 0xC201)
        /// ObjectRemoved, 0xC202.
        public static let objectRemoved = EventCode(rawValue: 0xC202)
        /// PropertyChanged, 0xC203: parameter 1 is the property code.
        public static let propertyChanged = EventCode(rawValue: 0xC203)

        /// The names of Sony's codes, keyed by raw value.
        public static let names: [UInt16: String] = [
            0xC201: "ObjectAdded",
            0xC202: "ObjectRemoved",
            0xC203: "PropertyChanged",
        ]
    }
}

extension EventCode {
    /// Fujifilm event codes (vendor extension ID ``VendorExtensionID/fujifilm``). These numbers overlap other vendors'
    /// codes, so name them with ``PTPCodeTable/description(vendor:)``. Source: libgphoto2 `ptp.h` `PTP_EC_FUJI_*`.
    public enum Fujifilm {
        /// PreviewAvailable, 0xC001.
        public static let previewAvailable = EventCode(rawValue: 0xC001)
        /// ObjectAdded, 0xC004.
        public static let objectAdded = EventCode(rawValue: 0xC004)

        /// The names of Fujifilm's codes, keyed by raw value.
        public static let names: [UInt16: String] = [
            0xC001: "PreviewAvailable",
            0xC004: "ObjectAdded",
        ]
    }
}

extension EventCode {
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
