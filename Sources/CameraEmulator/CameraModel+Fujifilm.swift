import PTP
import RawImage

extension CameraModel {
    /// A Fujifilm X-T2 in USB tether ("PC shoot auto") mode, as libgphoto2 drives it.
    ///
    /// Identity as X bodies report it: Manufacturer "FUJIFILM", VendorExtensionID 0x0000000E (libgphoto2 `ptp.h`
    /// `PTP_VENDOR_FUJI`), USB 0x04CB:0x02CD (`library.c` `models[]`: `{"Fuji:Fujifilm X-T2", 0x04cb, 0x02cd, PTP_CAP…}`).
    /// Capture is standard InitiateCapture steered by CaptureControl (0xD208: 0x0200 focus, 0x0304 shoot) once
    /// PriorityMode (0xD207) gives the host control; image quality is Fujifilm's Quality (0xD018, UINT16, libgphoto2
    /// `config.c` `fuji_imageformat`: 1 RAW, 2 JPEG Fine, 3 JPEG Normal, 4 RAW + JPEG Fine, 5 RAW + JPEG Normal).
    /// Raw files are uncompressed X-Trans RAF (``RawFileFormat/raf``) at 14 bits, named `DSCF0001.RAF` in
    /// `100_FUJI`, 6160×4032 photosites by default like the real sensor. The X-T2 is a body LibRaw 0.20 and later
    /// identify from the RAF alone (the X-T3 needs its compressed-RAF size tables).
    ///
    /// The real body (issue 14): DeviceInfo (manufacturer, model, firmware 1.10, vendor extension, operations,
    /// events, properties and formats, each list in its order) and every property description are those of a real
    /// X-T2 in libgphoto2's summary (``FujifilmXT2Facts``, which names the file), except the properties the emulator
    /// models (battery, image size, white balance, ISO, date, Quality, PriorityMode, CaptureControl, AFStatus). Like
    /// the real body it lists properties it will not describe (DevicePropNotSupported) and answers FNumber,
    /// ExposureTime, ExposureBiasCompensation, FocalLength and PC mode 0xD38C without listing them. It lists the real
    /// body's operations; of those the emulator does not model FormatStore (0x100F), ResetDevicePropValue (0x1017),
    /// 0x900C, 0x900D, 0x901D and the MTP object property operations 0x9801–0x9805, which answer
    /// OperationNotSupported. No real bytes are at hand for its events and the 0xD212 change list (they follow
    /// libgphoto2's `camera_fuji_capture`), its storage (the summary shows two "Builtin RAM" stores, the emulator one
    /// card and its folders), nor for its USB descriptor beyond libgphoto2's `models[]` IDs.
    public static let fujifilm: CameraModel = {
        var model = CameraModel.generic
        model.identifier = "fuji"
        model.manufacturer = "FUJIFILM"
        model.model = FujifilmXT2Facts.model
        model.deviceVersion = FujifilmXT2Facts.deviceVersion
        model.serialNumber = "59533436313816F2A4EF301210D9EA"
        model.vendorExtensionID = .fujifilm
        model.vendorExtensionVersion = 100
        model.vendorExtensionDesc = FujifilmXT2Facts.vendorExtensionDesc
        model.lensModel = "XF35mmF1.4 R"
        model.focalLength = 35
        model.cfa = .xTrans
        model.defaultSensorWidth = 6160
        model.defaultSensorHeight = 4032
        model.folderSuffix = "_FUJI"
        model.filePrefix = "DSCF"
        model.qualityProperty = DevicePropertyCode.Fujifilm.quality
        model.qualityValues = [
            QualityValue(value: .uint16(1), quality: .raw), QualityValue(value: .uint16(2), quality: .jpeg),
            QualityValue(value: .uint16(3), quality: .jpeg), QualityValue(value: .uint16(4), quality: .rawPlusJPEG),
            QualityValue(value: .uint16(5), quality: .rawPlusJPEG),
        ]
        model.defaultQuality = .raw
        model.rawBitDepths = [14]
        model.defaultRawBitDepth = 14
        model.hasCaptureTarget = false
        model.personality = .fujifilm
        // Live view over USB (`EmulatedCamera+LiveView.swift`): libgphoto2 `camera_capture_preview` starts it with
        // InitiateOpenCapture (0x101C); the X-T2's entry in `models[]` has PTP_CAP_PREVIEW, and the real X-T2 lists
        // 0x101C/0x1018 (``FujifilmXT2Facts``). Its bulb is still CaptureControl
        // around InitiateCapture (`config.c` `_put_Fuji_Bulb`), not the standard open capture.
        model.operationsSupported = FujifilmXT2Facts.operations.map(OperationCode.init(rawValue:))
        model.eventsSupported = FujifilmXT2Facts.events.map(EventCode.init(rawValue:))
        model.captureFormats = FujifilmXT2Facts.captureFormats.map(ObjectFormatCode.init(rawValue:))
        model.imageFormats = FujifilmXT2Facts.imageFormats.map(ObjectFormatCode.init(rawValue:))
        model.realBodyProperties = FujifilmXT2Facts.descriptions
        model.deviceInfoProperties = FujifilmXT2Facts.properties.map(DevicePropertyCode.init(rawValue:))
        model.usbVendorID = USBVendorID.fujifilm.rawValue
        // libgphoto2 `models[]` flags this entry PTP_CAP|PTP_CAP_PREVIEW ("with new updated firmware 1.1").
        model.usbProductID = 0x02CD
        model.rawFileFormat = .raf
        model.sensorSizeRule = SensorSizeRule(format: "RAF")
        return model
    }()
}
