import PTP
import RawImage

extension CameraModel {
    /// The NEF a Nikon shot stores is reported as Undefined (0x3000): libgphoto2 `library.c` `camera_nikon_capture`
    /// tells a NEF from a JPEG only by "ObjectFormat != EXIF_JPEG", and `ptp.c` lists no NEF format code.
    public static let nikonNEFFormat = ObjectFormatCode.undefined

    /// The TIFF Model the `nikon` personality's NEFs carry: LibRaw and dcraw look up the colour matrix by it.
    public static let nikonTIFFModel = "NIKON D850"

    /// A Nikon D850 as it reports itself over USB: "Nikon Corporation", VendorExtensionID 0x0000000A (Nikon),
    /// USB vendor 0x04B0, and the Nikon capture operations libgphoto2 drives it with (`library.c`
    /// `camera_nikon_capture`, codes from `ptp.h`): InitiateCaptureRecInSdram 0x90C0, GetEvent 0x90C7, DeviceReady
    /// 0x90C8, InitiateCaptureRecInMedia 0x9207.
    ///
    /// Like the real body, DeviceInfo lists only the standard properties; RecordingMedia, RawBitMode and the other
    /// vendor-range ones come from GetVendorPropCodes (0x90CA), and ChangeCameraMode (0x90C2) is answered
    /// (``EmulatedCamera/answerNikon(_:dataOut:)``). It lists and describes all 285 properties a real D850 reported
    /// (``NikonD850Facts``, from libgphoto2's `camlibs/ptp2/cameras/nikon-d850.txt`), in the real body's order; the
    /// ones the emulator does not model are inert. No real D850 bytes were available: the operation and event lists
    /// follow libgphoto2's `camera_nikon_capture`, not a recording, and the emulator's image quality leaves out TIFF
    /// (6) and its RecordingMedia offers 0 and 1 where the real body's range is 0–2.
    ///
    /// On USB it is 04B0:0441, the D850's IDs (libgphoto2 `library.c` `models[]` "Nikon:DSC D850"), so libgphoto2
    /// reads it as the D850 it is.
    ///
    /// Image quality is CompressionSetting 0x5004 with the D850's numbering (libgphoto2 `config.c`
    /// `nikon_d850_compression`, which its `menus[]` picks for product 0x0441): 0 JPEG Basic, 1 Basic★, 2 Normal,
    /// 3 Normal★, 4 Fine, 5 Fine★, 7 NEF, 8–13 NEF + Basic, Basic★, Normal, Normal★, Fine, Fine★; it starts at NEF
    /// (7). The D850's TIFF, 6, is not offered: the emulator stores no RGB TIFF (``ImageQuality``). The NEF depth is
    /// RawBitMode 0xD149 (0 12-bit, 1 14-bit); the capture target is RecordingMedia 0xD10B (0 card, 1 SDRAM).
    /// Shots are NEF files `DSC_0001.NEF` (format 0x3000) and `DSC_0001.JPG` in SDRAM, announced by
    /// ObjectAddedInSdram in GetEvent.
    ///
    /// The default readout is 4144×2768, about half the D850's 8256×5504 image on each side, so a shot develops four
    /// times faster; the NEF holds the readout less the synthetic scene's masked margin. LibRaw identifies the D850 by
    /// Make and Model, not by size, so the matrix and levels are the D850's either way.
    public static let nikon: CameraModel = {
        var model = CameraModel.generic
        model.identifier = "nikon"
        model.manufacturer = "Nikon Corporation"
        model.model = "D850"
        model.deviceVersion = "V1.10"
        model.serialNumber = "3012345"
        model.standardVersion = 100
        model.vendorExtensionID = .nikon
        model.vendorExtensionVersion = 100
        model.vendorExtensionDesc = "microsoft.com: 1.0"
        model.lensModel = "AF-S NIKKOR 50mm f/1.8G"
        model.cfa = .rggb
        model.defaultSensorWidth = 4128 + 16
        model.defaultSensorHeight = 2752 + 16
        model.folderSuffix = "ND850"
        model.filePrefix = "DSC_"
        model.operationsSupported = [
            .getDeviceInfo, .openSession, .closeSession, .getStorageIDs, .getStorageInfo, .getNumObjects,
            .getObjectHandles, .getObjectInfo, .getObject, .getThumb, .deleteObject, .initiateCapture,
            .getDevicePropDesc, .getDevicePropValue, .setDevicePropValue, .getPartialObject,
            OperationCode.Nikon.initiateCaptureRecInSdram, OperationCode.Nikon.getEvent,
            OperationCode.Nikon.deviceReady, OperationCode.Nikon.initiateCaptureRecInMedia,
            OperationCode.Nikon.changeCameraMode, OperationCode.Nikon.getVendorPropCodes,
            // Live view and focus (`EmulatedCamera+LiveView.swift`), as libgphoto2's `camera_capture_preview` and
            // `config.c` drive a D850: AfDrive 0x90C1, StartLiveView 0x9201, EndLiveView 0x9202, GetLiveViewImage
            // 0x9203, MfDrive 0x9204.
            OperationCode.Nikon.afDrive, OperationCode.Nikon.startLiveView, OperationCode.Nikon.endLiveView,
            OperationCode.Nikon.getLiveViewImage, OperationCode.Nikon.mfDrive,
            // Bulb ends with TerminateCapture (libgphoto2 `config.c` `_put_Nikon_Bulb`; its menu entry needs 0x920C).
            OperationCode.Nikon.terminateCapture,
        ]
        // ExposureTime 0xFFFFFFFF is bulb (`_put_Nikon_Bulb` sets it; the D850's 0x500D enumeration in
        // `nikon-d850.txt` ends with 4294967295 and 4294967293).
        model.bulbExposureTimeValue = 0xFFFF_FFFF
        // Only in M (ExposureProgramMode 1): libgphoto2 `_put_Nikon_Bulb` sets "Exposure Mode to Full Manual" before
        // it sets bulb. The D850's summary shows 0x500E settable with 1 2 3 4, in M.
        model.bulbExposureProgram = 1
        model.qualityProperty = .compressionSetting
        model.qualityValues =
            (0...5).map { QualityValue(value: .uint8($0), quality: .jpeg) }
            + [QualityValue(value: .uint8(7), quality: .raw)]
            + (8...13).map { QualityValue(value: .uint8($0), quality: .rawPlusJPEG) }
        model.defaultQuality = .raw
        model.rawBitDepthProperty = DevicePropertyCode.Nikon.rawBitMode
        model.rawBitDepths = [12, 14]
        model.rawBitDepthValues = [.uint8(0), .uint8(1)]
        model.defaultRawBitDepth = 14
        model.captureTargetProperty = DevicePropertyCode.Nikon.recordingMedia
        model.realBodyProperties = NikonD850Facts.descriptions
        model.personality = .nikon
        model.usbVendorID = USBVendorID.nikon.rawValue
        model.usbProductID = 0x0441
        model.sensorSizeRule = SensorSizeRule(format: "NEF")
        model.captureFormats = [nikonNEFFormat, .exifJPEG]
        model.imageFormats = [.association, .exifJPEG, nikonNEFFormat]
        model.eventsSupported = [
            .objectAdded, .storeFull, .captureComplete, EventCode.Nikon.objectAddedInSdram,
            EventCode.Nikon.captureCompleteRecInSdram,
        ]
        return model
    }()

    /// The D850 (its USB IDs and image quality numbering too) as a body that never names its shot
    /// (`nikon-no-object-event`): GetEvent reports
    /// CaptureCompleteRecInSdram (0xC102) once the shot is in SDRAM, but no ObjectAddedInSdram (0xC101), which
    /// DeviceInfo does not list either. The host must fetch the shot at 0xFFFF0001, as libgphoto2
    /// `camera_nikon_capture` does when no event names another handle (`newobject = 0xffff0001`). The shot's
    /// objects wait there one after the other, the way libgphoto2's burst loop reads them ("the image is always
    /// 0xffff0001. The firmware just gives us one after the other for the same ID"): DeleteObject of 0xFFFF0001
    /// frees the NEF and the JPEG of NEF+JPEG moves up; no other SDRAM handle answers.
    public static let nikonWithoutObjectEvents: CameraModel = {
        var model = CameraModel.nikon
        model.identifier = "nikon-no-object-event"
        model.announcesSDRAMObjects = false
        model.eventsSupported = [
            .objectAdded, .storeFull, .captureComplete, EventCode.Nikon.captureCompleteRecInSdram,
        ]
        return model
    }()
}
