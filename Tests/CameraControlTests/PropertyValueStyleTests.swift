import CameraControl
import PTP
import Testing

/// Formatting and parsing values by style, and snapping them to descriptors, without a camera.
@Suite struct PropertyValueStyleTests {
    static func enumeration(_ type: DataTypeCode, _ values: [PTPValue], current: PTPValue) -> DevicePropDesc {
        DevicePropDesc(
            propertyCode: .exposureTime, dataType: type, factoryDefaultValue: current, currentValue: current,
            form: .enumeration(values))
    }

    @Test(arguments: [
        (80, "1/125"), (6, "1/1600"), (5, "1/2000"), (1, "1/8000"), (769, "1/13"), (1667, "1/6"), (3000, "0.3"),
        (10_000, "1"), (13_000, "1.3"), (25_000, "2.5"), (300_000, "30"), (0xFFFF_FFFF, "bulb"),
    ])
    func exposureTimesFormatAsPhotographersWriteThem(units: Int, text: String) throws {
        #expect(PropertyValueStyle.exposureTime.format(.uint32(UInt32(units))) == text)
    }

    @Test(arguments: [
        (0, "0"), (-333, "-1/3"), (667, "+2/3"), (1000, "+1"), (1333, "+4/3"), (-3000, "-3"), (500, "+1/2"),
        (-1500, "-3/2"), (250, "+0.25"),
    ])
    func exposureBiasFormatsInThirdsAndHalves(thousandths: Int, text: String) throws {
        #expect(PropertyValueStyle.exposureBias.format(.int16(Int16(thousandths))) == text)
    }

    @Test func apertureISOAndChoicesFormat() {
        let aperture = PropertyValueStyle.hundredths(prefix: "f/", suffix: "")
        #expect(aperture.format(.uint16(800)) == "f/8")
        #expect(aperture.format(.uint16(560)) == "f/5.6")
        #expect(aperture.format(.uint16(105)) == "f/1.05")
        #expect(PropertyValueStyle.iso.format(.uint16(0xFFFF)) == "auto")
        #expect(PropertyValueStyle.iso.format(.uint16(400)) == "400")
        let wb = PropertyValueStyle.choices([.init(4, "daylight")])
        #expect(wb.format(.uint16(4)) == "daylight")
        #expect(wb.format(.uint16(0x8012)) == "0x8012")
        #expect(wb.format(.uint16(9)) == "9")
    }

    @Test func shutterTextsSnapToTheCamerasRoundedUnits() throws {
        let shutters = [1, 5, 6, 8, 80, 3000, 10_000, 300_000].map { PTPValue.uint32(UInt32($0)) }
        let desc = Self.enumeration(.uint32, shutters, current: .uint32(80))
        let style = PropertyValueStyle.exposureTime
        #expect(try style.resolve("1/125", descriptor: desc) == .uint32(80))
        #expect(try style.resolve("1/1600", descriptor: desc) == .uint32(6))
        #expect(try style.resolve("1/8000", descriptor: desc) == .uint32(1))
        #expect(try style.resolve("0.3", descriptor: desc) == .uint32(3000))
        #expect(try style.resolve("30s", descriptor: desc) == .uint32(300_000))
        #expect(try style.resolve(" 1 ", descriptor: desc) == .uint32(10_000))
        let error = #expect(throws: CameraControlError.self) { try style.resolve("1/100", descriptor: desc) }
        #expect(error?.code == .invalidValue)
        #expect(error?.allowed.contains("1/125") == true)
        #expect(error?.allowed.contains("30") == true)
        #expect(throws: CameraControlError.self) { try style.resolve("fast", descriptor: desc) }
        #expect(throws: CameraControlError.self) { try style.resolve("-1/125", descriptor: desc) }
        #expect(throws: CameraControlError.self) { try style.resolve("1/0", descriptor: desc) }
    }

