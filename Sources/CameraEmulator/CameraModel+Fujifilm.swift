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
    /// Real bytes and where there are none (issue 14): no whole DeviceInfo of an X-T2 is at hand (an X-T20's first
    /// 80 bytes, gphoto2 issue 196, and a stretch of an X-T4's, gphoto2 issue 445, are); libgphoto2 appends 72
    /// property codes to real X bodies' DeviceInfo because they do not list them all (`fixup_cached_deviceinfo`),
    /// while this body lists its capture properties (0xD207, 0xD208, 0xD209) itself. Its events and change list
    /// follow libgphoto2's `camera_fuji_capture`, not a recording.
    public static let fujifilm: CameraModel = {
        var model = CameraModel.generic
        model.identifier = "fuji"
        model.manufacturer = "FUJIFILM"
        model.model = "X-T2"
        model.deviceVersion = "4.30"
        model.serialNumber = "59533436313816F2A4EF301210D9EA"
        model.vendorExtensionID = .fujifilm
        model.vendorExtensionVersion = 100
        model.vendorExtensionDesc = "fujifilm.co.jp: 1.0; "
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
        // InitiateOpenCapture (0x101C); the X-T2's entry in `models[]` has PTP_CAP_PREVIEW, and a body in PC mode
        // lists 0x101C/0x1018 (libgphoto2 `camlibs/ptp2/cameras/fuji-x-s10.txt`). Its bulb is still CaptureControl
        // around InitiateCapture (`config.c` `_put_Fuji_Bulb`), not the standard open capture.
        model.operationsSupported += [.initiateOpenCapture, .terminateOpenCapture]
        model.usbVendorID = USBVendorID.fujifilm.rawValue
        // libgphoto2 `models[]` flags this entry PTP_CAP|PTP_CAP_PREVIEW ("with new updated firmware 1.1").
        model.usbProductID = 0x02CD
        model.rawFileFormat = .raf
        return model
    }()
}
