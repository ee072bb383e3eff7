import Logging
import WireFormat

/// The vendor operations capture drivers need, one call each: the operation, its parameters, its data phase
/// decoded with the session's quirks. Codes and layouts are documented on the types they return.
extension PTPSession {
    // MARK: Canon EOS

    /// Canon EOS GetEvent (0x9116): the records queued since the last call (empty when only the terminator came).
    public func canonGetEvents() async throws -> CanonEOSEventList {
        try CanonEOSEventList(ptpEncoded: try await dataIn(OperationCode.Canon.getEvent), quirks: configuration.quirks)
    }

    /// Canon EOS SetRemoteMode (0x9114): 1 enables remote control (``CanonEOSCapture/remoteModeOn``).
    public func canonSetRemoteMode(_ mode: UInt32 = CanonEOSCapture.remoteModeOn) async throws {
        try await execute(OperationCode.Canon.setRemoteMode, parameters: [mode])
    }

    /// Canon EOS SetEventMode (0x9115): 1 queues events for GetEvent (``CanonEOSCapture/eventModeOn``).
    public func canonSetEventMode(_ mode: UInt32 = CanonEOSCapture.eventModeOn) async throws {
        try await execute(OperationCode.Canon.setEventMode, parameters: [mode])
    }

    /// Canon EOS SetDevicePropValueEx (0x9110) with `value` as the data phase.
    public func canonSetPropertyValue(_ value: CanonEOSPropertyValue) async throws {
        _ = try await execute(
            OperationCode.Canon.setDevicePropValueEx, parameters: [], dataOut: value.ptpEncoded, expectDataIn: false)
    }

    /// Canon EOS PCHDDCapacity (0x911A) with ``CanonEOSCapture/pcHDDCapacityParameters``.
    public func canonReportHostCapacity(_ parameters: [UInt32] = CanonEOSCapture.pcHDDCapacityParameters)
        async throws
    {
        try await execute(OperationCode.Canon.pcHDDCapacity, parameters: parameters)
    }

    /// Canon EOS RemoteReleaseOn (0x9128) with a full press (``CanonEOSCapture/releaseParameters(autofocus:)``).
    public func canonRemoteReleaseOn(autofocus: Bool) async throws {
        try await execute(
            OperationCode.Canon.remoteReleaseOn, parameters: CanonEOSCapture.releaseParameters(autofocus: autofocus))
    }

    /// Canon EOS RemoteReleaseOff (0x9129) for the full press.
    public func canonRemoteReleaseOff() async throws {
        try await execute(OperationCode.Canon.remoteReleaseOff, parameters: [CanonEOSCapture.fullPress])
    }

    /// Canon EOS RemoteRelease (0x910F), the release of bodies without RemoteReleaseOn.
    public func canonRemoteRelease() async throws {
        try await execute(OperationCode.Canon.remoteRelease)
    }

    /// Canon EOS TransferComplete (0x9117) for a downloaded transfer request, which frees the camera's buffer.
    public func canonTransferComplete(_ handle: ObjectHandle) async throws {
        try await execute(OperationCode.Canon.transferComplete, parameters: [handle.rawValue])
    }

    // MARK: Nikon

    /// Nikon GetEvent (0x90C7): the events queued since the last call.
    public func nikonGetEvents() async throws -> NikonEventList {
        try NikonEventList(ptpEncoded: try await dataIn(OperationCode.Nikon.getEvent), quirks: configuration.quirks)
    }

    /// Nikon GetEventEx (0x941C): the events queued since the last call, with all their parameters. Bodies that
    /// list it (Z series) report through it; feed ``NikonEventListEx/Event/singleParameterEvent`` to
    /// ``NikonCaptureSequence``.
    public func nikonGetEventsEx() async throws -> NikonEventListEx {
        try NikonEventListEx(
            ptpEncoded: try await dataIn(OperationCode.Nikon.getEventEx), quirks: configuration.quirks)
    }

