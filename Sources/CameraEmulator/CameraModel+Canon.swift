import PTP
import RawImage

extension CameraModel {
    /// The TIFF Model the `canon` personality's CR2s carry: LibRaw looks up the colour matrix by it.
    public static let canonTIFFModel = "Canon EOS 5D Mark IV"

    /// A Canon EOS 5D Mark IV as it reports itself over USB: "Canon Inc.", VendorExtensionID 0x0000000B (Canon),
    /// USB vendor 0x04A9, and the EOS operations libgphoto2 drives it with (`library.c`
    /// `camera_prepare_canon_eos_capture` and `camera_canon_eos_capture`; codes from `ptp.h`): SetRemoteMode 0x9114,
    /// SetEventMode 0x9115, GetEvent 0x9116, TransferComplete 0x9117, PCHDDCapacity 0x911A, KeepDeviceOn 0x911D,
    /// SetDevicePropValueEx 0x9110, RemoteRelease 0x910F and RemoteReleaseOn/Off 0x9128/0x9129.
    ///
    /// Its settings are EOS properties, reported in GetEvent records and set with SetDevicePropValueEx: ImageFormat
    /// 0xD120 (``PTP/CanonEOSImageFormat``: RAW, RAW + Large Fine JPEG, Large Fine JPEG) and CaptureDestination
    /// 0xD11C (2 the card, 4 the host). Shots are CR2 files `IMG_0001.CR2` (format 0xB103) and `IMG_0001.JPG`, on
    /// the card (ObjectAddedEx records) or held for the host (RequestObjectTransfer records, freed by
    /// TransferComplete). The 5D Mark IV writes 14-bit raw only, so there is no bit depth to choose.
    ///
    /// The default readout is 3376×2256, about half the 5D Mark IV's 6720×4480 image on each side, so a shot
    /// develops four times faster; the CR2 holds the whole readout, masked margin included, as Canon's do. LibRaw
    /// identifies the body by Make and Model, not by size.
    ///
    /// Real bytes and where there are none (issue 14): DeviceInfo's header (StandardVersion 100, VendorExtensionID 6,
    /// Microsoft, as the real body sends it, version 100, empty description), its Manufacturer "Canon.Inc", firmware,
    /// formats and five properties (0xD402, 0xD407, 0xD406, 0xD303, BatteryLevel) are a real 5D Mark IV's, and so are
    /// 121 of its 170 operations, the first 106 in its order (``CanonEOS5DMarkIVFacts``, which names the sources). The
    /// other 49 operations are in no source read. Like the real body it lists no GetDevicePropValue (0x1015). Unlike
    /// it, DevicePropertiesSupported goes on after the real five with the standard exposure properties the emulator
    /// models (FNumber, ExposureIndex, …), which rawcap's Canon path sets; a real EOS keeps those settings in EOS
    /// properties (0xD101–0xD104) reported in GetEvent records, and rawcap's Canon path does not yet use them.
    /// No real bytes are at hand for: its GetEvent records and their order after SetRemoteMode/SetEventMode, its
    /// GetDeviceInfoEx (0x9108) answer, and its answers to 0x9101/0x9102 and to GetStorageIDs in remote mode; these
    /// follow libgphoto2's code (`camera_prepare_canon_eos_capture`, `camera_canon_eos_capture`, `ptp_unpack_EOS_DI`)
    /// and its `ptp.h` notes. Of the operations it lists, those not modelled answer OperationNotSupported.
    public static let canon: CameraModel = {
        var model = CameraModel.generic
        model.identifier = "canon"
        model.manufacturer = CanonEOS5DMarkIVFacts.manufacturer
        model.model = "Canon EOS 5D Mark IV"
        model.deviceVersion = CanonEOS5DMarkIVFacts.deviceVersion
        model.serialNumber = "012345678901"
        // VendorExtensionID 6 (Microsoft), as the real body sends it: hosts take it for a Canon by its USB vendor ID or
        // its Manufacturer (libgphoto2 `fixup_cached_deviceinfo`; rawcap `CameraFamily.identify`).
        model.vendorExtensionID = .microsoft
        model.vendorExtensionVersion = 100
        model.vendorExtensionDesc = ""
        model.lensModel = "EF50mm f/1.8 STM"
        model.cfa = .rggb
        model.defaultSensorWidth = 3360 + 16
        model.defaultSensorHeight = 2240 + 16
        model.folderSuffix = "CANON"
        model.filePrefix = "IMG_"
        // The real body's operations: the first 106 in its order, then the 15 more a second 5D Mark IV lists
        // (``CanonEOS5DMarkIVFacts``). Among them the EOS operations libgphoto2 drives it with and the emulator answers
        // (`EmulatedCamera+Canon.swift`, `EmulatedCamera+LiveView.swift`); the others answer OperationNotSupported.
        // Like the real body it lists no GetDevicePropValue (0x1015).
        model.operationsSupported = (CanonEOS5DMarkIVFacts.firstOperations + CanonEOS5DMarkIVFacts.laterOperations)
            .map(OperationCode.init(rawValue:))
        // The real body's five properties first, in its order; then the standard exposure properties the emulator
        // models, which rawcap's Canon path still reads and sets (ExposureIndex, FNumber, …) and a real EOS reports as
        // EOS properties (Av 0xD101, Tv 0xD102, ISO 0xD103, exposure compensation 0xD104) in GetEvent records instead.
        model.realBodyProperties = CanonEOS5DMarkIVFacts.descriptions
        // EOS settings live in GetEvent records, not in standard descriptors: these codes are listed (as EOS
        // bodies list them) but answered only through the EOS operations.
        model.qualityProperty = CanonEOSImageFormat.property
        model.qualityValues = [QualityValue(value: .uint8(0), quality: .raw)]
        model.defaultQuality = .raw
        model.rawBitDepthProperty = CanonEOSImageFormat.property
        model.rawBitDepths = [14]
        model.defaultRawBitDepth = 14
        model.captureTargetProperty = CanonEOSCapture.captureDestinationProperty
        model.personality = .canonEOS
        // Bulb: a full press of RemoteReleaseOn opens the shutter and RemoteReleaseOff closes it while the shutter
        // speed is bulb (libgphoto2 `config.c` "eosremoterelease" Press Full / Release Full; "For bulb capture to
        // work, make sure the mode dial is switched to 'M' and set 'shutterspeed' to 'bulb'", `_put_Canon_EOS_Bulb`).
        // A real body's Tv is the EOS property 0xD102 (bulb 0x0C, `canon_shutterspeed`); the emulated body keeps its
        // shutter on the standard ExposureTime, where 0xFFFFFFFF stands for bulb.
        model.bulbExposureTimeValue = 0xFFFF_FFFF
        model.usbVendorID = 0x04A9
        // libgphoto2 `models[]`: "Canon:EOS 5D Mark IV", 0x04a9, 0x3281, PTP_CAP|PTP_CAP_PREVIEW|PTP_DONT_CLOSE_SESSION
        // (libgphoto2 leaves the session open; the next host's OpenSession gets SessionAlreadyOpened, which it takes
        // as success).
        model.usbProductID = 0x3281
        // A CR2's raw data is one lossless JPEG whose samples are pairs of horizontal pixels (``CR2Writer``).
        model.sensorSizeRule = SensorSizeRule(
            format: "CR2", evenWidthReason: "its lossless JPEG samples are pairs of horizontal pixels")
        // The real body's lists: CaptureFormats only JPEG, although its raw shots are CR2 (0xB103, among ImageFormats).
        model.captureFormats = CanonEOS5DMarkIVFacts.captureFormats.map(ObjectFormatCode.init(rawValue:))
        model.imageFormats = CanonEOS5DMarkIVFacts.imageFormats.map(ObjectFormatCode.init(rawValue:))
        model.eventsSupported = [.objectAdded, .storeFull, .captureComplete, EventCode.Canon.requestGetEvent]
        return model
    }()
}
