import CameraEmulator
import Foundation
import PTP
import Testing

/// The `nikon` personality against the real D850 it stands for: the properties libgphoto2's summary of a real D850
/// records (`NikonD850Facts`, whose header names the source), split between DeviceInfo and GetVendorPropCodes as a
/// real Nikon splits them, each described as the real body described it wherever the emulator does not model it.
@Suite struct NikonRealBodyTests {
    /// The facts, parsed here independently of the emulator: code and the rest of each line.
    static let facts: [(code: UInt16, line: String)] = {
        let source = try! String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Sources/CameraEmulator/NikonD850Facts.swift"),
            encoding: .utf8)
        return source.split(separator: "\n").compactMap { line in
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("0x"), let code = UInt16(trimmed.prefix(6).dropFirst(2), radix: 16) else {
                return nil
            }
            return (code, String(trimmed))
        }
    }()

    /// What the emulator models itself (its own descriptions, documented in `NikonD850Facts`).
    static let modelled: Set<UInt16> = [
        0x5001, 0x5003, 0x5004, 0x5005, 0x5007, 0x5008, 0x500D, 0x500F, 0x5010, 0x5011, 0xD10B, 0xD149,
    ]

    static func session() async throws -> (EmulatorLink, PTPSession) {
        let camera = try EmulatedCamera(
            model: .nikon, configuration: .init(sensorWidth: 64, sensorHeight: 48))
        let link = EmulatorLink.usb(camera)
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        return (link, session)
    }

    @Test func theSourceHoldsTheRealBodysSplit() {
        #expect(Self.facts.count == 285)
        let deviceInfo = Self.facts.prefix(22).map(\.code)
        #expect(deviceInfo.allSatisfy { $0 < 0xD000 || [0xD303, 0xD406, 0xD407].contains($0) })
        #expect(Self.facts.dropFirst(22).allSatisfy { $0.code >= 0xD000 })
    }

    @Test func deviceInfoAndGetVendorPropCodesListWhatTheRealD850Lists() async throws {
        let (link, session) = try await Self.session()
        let info = try await session.getDeviceInfo()
        let vendor = try await session.nikonGetVendorPropCodes()
        await link.close()
        #expect(info.devicePropertiesSupported.map(\.rawValue) == Self.facts.prefix(22).map(\.code))
        #expect(vendor.map(\.rawValue) == Self.facts.dropFirst(22).map(\.code))
        #expect(info.supports(OperationCode.Nikon.getVendorPropCodes))
    }

    @Test func everyUnmodelledPropertyIsDescribedAsTheRealBodyDescribedIt() async throws {
        let (link, session) = try await Self.session()
        var checked = 0
        for fact in Self.facts where !Self.modelled.contains(fact.code) {
            let descriptor = try await session.getDevicePropDesc(DevicePropertyCode(rawValue: fact.code))
            let fields = fact.line.split(separator: " ")
            #expect(descriptor.isSettable == (fields[2] == "rw"), "\(fact.line)")
            switch (fields[3], descriptor.form) {
            case ("range", .range(let minimum, let maximum, _)):
                #expect(minimum.integerValue == Int(fields[4]), "\(fact.line)")
                #expect(maximum.integerValue == Int(fields[5]), "\(fact.line)")
            case ("enum", .enumeration(let values)):
                let count = fields.firstIndex(of: "=")! - 4
                if descriptor.dataType != .string { #expect(values.count == count, "\(fact.line)") }
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
        #expect(checked == 285 - Self.modelled.count)
    }
}
