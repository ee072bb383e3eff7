import CameraEmulator
import Foundation
import PTP
import Testing

/// The `canon` personality against what is known of a real EOS 5D Mark IV (`CanonEOS5DMarkIVFacts`, whose header
/// names the sources), read here from the facts file's text independently of the emulator: the DeviceInfo bytes up
/// to the operations, the operations known (121 of 170, the facts file says why), the Manufacturer, the firmware, the
/// formats and the five properties.
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
        #expect(info.manufacturer == Self.facts.string("manufacturer"))
        #expect(info.manufacturer == "Canon.Inc")
    }

    /// The operations in the real body's order: issue 92's 106, then the 15 more the second source lists; among them
    /// GetDeviceInfoEx (0x9108), and no GetDevicePropValue (0x1015).
    @Test func theOperationsAreTheRealBodys() async throws {
        let info = try await Self.deviceInfo()
        let first = Self.facts.codes("firstOperations")
        let later = Self.facts.codes("laterOperations")
        #expect(later.count == 15 && Set(first).isDisjoint(with: later))
        #expect(info.operationsSupported.map(\.rawValue) == first + later)
        #expect(info.supports(OperationCode.Canon.getDeviceInfoEx))
        #expect(!info.supports(.getDevicePropValue))
    }

    /// DevicePropertiesSupported starts with the real body's five, and the four the emulator does not model are
    /// described as the summary describes them.
    @Test func thePropertiesAreTheRealBodys() async throws {
        let camera = try EmulatedCamera(model: .canon, configuration: .init(sensorWidth: 64, sensorHeight: 48))
        let link = EmulatorLink.usb(camera)
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        let info = try await session.getDeviceInfo()
        let real = Self.facts.codes("properties")
        // The real five first, in the body's order; the standard exposure properties rawcap's Canon path still sets
        // follow (the model's documented difference), none of them an EOS property.
        #expect(Array(info.devicePropertiesSupported.map(\.rawValue).prefix(real.count)) == real)
        #expect(info.devicePropertiesSupported.dropFirst(real.count).allSatisfy { $0.rawValue < 0xD000 })
        #expect(Self.facts.propertyLines.map(\.code) == [0xD402, 0xD407, 0xD406, 0xD303, 0x5001])
        // BatteryLevel is the emulator's modelled battery.
        for fact in Self.facts.propertyLines where fact.code != 0x5001 {
            let descriptor = try await session.getDevicePropDesc(DevicePropertyCode(rawValue: fact.code))
            let fields = fact.line.split(separator: " ")
            #expect(descriptor.isSettable == (fields[2] == "rw"), "\(fact.line)")
            if case .none = descriptor.form {} else { Issue.record("\(fact.line): \(descriptor.form)") }
            let current = fact.line[fact.line.range(of: "= ")!.upperBound...]
            if current.hasPrefix("'") {
                #expect(descriptor.currentValue == .string(String(current.dropFirst().dropLast())), "\(fact.line)")
            } else {
                #expect(descriptor.currentValue.integerValue == Int(current), "\(fact.line)")
            }
        }
        await link.close()
    }

    /// GetObjectInfoEx lists a folder as libgphoto2's EOS folder listing reads it (`ptp_canon_eos_getobjectinfoex`,
    /// `ptp_unpack_Canon_EOS_FE`): the same objects GetObjectHandles gives, each a 56-byte entry with its handle,
    /// storage, format, size and name.
    @Test func getObjectInfoExListsAFolderAsLibgphoto2ReadsIt() async throws {
        let camera = try EmulatedCamera(model: .canon, configuration: .init(sensorWidth: 64, sensorHeight: 48))
        let link = EmulatorLink.usb(camera)
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        // A press of the body's own button stores a shot on the card (its capture destination at power-on).
        #expect(await camera.pressShutter() == .ok)
        let card = EmulatedCamera.cardStorageID
        let dcim = try #require(try await session.getObjectHandles(storage: card, parent: .root).first)
        let folder = try #require(try await session.getObjectHandles(storage: card, parent: .folder(dcim)).first)
        let root = try await session.getObjectHandles(storage: card, parent: .folder(folder))
        let result = try await session.execute(
            OperationCode.Canon.getObjectInfoEx, parameters: [card.rawValue, folder.rawValue, 0x100000], dataOut: nil,
            expectDataIn: true)
        let bytes = try #require(result.data)
        func u32(_ offset: Int) -> UInt32 {
            UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
                | UInt32(bytes[offset + 3]) << 24
        }
        #expect(!root.isEmpty)
        #expect(Int(u32(0)) == root.count)
        #expect(bytes.count == 4 + 56 * root.count)
        for (index, handle) in root.enumerated() {
            let entry = 4 + 56 * index
            #expect(u32(entry) == 56)
            let info = try await session.getObjectInfo(handle)
            #expect(u32(entry + 4) == handle.rawValue)
            #expect(u32(entry + 8) == card.rawValue)
            #expect(UInt16(truncatingIfNeeded: u32(entry + 12)) == info.objectFormat.rawValue)
            #expect(u32(entry + 24) == info.objectCompressedSize)
            let name = bytes[(entry + 36)..<(entry + 48)].prefix { $0 != 0 }
            #expect(String(decoding: name, as: UTF8.self) == info.filename)
        }
        await link.close()
    }

    /// GetDeviceInfoEx answers in the layout libgphoto2 reads (`ptp_unpack_EOS_DI`): a byte count, then the event,
    /// property and third lists, each a UINT32 count and UINT32 elements; the properties are those GetEvent reports.
    @Test func getDeviceInfoExAnswersTheEOSLists() async throws {
        let camera = try EmulatedCamera(model: .canon, configuration: .init(sensorWidth: 64, sensorHeight: 48))
        let link = EmulatorLink.usb(camera)
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        let result = try await session.execute(OperationCode.Canon.getDeviceInfoEx, dataOut: nil, expectDataIn: true)
        await link.close()
        let bytes = try #require(result.data)
        func u32(_ offset: Int) -> Int {
            Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
        }
        #expect(u32(0) == bytes.count)
        let events = u32(4)
        let properties = u32(8 + 4 * events)
        let eventCodes = (0..<events).map { u32(8 + 4 * $0) }
        let propertyCodes = (0..<properties).map { u32(12 + 4 * events + 4 * $0) }
        #expect(eventCodes.contains(0xC189) && eventCodes.contains(0xC18A))
        #expect(propertyCodes.contains(0xD120) && propertyCodes.contains(0xD11C) && propertyCodes.contains(0xD102))
        // The third list is the EOS R's (libgphoto2 `cameras/canon-eos-r.txt`): never empty.
        #expect(u32(12 + 4 * events + 4 * properties) == 5)
        #expect(bytes.count == 16 + 4 * events + 4 * properties + 20)
    }

    @Test func rawcapTakesTheMicrosoftExtensionForACanonByItsNameOrUSBVendor() async throws {
        let info = try await Self.deviceInfo()
        #expect(CameraFamily.identify(info).family == .canonEOS)
        #expect(CameraFamily.identify(info, usbVendorID: USBVendorID(rawValue: 0x04A9)).family == .canonEOS)
    }
}
