import CameraEmulator
import PTP
import Testing

/// Every property through PTPSession: its description, its value, and a set that reads back.
@Suite struct PropertyTests {
    /// Gets and sets every property the camera lists, the way a host's generic property code would. `mayRefuse` are
    /// listed properties the real body a personality stands for may not describe (a Fujifilm X-T2 lists 124 it
    /// refuses; `FujifilmRealBodyTests` checks which); `realBody` are those described as the real body described them.
    static func exerciseEveryProperty(
        _ session: PTPSession, mayRefuse: Set<DevicePropertyCode> = [], realBody: Set<DevicePropertyCode> = []
    ) async throws {
        let info = try await session.getDeviceInfo()
        // Nine standard properties at least (the canon personality keeps its EOS settings out of this list), unless the
        // body lists what its real body listed (a real ILCE-7M3 outside PC Remote: five).
        #expect(info.devicePropertiesSupported.count >= 9 || !mayRefuse.isEmpty)
        // A body that lists no GetDevicePropValue (a real EOS 5D Mark IV) is read through its descriptions, as
        // libgphoto2 reads one.
        func readValue(_ code: DevicePropertyCode, _ type: DataTypeCode) async throws -> PTPValue {
            guard info.supports(.getDevicePropValue) else { return try await session.getDevicePropDesc(code).currentValue }
            return try await session.getDevicePropValue(code, type: type)
        }
        for code in info.devicePropertiesSupported {
            let description: DevicePropDesc
            do {
                description = try await session.getDevicePropDesc(code)
            } catch let error as PTPError where mayRefuse.contains(code) {
                #expect(error == PTPError(response: .devicePropNotSupported, operation: .getDevicePropDesc))
                continue
            }
            #expect(description.propertyCode == code)
            let value = try await readValue(code, description.dataType)
            if code == .dateTime {
                #expect(value.stringValue?.count == 17, "\(value)")  // YYYYMMDDThhmmss.s
            } else {
                #expect(value == description.currentValue, "\(code)")
            }
            guard description.isSettable else {
                await #expect(throws: PTPError(response: .accessDenied, operation: .setDevicePropValue)) {
                    try await session.setDevicePropValue(code, value)
                }
                continue
            }
            let newValue: PTPValue
            switch description.form {
            case .enumeration(let values) where values.count == 1 && realBody.contains(code):
                // A real body's one-value enumeration (an X-T2's 0xD201): setting it to that value.
                newValue = values[0]
            case .enumeration(let values):
                try #require(values.count >= 2, "\(code) offers one value")
                newValue = try #require(values.last { $0 != description.currentValue })
            case .none:
                newValue = .string("20250101T120000")
            case .range(_, let maximum, _):
                newValue = maximum
            }
            try await session.setDevicePropValue(code, newValue)
            let readBack = try await readValue(code, description.dataType)
            if code == .dateTime {
                #expect(readBack.stringValue?.hasPrefix("20250101T1200") == true, "\(readBack)")
            } else {
                #expect(readBack == newValue, "\(code)")
                #expect(try await session.getDevicePropDesc(code).currentValue == newValue)
            }
        }
    }

    /// Models whose properties go through the standard operations (Sony's go through its own: `SonyPropertyTests`).
    static let standardPropertyModels = CameraModel.all.filter { $0.operationsSupported.contains(.getDevicePropDesc) }

    @Test(arguments: Reach.allCases, standardPropertyModels)
    func everyPropertyGetsAndSets(reach: Reach, model: CameraModel) async throws {
        let link = try await reach.connect(try smallCamera(model: model))
        let session = Reach.session(link)
        try await session.openSession()
        let described = Set(model.realBodyProperties.map(\.propertyCode))
        try await Self.exerciseEveryProperty(
            session, mayRefuse: Set(model.deviceInfoProperties ?? []).subtracting(described), realBody: described)
        await link.close()
    }

    @Test func descriptionsUseTheSpecsUnitsAndForms() async throws {
        let link = EmulatorLink.usb(try smallCamera())
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        let shutter = try await session.getDevicePropDesc(.exposureTime)
        #expect(shutter.dataType == .uint32 && shutter.currentValue == .uint32(80))  // 1/125 s in 1/10000 s
        let aperture = try await session.getDevicePropDesc(.fNumber)
        #expect(aperture.currentValue == .uint16(800))  // f/8 ×100
        let bias = try await session.getDevicePropDesc(.exposureBiasCompensation)
        guard case .enumeration(let steps) = bias.form else { Issue.record("bias is not an enumeration"); return }
        #expect(steps.first == .int16(-3000) && steps.last == .int16(3000) && steps.contains(.int16(-667)))
        #expect(steps.count == 19)  // thirds of an EV from −3 to +3
        let battery = try await session.getDevicePropDesc(.batteryLevel)
        #expect(battery.form == .range(minimum: .uint8(0), maximum: .uint8(100), step: .uint8(1)))
        #expect(!battery.isSettable)
        let quality = try await session.getDevicePropDesc(.compressionSetting)
        #expect(quality.form == .enumeration([.uint8(2), .uint8(4), .uint8(5)]))
        #expect(quality.currentValue == .uint8(4))  // RAW
        #expect(try await session.getDevicePropDesc(.imageSize).currentValue == .string("96x64"))
        await link.close()
    }
}