    /// Nikon DeviceReady (0x90C8): `true` when the camera answers OK or SilentReleaseBusy (0xA201, which a Z body in
    /// silent mode answers while it is in fact ready), `false` for DeviceBusy (0x2019) and BulbReleaseBusy (0xA200);
    /// any other answer throws ``PTPError``. (libgphoto2 `ptp.c` `ptp_nikon_device_ready` treats the codes the same.)
    public func nikonDeviceReady() async throws -> Bool {
        do {
            try await execute(OperationCode.Nikon.deviceReady)
            return true
        } catch let error as PTPError where error.response == .deviceBusy
            || error.response == ResponseCode.Nikon.bulbReleaseBusy
        {
            return false
        } catch let error as PTPError where error.response == ResponseCode.Nikon.silentReleaseBusy {
            return true
        }
    }

    /// Nikon InitiateCaptureRecInSdram (0x90C0): `true` when the camera took the request, `false` for DeviceBusy
    /// (send it again after a pause, as ``NikonCaptureSequence`` does).
    public func nikonInitiateCaptureRecInSdram(
        autofocus: NikonCaptureSequence.Autofocus = .none
    ) async throws -> Bool {
        try await acceptedUnlessBusy {
            try await self.execute(OperationCode.Nikon.initiateCaptureRecInSdram, parameters: [autofocus.rawValue])
        }
    }

    // MARK: Sony

    /// Sony SDIOConnect (0x9201) for `phase`, with parameters (phase, 0, 0); the data phase is read and dropped.
    public func sonySDIOConnect(phase: SonySDIOPhase) async throws {
        _ = try await dataIn(OperationCode.Sony.sdioConnect, phase.parameters)
    }

    /// Most GetSDIOExtDeviceInfo requests while the camera answers with an empty data phase (libgphoto2 `library.c`
    /// `fixup_cached_deviceinfo`: "tries = 20").
    public static let sonyExtDeviceInfoAttempts = 20

    /// Sony GetSDIOExtDeviceInfo (0x9202) offering `version`, with the parameters libgphoto2 sends (`ptp.c`
    /// `ptp_sony_get_vendorpropcodes`: the version, then 1), asked again while the answer is empty (up to
    /// ``sonyExtDeviceInfoAttempts`` times, as libgphoto2 does). A camera that refuses the two parameters is asked
    /// with the version alone, as Rocc asked a real DSC-RX100M7 (`Fixtures/traces/sony-rx100m7-ptpip-sdio`) and
    /// older libgphoto2 an ILCE-6000 and a ZV-E10 (0xC8 alone, gphoto2 issues 93 and 477).
    public func sonyGetExtDeviceInfo(version: SonyProtocolVersion = .v300) async throws -> SonyExtDeviceInfo {
        var parameters = [version.rawValue, 1]
        var bytes: [UInt8] = []
        for _ in 0..<Self.sonyExtDeviceInfoAttempts where bytes.isEmpty {
            do {
                bytes = try await dataIn(OperationCode.Sony.getSDIOExtDeviceInfo, parameters)
            } catch let error as PTPError where error.code == .deviceResponse && parameters.count == 2 {
                logger.debug("GetSDIOExtDeviceInfo with (version, 1) refused (\(error)); asking with the version alone")
                parameters = [version.rawValue]
                bytes = try await dataIn(OperationCode.Sony.getSDIOExtDeviceInfo, parameters)
            }
        }
        return try SonyExtDeviceInfo(ptpEncoded: bytes, quirks: configuration.quirks)
    }

    /// The whole Sony handshake (``SonySDIOPhase/sequence(version:)``): phases 1 and 2, GetSDIOExtDeviceInfo,
    /// phase 3. Returns the extended device info.
    public func sonyConnect(version: SonyProtocolVersion = .v300) async throws -> SonyExtDeviceInfo {
        var info: SonyExtDeviceInfo?
        for step in SonySDIOPhase.sequence(version: version) {
            switch step {
            case .connect(let phase): try await sonySDIOConnect(phase: phase)
            case .getExtDeviceInfo(let version): info = try await sonyGetExtDeviceInfo(version: version)
            }
        }
        guard let info else { throw PTPError(.unexpectedContainer, operation: OperationCode.Sony.getSDIOExtDeviceInfo) }
        return info
    }

