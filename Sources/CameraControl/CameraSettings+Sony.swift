import PTP

extension CameraSettings {
    /// Whether the camera's properties are read with Sony GetAllDevicePropData (0x9209) and written with
    /// SetControlDeviceA (0x9205) rather than the standard operations.
    ///
    /// Sony bodies in PC Remote mode describe their properties only through 0x9209 and take values only through
    /// 0x9205 (libgphoto2 `ptp.c` `ptp_generic_getdevicepropdesc` answers Sony bodies from
    /// `ptp_sony_getalldevicepropdesc`; `config.c` sets them with `ptp_sony_setdevicecontrolvaluea`), and list
    /// neither GetDevicePropDesc nor SetDevicePropValue. The SDIO handshake must have run first (the Sony capture
    /// driver's `prepare` does it).
    public var usesSonyPropertyOperations: Bool {
        vendor == .sony && deviceInfo.supports(OperationCode.Sony.getAllDevicePropData)
            && deviceInfo.supports(OperationCode.Sony.setControlDeviceA)
    }

    /// The description of `definition`'s property from GetAllDevicePropData (running the SDIO handshake first when
    /// the camera refuses it), as a standard DevicePropDesc (``PTP/SonyDevicePropDesc/standardDescription``).
    ///
    /// - Throws: ``CameraControlError/Code/refused`` when the camera does not describe the property.
    func sonyDescriptor(_ definition: PropertyDefinition) async throws -> DevicePropDesc {
        let all = try await session.sonyAllDevicePropDataAfterHandshake()
        guard let sony = all[definition.code] else {
            throw CameraControlError(
                .refused, property: definition.name,
                "the camera does not describe it in GetAllDevicePropData (0x9209)")
        }
        return sony.standardDescription
    }

    /// Writes a property value with the operation this camera takes: SetControlDeviceA for Sony bodies in PC
    /// Remote mode, SetDevicePropValue otherwise.
    func writeValue(_ code: DevicePropertyCode, _ value: PTPValue) async throws {
        if usesSonyPropertyOperations {
            try await session.sonySetControlDeviceA(code, value)
        } else {
            try await session.setDevicePropValue(code, value)
        }
    }
}