    @Test func biasAcceptsFractionsDecimalsAndMixedNumbers() throws {
        let values = stride(from: -3000, through: 3000, by: 1000).flatMap { base in
            [base, base + 333, base + 667].filter { $0 <= 3000 }
        }
        let desc = DevicePropDesc(
            propertyCode: .exposureBiasCompensation, dataType: .int16, factoryDefaultValue: .int16(0),
            currentValue: .int16(0), form: .enumeration(values.map { .int16(Int16($0)) }))
        let style = PropertyValueStyle.exposureBias
        #expect(try style.resolve("-1/3", descriptor: desc) == .int16(-333))
        #expect(try style.resolve("+2/3", descriptor: desc) == .int16(667))
        #expect(try style.resolve("0.7", descriptor: desc) == .int16(667))
        #expect(try style.resolve("1 1/3", descriptor: desc) == .int16(1333))
        #expect(try style.resolve("-2+1/3", descriptor: desc) == .int16(-2333))
        #expect(try style.resolve("0", descriptor: desc) == .int16(0))
        #expect(throws: CameraControlError.self) { try style.resolve("+1/2", descriptor: desc) }
        #expect(throws: CameraControlError.self) { try style.resolve("--1", descriptor: desc) }
        #expect(throws: CameraControlError.self) { try style.resolve("5", descriptor: desc) }
    }

