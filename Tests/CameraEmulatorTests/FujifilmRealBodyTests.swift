import CameraEmulator
import Foundation
import PTP
import Testing

/// The `fuji` personality against the real X-T2 it stands for: DeviceInfo and the property descriptions of
/// libgphoto2's summary of a real X-T2 (`FujifilmXT2Facts`, whose header names the source), read here from the facts
/// file's text independently of the emulator.
@Suite struct FujifilmRealBodyTests {
    static let facts = try! RealBodyFactsReader("FujifilmXT2Facts.swift")

    /// What the emulator models itself (its own descriptions, documented in `FujifilmXT2Facts`).
    static let modelled: Set<UInt16> = [0x5003, 0x5005, 0x500F, 0x5011, 0xD018, 0xD207, 0xD208, 0xD209]

    static func session() async throws -> (EmulatorLink, PTPSession) {
        let camera = try EmulatedCamera(model: .fujifilm, configuration: .init(sensorWidth: 64, sensorHeight: 48))
        let link = EmulatorLink.usb(camera)
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        return (link, session)
    }

    @Test func theSourceHoldsTheRealBodysLists() {
        #expect(Self.facts.codes("operations").count == 27)
        #expect(Self.facts.codes("properties").count == 168)
        // 43 described, 124 refused, and 0xD212 described with no data type.
        #expect(Self.facts.propertyLines.count == 43)
        #expect(Self.facts.codes("refused").count == 124)
        let described = Set(Self.facts.propertyLines.map(\.code)).union(Self.facts.codes("refused")).union([0xD212])
        #expect(described == Set(Self.facts.codes("properties")))
    }

    @Test func deviceInfoIsTheRealX_T2s() async throws {
        let (link, session) = try await Self.session()
        let info = try await session.getDeviceInfo()
        await link.close()
        #expect(info.manufacturer == "FUJIFILM" && info.model == "X-T2" && info.deviceVersion == "1.10")
        #expect(info.vendorExtensionID.rawValue == 0x0E && info.vendorExtensionVersion == 100)
        #expect(info.vendorExtensionDesc == Self.facts.string("vendorExtensionDesc"))
        #expect(info.operationsSupported.map(\.rawValue) == Self.facts.codes("operations"))
        #expect(info.eventsSupported.map(\.rawValue) == Self.facts.codes("events"))
        #expect(info.devicePropertiesSupported.map(\.rawValue) == Self.facts.codes("properties"))
        #expect(info.captureFormats.map(\.rawValue) == Self.facts.codes("captureFormats"))
        #expect(info.imageFormats.map(\.rawValue) == Self.facts.codes("imageFormats"))
        #expect(info.captureFormats.map(\.rawValue) == [0x3800, 0x3801, 0xB103])
    }

    @Test func propertiesTheRealBodyRefusedAreRefused() async throws {
        let (link, session) = try await Self.session()
        // The emulator models BatteryLevel (0x5001) itself; the real X-T2 refused it.
        for code in Self.facts.codes("refused") where code != 0x5001 {
            await #expect(throws: PTPError.self, "0x\(String(code, radix: 16))") {
                _ = try await session.getDevicePropDesc(DevicePropertyCode(rawValue: code))
            }
        }
        await link.close()
    }

    @Test func everyUnmodelledPropertyIsDescribedAsTheRealBodyDescribedIt() async throws {
        let (link, session) = try await Self.session()
        var checked = 0
        for fact in Self.facts.propertyLines where !Self.modelled.contains(fact.code) {
            let descriptor = try await session.getDevicePropDesc(DevicePropertyCode(rawValue: fact.code))
            let fields = fact.line.split(separator: " ")
            #expect(descriptor.isSettable == (fields[2] == "rw"), "\(fact.line)")
            switch (fields[3], descriptor.form) {
            case ("range", .range(let minimum, let maximum, _)):
                #expect(minimum.integerValue == Int(fields[4]), "\(fact.line)")
                #expect(maximum.integerValue == Int(fields[5]), "\(fact.line)")
            case ("enum", .enumeration(let values)):
                if descriptor.dataType != .string {
                    #expect(values.map(\.integerValue) == fields[4..<fields.firstIndex(of: "=")!].map { Int($0) })
                }
            case ("none", .none):
                break
            default:
                Issue.record("form differs: \(fact.line) against \(descriptor.form)")
            }
            if descriptor.dataType != .string, let current = fields.last.flatMap({ Int($0) }) {
                #expect(descriptor.currentValue.integerValue == current, "\(fact.line)")
            }
            checked += 1
        }
        await link.close()
        #expect(checked == 43 - Self.modelled.count)
    }
}
