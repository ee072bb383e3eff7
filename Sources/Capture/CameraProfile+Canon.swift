import Logging
import PTP

extension CameraProfile {
    /// Canon EOS bodies: settings through EOS GetEvent records and SetDevicePropValueEx (image quality is the
    /// ImageFormat structure, 0xD120, read and set by ``CanonEOSQualityControl``), shots through
    /// ``CanonEOSCaptureDriver`` (remote release, GetEvent polling, TransferComplete). EOS CR2 is 14-bit only: there
    /// is no bit depth property.
    public static func canonEOS(logger: Logger) -> CameraProfile {
        let state = CanonEOSHostState(logger: logger)
        var profile = CameraProfile(
            name: "canon-eos", qualityProperty: nil, qualityValues: [], rawBitDepthProperty: nil,
            driver: CanonEOSCaptureDriver(state: state))
        profile.qualityControl = CanonEOSQualityControl(state: state)
        return profile
    }
}

/// Image quality on a Canon EOS body: the ImageFormat (0xD120) values the body offers in its AvailListChanged
/// record, its current value from PropValueChanged, and SetDevicePropValueEx (0x9110) to change it.
public struct CanonEOSQualityControl: QualityControl {
    let state: CanonEOSHostState

    /// ImageFormat (0xD120).
    public var property: DevicePropertyCode { CanonEOSImageFormat.property }

    /// The structure rawcap sets for each quality: Large RAW, Large RAW + Large Fine JPEG, Large Fine JPEG.
    public static func format(for quality: ShotQuality) -> CanonEOSImageFormat {
        switch quality {
        case .raw: .raw
        case .rawPlusJPEG: .rawPlusJPEG
        case .jpeg: .jpegFine
        }
    }

    /// What a structure writes.
    public static func quality(of format: CanonEOSImageFormat) -> ShotQuality? {
        switch (format.includesRaw, format.includesJPEG) {
        case (true, true): .rawPlusJPEG
        case (true, false): .raw
        case (false, true): .jpeg
        default: nil
        }
    }

    /// Reads the offered and current ImageFormat from the body's records (after the EOS preparation).
    public func read(session: PTPSession) async throws -> FormatCatalog {
        try await state.prepare(session: session)
        let (offered, current) = await state.imageFormats()
        // A body that cannot be set keeps its own setting (prepare has said so once).
        guard await state.deviceInfo?.supports(OperationCode.Canon.setDevicePropValueEx) == true else {
            return FormatCatalog(qualities: [], currentQuality: current.flatMap(Self.quality(of:)))
        }
        var qualities: [ShotQuality] = []
        for quality in ShotQuality.allCases where offered.contains(where: { Self.quality(of: $0) == quality }) {
            qualities.append(quality)
        }
        return FormatCatalog(qualities: qualities, currentQuality: current.flatMap(Self.quality(of:)))
    }

    /// Sets the ImageFormat with the offered structure that writes `quality` (Canon's own when it lists one).
    public func set(_ quality: ShotQuality, session: PTPSession) async throws {
        try await state.prepare(session: session)
        let (offered, current) = await state.imageFormats()
        if let current, Self.quality(of: current) == quality { return }
        let format = offered.first { Self.quality(of: $0) == quality } ?? Self.format(for: quality)
        try await session.canonSetPropertyValue(
            CanonEOSPropertyValue(property: CanonEOSImageFormat.property, value: format.ptpEncoded))
        await state.setImageFormat(format)
    }
}
