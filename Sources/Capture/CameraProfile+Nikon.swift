import Logging
import PTP

extension CameraProfile {
    /// Nikon CompressionSetting (0x5004) values (``PTP/NikonImageQuality``): 2 JPEG Fine, 4 NEF, 7 NEF + Fine JPEG
    /// first (what rawcap chooses), then the other values a body may be set to, so the current setting reads as
    /// what it is (0/1 JPEG Basic/Normal, 5/6 NEF + Basic/Normal JPEG).
    public static let nikonQualityValues: [QualityValue] = [
        QualityValue(.uint8(NikonImageQuality.jpegFine.rawValue), .jpeg),
        QualityValue(.uint8(NikonImageQuality.nef.rawValue), .raw),
        QualityValue(.uint8(NikonImageQuality.nefPlusFine.rawValue), .rawPlusJPEG),
        QualityValue(.uint8(NikonImageQuality.jpegBasic.rawValue), .jpeg),
        QualityValue(.uint8(NikonImageQuality.jpegNormal.rawValue), .jpeg),
        QualityValue(.uint8(NikonImageQuality.nefPlusBasic.rawValue), .rawPlusJPEG),
        QualityValue(.uint8(NikonImageQuality.nefPlusNormal.rawValue), .rawPlusJPEG),
    ]

    /// Nikon DSLRs and Z bodies: quality through CompressionSetting with Nikon's values, NEF depth through
    /// RawBitMode (0xD149: 0 is 12-bit, 1 is 14-bit), shots through ``NikonCaptureDriver`` (SDRAM capture,
    /// DeviceReady, Nikon GetEvent).
    public static func nikon(logger: Logger) -> CameraProfile {
        var profile = CameraProfile(
            name: "nikon", qualityProperty: NikonImageQuality.property, qualityValues: nikonQualityValues,
            rawBitDepthProperty: NikonRawBitMode.property, driver: NikonCaptureDriver(logger: logger))
        profile.rawBitDepthValues = [
            RawBitDepthValue(.uint8(NikonRawBitMode.twelveBit.rawValue), bits: 12),
            RawBitDepthValue(.uint8(NikonRawBitMode.fourteenBit.rawValue), bits: 14),
        ]
        return profile
    }
}