    /// Sony GetAllDevicePropData (0x9209): every property's description.
    public func sonyGetAllDevicePropData() async throws -> SonyAllDevicePropData {
        try SonyAllDevicePropData(
            ptpEncoded: try await dataIn(OperationCode.Sony.getAllDevicePropData), quirks: configuration.quirks)
    }

    /// GetAllDevicePropData, running the SDIO handshake first when the camera refuses it: Sony bodies answer their
    /// property operations only after SDIOConnect phase 3 (libgphoto2 runs the handshake in `camera_init`), and
    /// `config` and `info` reach the camera without a capture driver to run it. Running it again is harmless: phase
    /// 1 starts it over.
    public func sonyAllDevicePropDataAfterHandshake() async throws -> SonyAllDevicePropData {
        do {
            return try await sonyGetAllDevicePropData()
        } catch let error as PTPError where error.code == .deviceResponse && error.response != nil {
            _ = try await sonyConnect()
            return try await sonyGetAllDevicePropData()
        }
    }

    /// Sony SetControlDeviceA (0x9205): sets a property (parameter: its code; data: the value in its type).
    public func sonySetControlDeviceA(_ property: DevicePropertyCode, _ value: PTPValue) async throws {
        _ = try await execute(
            OperationCode.Sony.setControlDeviceA, parameters: [UInt32(property.rawValue)], dataOut: value.ptpEncoded,
            expectDataIn: false)
    }

    /// Sony PriorityMode (0xD25A) = INT8 1, "application": the host, not the body's dials, decides the settings.
    /// libgphoto2 sets it with SetControlDeviceA right after SDIOConnect phase 3 and only logs a refusal
    /// (`library.c` `fixup_cached_deviceinfo`); a real ILCE-7SM3 answered OK (libgphoto2's `sony-a7sm3.txt`).
    public func sonySetPriorityToHost() async throws {
        try await sonySetControlDeviceA(SonyControl.priorityModeProperty, .int8(SonyControl.priorityApplication))
    }

    /// Sony SetControlDeviceB (0x9207): operates a control such as a shutter button (parameter: its code; data:
    /// the value in its type).
    public func sonySetControlDeviceB(_ control: DevicePropertyCode, _ value: PTPValue) async throws {
        _ = try await execute(
            OperationCode.Sony.setControlDeviceB, parameters: [UInt32(control.rawValue)], dataOut: value.ptpEncoded,
            expectDataIn: false)
    }

    /// One button action of ``SonyControl/shutterSequence``: SetControlDeviceB with a UINT16 value.
    public func sonyPress(_ press: SonyControl.Press) async throws {
        try await sonySetControlDeviceB(press.control, .uint16(press.value))
    }

    /// The shots waiting in a Sony camera's buffer, read from ObjectInMemory (0xD215) in GetAllDevicePropData;
    /// 0 when the camera does not describe the property.
    public func sonyPendingObjectCount() async throws -> Int {
        let properties = try await sonyGetAllDevicePropData()
        guard case .uint16(let value)? = properties[SonyControl.pendingObjectsProperty]?.currentValue else { return 0 }
        return SonyControl.pendingObjectCount(value)
    }

    // MARK: Fujifilm

    /// The Fujifilm change list: GetDevicePropValue (0x1015) of 0xD212, decoded as ``FujifilmPropertyChangeList``.
    public func fujifilmGetPropertyChanges() async throws -> FujifilmPropertyChangeList {
        try FujifilmPropertyChangeList(
            ptpEncoded: try await dataIn(.getDevicePropValue, [UInt32(FujifilmCapture.changesProperty.rawValue)]),
            quirks: configuration.quirks)
    }

    // MARK: Plumbing

    private func dataIn(_ code: OperationCode, _ parameters: [UInt32] = []) async throws -> [UInt8] {
        try await execute(code, parameters: parameters, dataOut: nil, expectDataIn: true).data ?? []
    }

    private func acceptedUnlessBusy(_ operation: () async throws -> Void) async throws -> Bool {
        do {
            try await operation()
            return true
        } catch let error as PTPError where error.response == .deviceBusy {
            return false
        }
    }
}
