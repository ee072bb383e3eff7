import Logging
import PTP

extension CameraProfile {
    /// The shot qualities a Nikon numbering's values select, most wanted first for each: NEF for RAW; NEF + Fine,
    /// then the ★ and coarser JPEGs, for RAW+JPEG; JPEG Fine, then the rest, for JPEG. TIFF selects none of them.
    /// A run sets the first value of its quality that the body enumerates; every value is listed so that the
    /// current setting reads as what it is. (``PTP/NikonImageQualityTable``: NEF is 4 on a D810, 7 on a D850.)
    public static func nikonQualityValues(_ table: NikonImageQualityTable) -> [QualityValue] {
        let order: [NikonImageQuality.JPEGCompression] = [.fine, .normal, .basic]
        let wanted: [(NikonImageQuality, ShotQuality)] =
            [(.nef, .raw)]
            + order.flatMap { [(.nefPlus($0), .rawPlusJPEG), (.nefPlus($0, optimal: true), .rawPlusJPEG)] }
            + order.flatMap { [(.jpeg($0), .jpeg), (.jpeg($0, optimal: true), .jpeg)] }
        return wanted.compactMap { quality, shot in
            table.value(of: quality).map { QualityValue(.uint8($0), shot) }
        }
    }

    /// Nikon DSLRs and Z bodies: quality through CompressionSetting with the body's numbering, NEF depth through
    /// RawBitMode (0xD149: 0 is 12-bit, 1 is 14-bit), shots through ``NikonCaptureDriver`` (SDRAM capture,
    /// DeviceReady, Nikon GetEvent).
    ///
    /// The numbering is chosen once CompressionSetting's descriptor is read, from `model`, `usbProductID` and the
    /// values the body enumerates (``PTP/NikonImageQualityTable/identify(model:usbProductID:enumeration:current:)``);
    /// when none can be established the run leaves the quality as set on the camera and says why.
    /// - Parameters:
    ///   - model: DeviceInfo Model (`D850`).
    ///   - usbProductID: idProduct of a camera on USB with Nikon's vendor ID (0x04B0), else `nil`.
    public static func nikon(logger: Logger, model: String = "", usbProductID: UInt16? = nil) -> CameraProfile {
        var profile = CameraProfile(
            name: "nikon", qualityProperty: NikonImageQuality.property, qualityValues: [],
            rawBitDepthProperty: NikonRawBitMode.property, driver: NikonCaptureDriver(logger: logger))
        profile.rawBitDepthValues = [
            RawBitDepthValue(.uint8(NikonRawBitMode.twelveBit.rawValue), bits: 12),
            RawBitDepthValue(.uint8(NikonRawBitMode.fourteenBit.rawValue), bits: 14),
        ]
        profile.bodyQualityValues = { descriptor in
            let choice = NikonImageQualityTable.identify(
                model: model, usbProductID: usbProductID, descriptor: descriptor)
            guard let table = choice.table else { return .undetermined(reason: choice.reason) }
            return .values(nikonQualityValues(table), reason: "\(table) numbering: \(choice.reason)")
        }
        return profile
    }
}