    @Test func rangesCheckBoundsAndSteps() throws {
        let desc = DevicePropDesc(
            propertyCode: .exposureIndex, dataType: .uint16, factoryDefaultValue: .uint16(100),
            currentValue: .uint16(100), form: .range(minimum: .uint16(100), maximum: .uint16(6400), step: .uint16(100)))
        #expect(try PropertyValueStyle.iso.resolve("400", descriptor: desc) == .uint16(400))
        let error = #expect(throws: CameraControlError.self) {
            try PropertyValueStyle.iso.resolve("450", descriptor: desc)
        }
        #expect(error?.allowed == ["100…6400 in steps of 100"])
        #expect(throws: CameraControlError.self) { try PropertyValueStyle.iso.resolve("12800", descriptor: desc) }
        #expect(throws: CameraControlError.self) {
            try PropertyValueStyle.iso.resolve("9223372036854775807", descriptor: desc)
        }
        #expect(throws: CameraControlError.self) { try PropertyValueStyle.iso.resolve("auto", descriptor: desc) }
    }

    @Test func valuesMustFitTheDataType() throws {
        let desc = DevicePropDesc(
            propertyCode: DevicePropertyCode(rawValue: 0xD001), dataType: .uint8, factoryDefaultValue: .uint8(14),
            currentValue: .uint8(14))
        #expect(try PropertyValueStyle.number(unit: nil).resolve("14", descriptor: desc) == .uint8(14))
        #expect(try PropertyValueStyle.number(unit: nil).resolve("0x0E", descriptor: desc) == .uint8(14))
        let error = #expect(throws: CameraControlError.self) {
            try PropertyValueStyle.number(unit: nil).resolve("300", descriptor: desc)
        }
        #expect(error?.detail.contains("UINT8") == true)
        #expect(throws: CameraControlError.self) {
            try PropertyValueStyle.number(unit: nil).resolve("-1", descriptor: desc)
        }
    }

    @Test func dateTimesAreCheckedBeforeTheyReachTheCamera() throws {
        let desc = DevicePropDesc(
            propertyCode: .dateTime, dataType: .string, factoryDefaultValue: .string(""), currentValue: .string(""))
        let style = PropertyValueStyle.dateTime
        #expect(try style.resolve("2026-11-22T07:05:09", descriptor: desc) == .string("20261122T070509"))
        #expect(try style.resolve("20261122T070509", descriptor: desc) == .string("20261122T070509"))
        let now = try #require(try style.resolve("now", descriptor: desc).stringValue)
        #expect(now.count == 15 && now.dropFirst(8).first == "T")
        #expect(throws: CameraControlError.self) { try style.resolve("yesterday", descriptor: desc) }
        #expect(throws: CameraControlError.self) { try style.resolve("2026-13-40T99:00:00", descriptor: desc) }
    }

    @Test func assignmentsSplitAtTheFirstEquals() throws {
        let parsed = try PropertyAssignment.parse(["iso=400", "0x5005=2", "artist=a=b", "ev=-1/3"])
        #expect(parsed.map(\.name) == ["iso", "0x5005", "artist", "ev"])
        #expect(parsed.map(\.value) == ["400", "2", "a=b", "-1/3"])
        #expect(throws: CameraControlError.self) { try PropertyAssignment(parsing: "iso") }
        #expect(throws: CameraControlError.self) { try PropertyAssignment(parsing: "=400") }
    }

    @Test func catalogResolvesNamesAliasesAndCodesPerVendor() throws {
        let catalog = PropertyCatalog.standard
        let generic = PropertyCatalog.genericVendor
        #expect(try catalog.definition(named: "ISO", vendor: generic).code == .exposureIndex)
        #expect(try catalog.definition(named: "white-balance", vendor: generic).code == .whiteBalance)
        #expect(try catalog.definition(named: "bitdepth", vendor: generic).code.rawValue == 0xD001)
        #expect(try catalog.definition(named: "0x5005", vendor: generic).code == .whiteBalance)
        #expect(try catalog.definition(named: "0x5005", vendor: generic).name == "0x5005")
        // 0xD001 is rawcap's generic bit depth, not a Nikon property: a Nikon's `bitdepth` is its RawBitMode 0xD149.
        #expect(try catalog.definition(named: "bitdepth", vendor: .nikon).code == .Nikon.rawBitMode)
        #expect(catalog.definition(for: DevicePropertyCode(rawValue: 0xD001), vendor: .nikon) == nil)
        let error = #expect(throws: CameraControlError.self) {
            try catalog.definition(named: "bitdepth", vendor: .canon)
        }
        #expect(error?.code == .unknownProperty)
        #expect(error?.allowed.contains("iso") == true)
        #expect(error?.allowed.contains("bitdepth") == false)
        #expect(catalog.definition(for: DevicePropertyCode(rawValue: 0xD002), vendor: .nikon) == nil)
        #expect(catalog.definition(for: DevicePropertyCode(rawValue: 0xD002), vendor: generic)?.name == "target")
    }

    /// Descriptors at the edges of every integer type and texts people (and fuzzers) type: formatting and parsing
    /// never trap, and whatever resolves is a value the descriptor allows.
    @Test func hostileDescriptorsAndTextsNeverTrap() throws {
        let styles: [PropertyValueStyle] = [
            .number(unit: nil), .hundredths(prefix: "f/", suffix: ""), .iso, .exposureTime, .exposureBias,
            .choices([.init(1, "one")]), .text, .dateTime,
        ]
        let texts = [
            "", " ", "0", "-0", "1", "-1", "+1", "1/0", "0/0", "-1/3", "1/-3", "//", "1/2/3", "nan", "inf", "-inf",
            "1e308", "-1e308", "9223372036854775807", "-9223372036854775808", "99999999999999999999", "0x", "0xFFFF",
            "0x8000000000000000", "f/", "f/0", "auto", "bulb", "one", "1 1 1", "1+", "+", "-", "−1/3", "🙂",
        ]
        let edges: [(DataTypeCode, PTPValue, PTPValue)] = [
            (.int8, .int8(.min), .int8(.max)), (.uint8, .uint8(.min), .uint8(.max)),
            (.int16, .int16(.min), .int16(.max)), (.uint16, .uint16(.min), .uint16(.max)),
            (.int32, .int32(.min), .int32(.max)), (.uint32, .uint32(.min), .uint32(.max)),
            (.int64, .int64(.min), .int64(.max)), (.uint64, .uint64(.min), .uint64(.max)),
        ]
        var descriptors: [DevicePropDesc] = []
        for (type, low, high) in edges {
            for step in [low, high, try PTPValue(1, as: type), try PTPValue(0, as: type)] {
                descriptors.append(
                    DevicePropDesc(
                        propertyCode: .exposureBiasCompensation, dataType: type, factoryDefaultValue: low,
                        currentValue: high, form: .range(minimum: low, maximum: high, step: step)))
            }
            descriptors.append(
                DevicePropDesc(
                    propertyCode: .exposureBiasCompensation, dataType: type, factoryDefaultValue: low,
                    currentValue: high, form: .range(minimum: high, maximum: low, step: high)))
            descriptors.append(
                DevicePropDesc(
                    propertyCode: .exposureBiasCompensation, dataType: type, factoryDefaultValue: low,
                    currentValue: high, form: .enumeration([low, high])))
            descriptors.append(
                DevicePropDesc(
                    propertyCode: .exposureBiasCompensation, dataType: type, factoryDefaultValue: low,
                    currentValue: high))
        }
        descriptors.append(
            DevicePropDesc(
                propertyCode: .artist, dataType: .string, factoryDefaultValue: .string(""),
                currentValue: .string("\u{0}x")))
        for descriptor in descriptors {
            for style in styles {
                _ = PropertyState(
                    PropertyDefinition(name: "x", code: descriptor.propertyCode, style: style, summary: ""),
                    descriptor: descriptor, vendor: nil)
                for text in texts {
                    guard let value = try? style.resolve(text, descriptor: descriptor) else { continue }
                    #expect(value.dataType == descriptor.dataType)
                    if case .enumeration(let allowed) = descriptor.form {
                        #expect(allowed.contains(value), "\(text) → \(value)")
                    }
                }
            }
        }
    }
}
