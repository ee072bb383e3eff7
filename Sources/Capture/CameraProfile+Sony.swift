import PTP

extension CameraProfile {
    /// Sony Alpha and RX bodies in PC Remote mode: ``SonyCaptureDriver``, image quality through CompressionSetting
    /// (0x5004, UINT8) with Sony's values (enumeration [2, 3, 4, 16, 19] in the `gphoto2 --summary` of Sony bodies
    /// in libgphoto2's `camlibs/ptp2/cameras/`): 2 Standard, 3 Fine, 4 Extra Fine, 0x10 RAW, 0x13 RAW+JPEG. The raw
    /// depth is the body's own (no property).
    ///
    /// A new value (and driver) each time: the driver keeps what `prepare` learnt about one camera for its run.
    public static var sony: CameraProfile {
        CameraProfile(
            name: "sony", qualityProperty: .compressionSetting,
            qualityValues: [
                QualityValue(.uint8(3), .jpeg), QualityValue(.uint8(2), .jpeg), QualityValue(.uint8(4), .jpeg),
                QualityValue(.uint8(0x10), .raw), QualityValue(.uint8(0x13), .rawPlusJPEG),
            ],
            rawBitDepthProperty: nil, driver: SonyCaptureDriver())
    }

    /// A Sony camera that is not in PC Remote mode, recognised from DeviceInfo alone: made by Sony (USB idVendor
    /// 0x054C, or DeviceInfo's vendor), listing neither SDIOConnect (0x9201) nor InitiateCapture. In "MTP" or
    /// "Mass Storage" mode a body answers without Sony's SDIO operations (a real ILCE-7M3 still with
    /// VendorExtensionID 0x11 and the MTP object property operations: libgphoto2 `cameras/sony-ilce-7m3.txt`); its
    /// profile's driver fails in `prepare` with one clear line instead of a capture that cannot start.
    static func sonyOutsidePCRemote(_ info: DeviceInfo, usbVendorID: USBVendorID?) -> CameraProfile? {
        guard let reason = sonyOutsidePCRemoteReason(info, usbVendorID: usbVendorID) else { return nil }
        var profile = CameraProfile.sony
        profile.driver = SonyCaptureDriver.unavailable(reason)
        return profile
    }

    /// Why a Sony camera takes no remote commands (see ``sonyOutsidePCRemote(_:usbVendorID:)``), or `nil`.
    static func sonyOutsidePCRemoteReason(_ info: DeviceInfo, usbVendorID: USBVendorID?) -> String? {
        let maker = usbVendorID?.vendorExtension ?? info.cameraVendor
        guard maker == .sony, !info.supports(OperationCode.Sony.sdioConnect), !info.supports(.initiateCapture)
        else { return nil }
        return
            "the Sony camera \(info.model.isEmpty ? "" : "\"\(info.model)\" ")is not in PC Remote mode (it lists no SDIOConnect 0x9201)"
    }
}
