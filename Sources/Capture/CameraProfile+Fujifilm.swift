import PTP

extension CameraProfile {
    /// Fujifilm X and GFX bodies in USB tether mode: ``FujifilmCaptureDriver``, image quality through Quality
    /// (0xD018, UINT16; libgphoto2 `config.c` `fuji_imageformat`: 1 RAW, 2 JPEG Fine, 3 JPEG Normal, 4 RAW + JPEG
    /// Fine, 5 RAW + JPEG Normal). The raw depth is the body's own.
    ///
    /// A new value (and driver) each time: the driver keeps what `prepare` learnt about one camera for its run.
    ///
    /// Objects are downloaded whole with GetObject, never in GetPartialObject pieces (libgphoto2 issue 653;
    /// ``partialObjectDownloads``).
    public static var fujifilm: CameraProfile {
        var profile = CameraProfile(
            name: "fujifilm", qualityProperty: DevicePropertyCode.Fujifilm.quality,
            qualityValues: [
                QualityValue(.uint16(1), .raw), QualityValue(.uint16(2), .jpeg), QualityValue(.uint16(3), .jpeg),
                QualityValue(.uint16(4), .rawPlusJPEG), QualityValue(.uint16(5), .rawPlusJPEG),
            ],
            rawBitDepthProperty: nil, driver: FujifilmCaptureDriver())
        profile.partialObjectDownloads = false
        return profile
    }
}
