import PTP

extension CameraSettings {
    /// These settings with the `quality` of a Nikon named by its body's numbering.
    ///
    /// For a Nikon that lists CompressionSetting (0x5004), reads its descriptor and picks the numbering from the
    /// model, `usbProductID` and the values the body enumerates
    /// (``PTP/NikonImageQualityTable/identify(model:usbProductID:descriptor:)``). When none can be established,
    /// `quality` keeps plain numbers (``PropertyCatalog/nikonImageQualityNumbers``) and one warning says why.
    /// Any other camera gets `self` back. The session must be open.
    ///
    /// - Parameter usbProductID: idProduct of a camera on USB with Nikon's vendor ID (0x04B0), else `nil`.
    public func identifyingNikonImageQuality(usbProductID: UInt16?) async throws -> CameraSettings {
        guard vendor == .nikon, deviceInfo.devicePropertiesSupported.contains(.compressionSetting) else { return self }
        let descriptor: DevicePropDesc
        do {
            descriptor = try await session.getDevicePropDesc(.compressionSetting)
        } catch let error as PTPError where error.code == .deviceResponse {
            logger.warning("quality: the camera would not describe CompressionSetting (\(error)); shown as numbers")
            return self
        }
        let choice = NikonImageQualityTable.identify(
            model: deviceInfo.model, usbProductID: usbProductID, descriptor: descriptor)
        guard let table = choice.table else {
            logger.warning(
                "quality: cannot tell what this Nikon's CompressionSetting values mean (\(choice.reason)); shown as numbers"
            )
            return self
        }
        logger.debug("quality: \(choice)")
        return CameraSettings(
            session: session, deviceInfo: deviceInfo,
            catalog: catalog.preferring(PropertyCatalog.nikonImageQuality(table)), logger: logger)
    }
}
