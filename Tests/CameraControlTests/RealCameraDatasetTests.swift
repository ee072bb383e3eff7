import CameraControl
import Foundation
import PTP
import Testing

/// What real cameras sent (Fixtures/ptp-real, transcribed from libgphoto2's logs): the raw format catalog and
/// property states built from their DeviceInfo and DevicePropDesc bytes.
@Suite struct RealCameraDatasetTests {
    /// The data phases of a fixture's records: each record is a whole USB data container (12-byte header).
    static func payloads(_ name: String) throws -> [[UInt8]] {
        var root = URL(fileURLWithPath: #filePath)
        while root.path != "/",
            !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path)
        {
            root.deleteLastPathComponent()
        }
        let text = try String(
            contentsOf: root.appendingPathComponent("Fixtures/ptp-real").appendingPathComponent(name), encoding: .utf8)
        var records: [[UInt8]] = []
        var current: [UInt8] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") { continue }
            if line.allSatisfy({ $0 == " " }) {
                if !current.isEmpty { records.append(current) }
                current = []
                continue
            }
            current += line.split(separator: " ").compactMap { UInt8($0, radix: 16) }
        }
        if !current.isEmpty { records.append(current) }
        return records.map { Array($0.dropFirst(12)) }
    }

    static func deviceInfo(_ name: String) throws -> DeviceInfo {
        try DeviceInfo(ptpEncoded: try #require(try payloads(name).first))
    }

    @Test func canonEOS60DOffersRawThroughItsImageFormats() throws {
        // The 60D shoots raw through Canon's EOS operations; standard CaptureFormats lists EXIF/JPEG alone, and its
        // raw format (CR2, 0xB103) is among its ImageFormats.
        let info = try Self.deviceInfo("canon-eos-60d_deviceinfo.hex")
        #expect(info.captureFormats == [.exifJPEG])
        let catalog = RawFormatCatalog(deviceInfo: info, bitDepth: nil)
        #expect(catalog.formats.first == .bayer && catalog.formats.contains(.jpeg))
        let choice = try catalog.choose(.auto)
        #expect(choice.reason.hasPrefix("bayer:") && choice.reason.contains("CRW3"), "\(choice.reason)")
        // The same DeviceInfo without the EOS GetEvent (0x9116) is not driven as an EOS: JPEG only.
        var standard = info
        standard.operationsSupported.removeAll { $0 == OperationCode.Canon.getEvent }
        #expect(RawFormatCatalog(deviceInfo: standard, bitDepth: nil).formats == [.jpeg])
    }

    @Test func fujifilmWithoutCaptureFormatsHasNothingToChoose() throws {
        let catalog = RawFormatCatalog(
            deviceInfo: try Self.deviceInfo("fujifilm-finepix-s4200_deviceinfo.hex"), bitDepth: nil)
        #expect(catalog.offers.isEmpty)
        let error = #expect(throws: CameraControlError.self) { try catalog.choose(.auto) }
        #expect(error?.detail.contains("capture formats: none") == true)
    }

    @Test func canonEOS60DDescriptorsFormat() throws {
        let records = try Self.payloads("canon-eos-60d_devicepropdesc.hex")
        #expect(records.count == 5)
        let battery = try DevicePropDesc(ptpEncoded: records[0], quirks: .wideEightBitEnumerations)
        let definition = try PropertyCatalog.standard.definition(named: "battery", vendor: .canon)
        let state = PropertyState(definition, descriptor: battery, vendor: .canon)
        #expect(state.value == "50" && state.writable == false)
        #expect(state.allowed == ["100", "75", "50", "25", "0"])
        // A Canon vendor property has no name yet: it prints by code, its string value as it is.
        let owner = try DevicePropDesc(ptpEncoded: records[1])
        let unnamed = PropertyDefinition.unnamed(owner.propertyCode, vendor: .canon)
        let ownerState = PropertyState(unnamed, descriptor: owner, vendor: .canon)
        #expect(ownerState.name == "0xD402")
        #expect(ownerState.value == "Canon EOS 60D")
    }
}
