import PTP

extension CameraModel {
    /// A Sony α7 III (ILCE-7M3) in "PC Remote" USB mode, as libgphoto2 drives it.
    ///
    /// Identity as Sony bodies report it (`gphoto2 --summary` of Alpha and RX bodies in libgphoto2's
    /// `camlibs/ptp2/cameras/`): Manufacturer "Sony Corporation", VendorExtensionID 0x00000011 "Sony PTP
    /// Extensions", USB idVendor 0x054C; no InitiateCapture ("No Image Capture … Sony Capture"): the shutter is the
    /// S1/S2 buttons through SetControlDeviceB, properties go through GetAllDevicePropData and SetControlDeviceA,
    /// and the shot is read at handle 0xFFFFC001 (see `EmulatedCamera+Sony.swift`).
    ///
    /// Image quality is CompressionSetting (0x5004, UINT8) with Sony's enumeration [2, 3, 4, 16, 19] as those
    /// summaries show it: 2 Standard, 3 Fine, 4 Extra Fine (JPEG), 16 (0x10) RAW, 19 (0x13) RAW+JPEG. Raw files are
    /// uncompressed ARW (``RawFileFormat/arw``) at the body's fixed 14 bits, named `DSC00001.ARW` (DCF folder
    /// `100MSDCF`), 6048×4024 photosites by default like the real sensor.
    ///
    /// Real bytes and where there are none (issue 14): no DeviceInfo, GetSDIOExtDeviceInfo or GetAllDevicePropData of
    /// an ILCE-7M3 is at hand; those of an ILCE-7SM3 (libgphoto2's `sony-a7sm3.txt`, `Fixtures/ptp-real`) and a
    /// DSC-RX100M7 (Rocc) are. PriorityMode 0xD25A is described as the ILCE-7SM3 does; the property list, the event
    /// order after the press and ObjectInMemory's values follow libgphoto2's `camera_sony_capture`.
    ///
    /// Re-basing it on the ILCE-7SM3 (libgphoto2 `cameras/sony-a7sm3.txt`, whose 0x9202 SDIO ext DeviceInfo (756 B)
    /// and GetAllDevicePropData (9361 B) are whole in `Fixtures/traces/real/sony-ilce-7sm3_summary-sdio-allprops-usb.pcapng`)
    /// needs, beyond swapping the facts: (1) the identity (Model "ILCE-7SM3", firmware "3.00", the 7SM3's USB product
    /// ID from libgphoto2 `models[]`); (2) DeviceInfo, 0x9202 and 0x9209 answered from those bytes, with the
    /// properties the emulator models updated in place; (3) rawcap's Sony settings moved to the 0xD2xx properties
    /// such a body reports, as libgphoto2 `config.c` sets them through SetControlDeviceA: image quality
    /// CompressionSetting 0xD253 (`_get/_put_Sony_300_CompressionSetting`, RAW/RAW+JPEG/JPEG split from JPEG quality
    /// 0xD252), ISO 0xD21E (UINT32, `_put_Sony_ISO`), exposure compensation 0xD224 (INT16, `_put_Sony_ExpCompensation2`),
    /// shutter 0xD20D (UINT32, `_put_Sony_ShutterSpeed`, stepped, bulb 0) and the aperture the body lists
    /// (FNumber 0x5007 through SetControlDeviceA); today rawcap's Sony path and this body use the standard codes
    /// (CompressionSetting 0x5004, ExposureIndex 0x500F, ExposureBiasCompensation 0x5010, ExposureTime 0x500D);
    /// (4) `SonyRealBodyTests` comparing 0x9202's lists and each 0x9209 description with the recording. Not done in
    /// issue 14's time.
    public static let sony: CameraModel = {
        var model = CameraModel.generic
        model.identifier = "sony"
        model.manufacturer = "Sony Corporation"
        model.model = "ILCE-7M3"
        model.deviceVersion = "3.01"
        model.serialNumber = "00000000000000003282933003963393"
        model.vendorExtensionID = .sony
        model.vendorExtensionVersion = 100
        model.vendorExtensionDesc = "Sony PTP Extensions"
        model.lensModel = "FE 50mm F1.8"
        model.cfa = .rggb
        model.defaultSensorWidth = 6048
        model.defaultSensorHeight = 4024
        model.folderSuffix = "MSDCF"
        model.filePrefix = "DSC0"
        model.operationsSupported = [
            .getDeviceInfo, .openSession, .closeSession, .getStorageIDs, .getStorageInfo, .getNumObjects,
            .getObjectHandles, .getObjectInfo, .getObject, .getThumb, OperationCode.Sony.sdioConnect,
            OperationCode.Sony.getSDIOExtDeviceInfo, OperationCode.Sony.setControlDeviceA,
            OperationCode.Sony.setControlDeviceB, OperationCode.Sony.getAllDevicePropData,
        ]
        model.qualityProperty = .compressionSetting
        model.qualityValues = [
            QualityValue(value: .uint8(2), quality: .jpeg), QualityValue(value: .uint8(3), quality: .jpeg),
            QualityValue(value: .uint8(4), quality: .jpeg), QualityValue(value: .uint8(0x10), quality: .raw),
            QualityValue(value: .uint8(0x13), quality: .rawPlusJPEG),
        ]
        model.defaultQuality = .raw
        model.rawBitDepths = [14]
        model.defaultRawBitDepth = 14
        model.hasCaptureTarget = false
        model.personality = .sony
        // Bulb is S2 held down while the shutter speed is bulb (libgphoto2 `config.c` `_put_Sony_Bulb`). A real
        // body's shutter is ShutterSpeed 0xD20D, where bulb is 0 (`_get_Sony_ShutterSpeed`); the emulated body keeps
        // its shutter on the standard ExposureTime, where 0xFFFFFFFF stands for bulb.
        model.bulbExposureTimeValue = 0xFFFF_FFFF
        model.usbVendorID = USBVendorID.sony.rawValue
        // libgphoto2 `library.c` `models[]`: "Sony:Alpha-A7 III (PC Control)", 0x054c, 0x0c34, PTP_CAP|PTP_CAP_PREVIEW.
        model.usbProductID = 0x0C34
        model.rawFileFormat = .arw
        model.sensorSizeRule = SensorSizeRule(format: "ARW")
        return model
    }()

