/// The live view and focus operations, one call each (facts and sources on ``LiveViewProtocol``,
/// ``CanonEOSLiveView``, ``NikonLiveView``, ``SonyLiveView`` and ``FujifilmLiveView``).
extension PTPSession {
    private func liveViewData(_ code: OperationCode, _ parameters: [UInt32] = []) async throws -> [UInt8] {
        try await execute(code, parameters: parameters, dataOut: nil, expectDataIn: true).data ?? []
    }

    // MARK: Canon EOS

    /// Canon EOS GetViewFinderData (0x9153): one frame's records.
    public func canonGetViewFinderData() async throws -> CanonEOSViewFinderData {
        try CanonEOSViewFinderData(
            ptpEncoded: try await liveViewData(
                OperationCode.Canon.getViewFinderData, CanonEOSLiveView.getViewFinderDataParameters))
    }

    /// Canon EOS DriveLens (0x9155) with a ``CanonEOSLiveView/driveLensParameter(towardsFar:size:)`` parameter.
    public func canonDriveLens(_ parameter: UInt32) async throws {
        try await execute(OperationCode.Canon.driveLens, parameters: [parameter])
    }

    /// Canon EOS DoAf (0x9154): one autofocus run (libgphoto2 `config.c` `_put_Canon_EOS_AFDrive`).
    public func canonDoAf() async throws {
        try await execute(OperationCode.Canon.doAf)
    }

    // MARK: Nikon

    /// Nikon StartLiveView (0x9201); `false` for DeviceBusy, which libgphoto2 accepts and then waits on DeviceReady.
    public func nikonStartLiveView() async throws -> Bool {
        do {
            try await execute(OperationCode.Nikon.startLiveView)
            return true
        } catch let error as PTPError where error.response == .deviceBusy {
            return false
        }
    }

    /// Nikon EndLiveView (0x9202).
    public func nikonEndLiveView() async throws {
        try await execute(OperationCode.Nikon.endLiveView)
    }

    /// Nikon GetLiveViewImage (0x9203): the frame as sent, header and JPEG.
    public func nikonGetLiveViewImage() async throws -> [UInt8] {
        try await liveViewData(OperationCode.Nikon.getLiveViewImage)
    }

    /// Nikon MfDrive (0x9204): `steps` (at least 1) ``NikonLiveView/towardsNear`` or ``NikonLiveView/towardsFar``.
    public func nikonMfDrive(direction: UInt32, steps: UInt32) async throws {
        try await execute(OperationCode.Nikon.mfDrive, parameters: [direction, max(1, steps)])
    }

    /// Nikon AfDrive (0x90C1): one autofocus run; DeviceReady tells when it ends (libgphoto2 `config.c`
    /// `_put_Nikon_AFDrive`, "wait at most 5 seconds for focusing").
    public func nikonAfDrive() async throws {
        try await execute(OperationCode.Nikon.afDrive)
    }

    // MARK: Sony

    /// Sony ManualFocusAdjust (0xD2D1) through SetControlDeviceB: `step` −7…7, negative towards near.
    public func sonyManualFocus(step: Int16) async throws {
        let clamped = min(Int16(SonyLiveView.maximumStep), max(-Int16(SonyLiveView.maximumStep), step))
        try await sonySetControlDeviceB(SonyLiveView.manualFocusAdjust, .int16(clamped == 0 ? 1 : clamped))
    }

    /// GetObject of a vendor live view object (Sony 0xFFFFC002, Fujifilm 0x80000001) into memory.
    public func liveViewObject(_ handle: ObjectHandle) async throws -> [UInt8] {
        try await liveViewData(.getObject, [handle.rawValue])
    }
}
