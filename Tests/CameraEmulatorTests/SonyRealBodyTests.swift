import CameraEmulator
import Foundation
import PTP
import Testing

/// The `sony-no-pc-remote` personality against the real ILCE-7M3 outside PC Remote it stands for
/// (`SonyILCE7M3Facts`, whose header names the source), read here from the facts file's text independently of the
/// emulator.
@Suite struct SonyRealBodyTests {
    static let facts = try! RealBodyFactsReader("SonyILCE7M3Facts.swift")

    @Test func deviceInfoIsTheRealILCE_7M3sOutsidePCRemote() async throws {
        let camera = try EmulatedCamera(
            model: .sonyOutsidePCRemote, configuration: .init(sensorWidth: 64, sensorHeight: 48))
        let link = EmulatorLink.usb(camera)
        let session = PTPSession(transport: link.transport)
        let info = try await session.getDeviceInfo()
        try await session.openSession()
        // Listed, and described only where the emulator models the property (BatteryLevel).
        for code in Self.facts.codes("properties").dropFirst() {
            await #expect(throws: PTPError(response: .devicePropNotSupported, operation: .getDevicePropDesc)) {
                _ = try await session.getDevicePropDesc(DevicePropertyCode(rawValue: code))
            }
        }
        await link.close()
        #expect(Self.facts.codes("operations").count == 24)
        #expect(info.manufacturer == Self.facts.string("manufacturer") && info.model == Self.facts.string("model"))
        #expect(info.deviceVersion == Self.facts.string("deviceVersion"))
        #expect(info.vendorExtensionID.rawValue == 0x11 && info.vendorExtensionDesc.isEmpty)
        #expect(info.operationsSupported.map(\.rawValue) == Self.facts.codes("operations"))
        #expect(info.eventsSupported.map(\.rawValue) == Self.facts.codes("events"))
        #expect(info.devicePropertiesSupported.map(\.rawValue) == Self.facts.codes("properties"))
        #expect(!info.supports(.initiateCapture) && !info.supports(OperationCode.Sony.sdioConnect))
    }
}
