import CameraControl
import CameraEmulator
import PTP
import Testing

/// Settings by name on the emulated Sony ILCE-7M3: read through GetAllDevicePropData, written through
/// SetControlDeviceA, with the SDIO handshake run when the camera asks for it (as `rawcap config` needs).
@Suite struct SonySettingsTests {
    @Test func settingsListAndSetThroughSonysOperations() async throws {
        let camera = try EmulatedCamera(model: .sony, configuration: .init(sensorWidth: 64, sensorHeight: 48))
        let link = EmulatorLink.usb(camera)
        let session = PTPSession(transport: link.transport, configuration: .init(timeout: .seconds(10)))
        try await session.openSession()
        let settings = try await CameraSettings.load(session: session)
        #expect(settings.usesSonyPropertyOperations)
        let states = try await settings.list()
        let byName = Dictionary(states.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byName["iso"]?.value == "100", "\(states.map(\.name))")
        #expect(byName["shutter"]?.value == "1/125")
        // Sony's quality values, not the generic table's (where 4 would read as RAW).
        #expect(byName["quality"]?.value == "raw")
        #expect(byName["quality"]?.allowed == ["jpeg-standard", "jpeg", "jpeg-extra-fine", "raw", "raw+jpeg"])
        #expect(states.allSatisfy { $0.error == nil }, "\(states.filter { $0.error != nil })")
        _ = try await settings.set(try PropertyAssignment.parse(["iso=400", "aperture=f/5.6", "quality=raw+jpeg"]))
        let all = try await session.sonyGetAllDevicePropData()
        #expect(all[.exposureIndex]?.currentValue == .uint16(400))
        #expect(all[.fNumber]?.currentValue == .uint16(560))
        #expect(all[.compressionSetting]?.currentValue == .uint8(0x13))
        let codes = await camera.transcript.map(\.code)
        #expect(codes.filter { $0 == OperationCode.Sony.sdioConnect }.count == 3, "one handshake")
        #expect(codes.filter { $0 == OperationCode.Sony.setControlDeviceA }.count == 3)
        #expect(!codes.contains(.getDevicePropDesc) && !codes.contains(.setDevicePropValue))
        await link.close()
    }
}