    /// The same body with its USB mode set to "MTP" or "Mass Storage" instead of "PC Remote": its DeviceInfo is a
    /// real ILCE-7M3's in that mode (``SonyILCE7M3Facts``, which names the source and what has no real bytes): still
    /// VendorExtensionID 0x11, but none of Sony's SDIO operations and no InitiateCapture, so it can be browsed but not
    /// triggered. rawcap must say so rather than time out.
    public static let sonyOutsidePCRemote: CameraModel = {
        var model = CameraModel.sony
        model.identifier = "sony-no-pc-remote"
        model.manufacturer = SonyILCE7M3Facts.manufacturer
        model.model = SonyILCE7M3Facts.model
        model.deviceVersion = SonyILCE7M3Facts.deviceVersion
        model.vendorExtensionID = VendorExtensionID(rawValue: SonyILCE7M3Facts.vendorExtensionID)
        model.vendorExtensionDesc = ""
        // The body enumerates with another product ID in MTP mode: "Sony:Alpha-A7 III (MTP mode)", 0x054c, 0x0c03,
        // no capture flags (libgphoto2 `models[]`).
        model.usbProductID = 0x0C03
        model.operationsSupported = SonyILCE7M3Facts.operations.map(OperationCode.init(rawValue:))
        model.eventsSupported = SonyILCE7M3Facts.events.map(EventCode.init(rawValue:))
        model.deviceInfoProperties = SonyILCE7M3Facts.properties.map(DevicePropertyCode.init(rawValue:))
        return model
    }()
}
