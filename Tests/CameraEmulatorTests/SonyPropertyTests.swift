import CameraEmulator
import PTP
import Testing

/// The `sony` personality's properties and controls, through Sony's own operations and the strict handshake.
@Suite struct SonyPropertyTests {
    static func session(_ model: CameraModel = .sony) async throws -> (PTPSession, EmulatorLink) {
        let camera = try EmulatedCamera(model: model, configuration: .init(sensorWidth: 64, sensorHeight: 48))
        let link = EmulatorLink.usb(camera)
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        return (session, link)
    }

    @Test func propertiesAreRefusedBeforeTheHandshakeAndServedAfterIt() async throws {
        let (session, link) = try await Self.session()
        await #expect(throws: PTPError(response: .accessDenied, operation: OperationCode.Sony.getAllDevicePropData)) {
            try await session.sonyGetAllDevicePropData()
        }
        await #expect(throws: PTPError.self) { try await session.sonySDIOConnect(phase: .third) }
        let info = try await session.sonyConnect()
        #expect(info.version == 300)
        #expect(info.controls == [SonyControl.halfPress, SonyControl.fullPress])
        #expect(
            info.properties.contains(.compressionSetting)
                && info.properties.contains(SonyControl.pendingObjectsProperty))
        let all = try await session.sonyGetAllDevicePropData()
        #expect(all[.compressionSetting]?.currentValue == .uint8(0x10))
        // Nothing in memory reads 0, not 0x8000: libgphoto2 reads 0xFFFFC001 as soon as the value reaches 0x8000.
        #expect(all[SonyControl.pendingObjectsProperty]?.currentValue == .uint16(0))
        #expect(all[.focusMode]?.currentValue == .uint16(2), "AF-S: libgphoto2's capture needs FocusMode")
        #expect(all[DevicePropertyCode.Sony.focusFound]?.currentValue == .uint8(1))
        #expect(all[SonyControl.pendingObjectsProperty]?.isSettable == false)
        await link.close()
    }

    @Test func everyEnumeratedPropertySetsThroughSetControlDeviceA() async throws {
        let (session, link) = try await Self.session()
        _ = try await session.sonyConnect()
        for description in try await session.sonyGetAllDevicePropData().descriptions where description.isSettable {
            guard let values = description.allowedValues,
                let other = values.last(where: { $0 != description.currentValue })
            else { continue }
            try await session.sonySetControlDeviceA(description.propertyCode, other)
            #expect(try await session.sonyGetAllDevicePropData()[description.propertyCode]?.currentValue == other)
        }
        await #expect(throws: PTPError.self) {
            try await session.sonySetControlDeviceA(.compressionSetting, .uint8(0x55))
        }
        await link.close()
    }

    @Test func theShutterFillsTheBufferReadAtFFFFC001() async throws {
        let (session, link) = try await Self.session()
        _ = try await session.sonyConnect()
        try await session.sonySetControlDeviceA(.compressionSetting, .uint8(0x13))
        for press in SonyControl.shutterSequence { try await session.sonyPress(press) }
        var pending = 0
        for _ in 0..<200 where pending < 2 {
            pending = try await session.sonyPendingObjectCount()
            if pending < 2 { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(pending == 2)
        let raw = try await session.getObjectInfo(SonyControl.capturedObjectHandle)
        #expect(raw.objectFormat == ObjectFormatCode.Sony.arw && raw.filename.hasSuffix(".ARW"))
        _ = try await session.getObject(SonyControl.capturedObjectHandle, into: PTPMemorySink())
        #expect(try await session.sonyPendingObjectCount() == 1)
        let jpeg = try await session.getObjectInfo(SonyControl.capturedObjectHandle)
        #expect(jpeg.objectFormat == .exifJPEG)
        _ = try await session.getObject(SonyControl.capturedObjectHandle, into: PTPMemorySink())
        #expect(try await session.sonyPendingObjectCount() == 0)
        await #expect(throws: PTPError.self) { try await session.getObjectInfo(SonyControl.capturedObjectHandle) }
        await link.close()
    }

    /// libgphoto2 `camera_sony_capture` holds S1 until FocusFound (0xD213) reads 2, unless FocusMode is manual.
    @Test func theHalfPressFocusesUnlessFocusIsManual() async throws {
        let (session, link) = try await Self.session()
        _ = try await session.sonyConnect()
        func focusFound() async throws -> PTPValue? {
            try await session.sonyGetAllDevicePropData()[DevicePropertyCode.Sony.focusFound]?.currentValue
        }
        try await session.sonyPress(.init(control: SonyControl.halfPress, value: SonyControl.pressed))
        #expect(try await focusFound() == .uint8(2))
        try await session.sonyPress(.init(control: SonyControl.halfPress, value: SonyControl.released))
        #expect(try await focusFound() == .uint8(1))
        try await session.sonySetControlDeviceA(.focusMode, .uint16(1))
        try await session.sonyPress(.init(control: SonyControl.halfPress, value: SonyControl.pressed))
        #expect(try await focusFound() == .uint8(1))
        await link.close()
    }
}
