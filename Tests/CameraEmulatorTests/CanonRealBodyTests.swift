import CameraEmulator
import Foundation
import PTP
import Testing

/// The `canon` personality against what is known of a real EOS 5D Mark IV (`CanonEOS5DMarkIVFacts`, whose header
/// names the sources), read here from the facts file's text independently of the emulator: the DeviceInfo bytes up
/// to the operations, the firmware and the formats. Its operations and properties are not yet the real body's (the
/// facts file says why).
@Suite struct CanonRealBodyTests {
    static let facts = try! RealBodyFactsReader("CanonEOS5DMarkIVFacts.swift")

    static func deviceInfo() async throws -> DeviceInfo {
        let camera = try EmulatedCamera(model: .canon, configuration: .init(sensorWidth: 64, sensorHeight: 48))
        let link = EmulatorLink.usb(camera)
        let session = PTPSession(transport: link.transport)
        let info = try await session.getDeviceInfo()
        await link.close()
        return info
    }

    @Test func theSourceHoldsTheRealBodysStart() {
        let header = Self.facts.codes("header")
        #expect(header.count == 15)
        // The operation count the real body announced: 170, of which the source holds 106.
        #expect(header[11] == 0xAA && header[12...].allSatisfy { $0 == 0 })
        #expect(Self.facts.codes("firstOperations").count == 106)
    }

    @Test func deviceInfoStartsWithTheRealBodysBytes() async throws {
        let info = try await Self.deviceInfo()
        let real = Self.facts.codes("header").map { UInt8($0) }
        // StandardVersion, VendorExtensionID (6, Microsoft), VendorExtensionVersion, VendorExtensionDesc and
        // FunctionalMode: the first 11 bytes; the operation count follows.
        #expect(Array(info.ptpEncoded.prefix(11)) == Array(real.prefix(11)))
        #expect(info.vendorExtensionID == .microsoft && info.vendorExtensionDesc.isEmpty)
        #expect(info.deviceVersion == Self.facts.string("deviceVersion"))
        #expect(info.captureFormats.map(\.rawValue) == Self.facts.codes("captureFormats"))
        #expect(info.imageFormats.map(\.rawValue) == Self.facts.codes("imageFormats"))
    }

    @Test func rawcapTakesTheMicrosoftExtensionForACanonByItsNameOrUSBVendor() async throws {
        let info = try await Self.deviceInfo()
        #expect(CameraFamily.identify(info).family == .canonEOS)
        #expect(CameraFamily.identify(info, usbVendorID: USBVendorID(rawValue: 0x04A9)).family == .canonEOS)
    }
}
