import PTP
import Testing

/// Nikon's CompressionSetting numberings and how a body's is chosen. The numbers are libgphoto2 `config.c`'s
/// (`nikon_d3s_compression`, `nikon_d850_compression`, `nikon_d40_compression`, `menus[]`).
@Suite struct NikonImageQualityTableTests {
    @Test func theNumberingsPutNEFWhereLibgphoto2Does() {
        #expect(NikonImageQualityTable.classic.value(of: .nef) == 4)
        #expect(NikonImageQualityTable.optimalQuality.value(of: .nef) == 7)
        #expect(NikonImageQualityTable.d40.value(of: .nef) == 3)
        #expect(NikonImageQualityTable.classic.quality(of: 4) == .nef)
        #expect(NikonImageQualityTable.optimalQuality.quality(of: 4) == .jpeg(.fine), "a D850's 4 is a JPEG")
        #expect(NikonImageQualityTable.classic.quality(of: 7) == .nefPlus(.fine))
        #expect(NikonImageQualityTable.optimalQuality.quality(of: 12) == .nefPlus(.fine))
        #expect(NikonImageQualityTable.optimalQuality.quality(of: 13) == .nefPlus(.fine, optimal: true))
        #expect(NikonImageQualityTable.d40.quality(of: 4) == .nefPlus(.basic))
        #expect(NikonImageQualityTable.classic.quality(of: 3) == .tiff)
        #expect(NikonImageQualityTable.optimalQuality.quality(of: 6) == .tiff)
        #expect(NikonImageQualityTable.classic.quality(of: 8) == nil)
        #expect(NikonImageQualityTable.optimalQuality.entries.map(\.value) == Array(0...13))
    }

    @Test(arguments: [
        (
            NikonImageQualityTable.optimalQuality, [UInt8](0...13),
            [
                "JPEG Basic", "JPEG Basic*", "JPEG Normal", "JPEG Normal*", "JPEG Fine", "JPEG Fine*", "TIFF",
                "NEF (Raw)",
                "NEF+Basic", "NEF+Basic*", "NEF+Normal", "NEF+Normal*", "NEF+Fine", "NEF+Fine*",
            ]
        ),
        (
            .classic, [UInt8](0...7),
            [
                "JPEG Basic", "JPEG Normal", "JPEG Fine", "TIFF", "NEF (Raw)", "NEF+Basic", "NEF+Normal", "NEF+Fine",
            ]
        ),
        (.d40, [UInt8](0...4), ["JPEG Basic", "JPEG Normal", "JPEG Fine", "NEF (Raw)", "NEF+Basic"]),
    ])
    func labelsAreLibgphoto2s(table: NikonImageQualityTable, values: [UInt8], labels: [String]) {
        #expect(values.map { table.quality(of: $0)?.description ?? "-" } == labels)
        #expect(table.entries.allSatisfy { $0.quality.includesRaw == $0.quality.description.hasPrefix("NEF") })
    }

    /// The D850's enumeration as the `nikon` personality sends it (libgphoto2 shows the same body's values).
    static let d850Values: [UInt8] = [0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13]

    @Test func aKnownBodyIsKnownByItsUSBProductOrItsModel() {
        let byProduct = NikonImageQualityTable.identify(
            model: "", usbProductID: 0x0441, enumeration: Self.d850Values, current: 7)
        #expect(byProduct.table == .optimalQuality)
        #expect(byProduct.reason.contains("04B0:0441") && byProduct.reason.contains("D850"), "\(byProduct)")
        #expect(
            NikonImageQualityTable.identify(model: "D850", usbProductID: nil, enumeration: Self.d850Values).table
                == .optimalQuality)
        #expect(
            NikonImageQualityTable.identify(model: "Z 6_2", usbProductID: nil, enumeration: [7]).table
                == .optimalQuality)
        #expect(
            NikonImageQualityTable.identify(model: "Z 6II", usbProductID: nil, enumeration: [7]).table
                == .optimalQuality)
        #expect(
            NikonImageQualityTable.identify(model: "D780", usbProductID: nil, enumeration: [4, 7, 12]).table
                == .optimalQuality)
        #expect(
            NikonImageQualityTable.identify(model: "D3S", usbProductID: 0x0426, enumeration: Array(0...7)).table
                == .classic)
        #expect(
            NikonImageQualityTable.identify(model: "D40", usbProductID: nil, enumeration: Array(0...4)).table == .d40)
        // The product decides over the model, as in libgphoto2.
        #expect(
            NikonImageQualityTable.identify(model: "D90", usbProductID: 0x0441, enumeration: [7, 12]).table
                == .optimalQuality)
    }

    @Test func aKnownBodyWhoseValuesContradictItsNumberingGetsNone() {
        // A "D90" offering 12: its numbering stops at 7.
        let choice = NikonImageQualityTable.identify(model: "D90", usbProductID: nil, enumeration: [0, 2, 4, 7, 12])
        #expect(choice.table == nil)
        #expect(choice.reason.contains("12"), "\(choice)")
        // The current value is checked too.
        #expect(
            NikonImageQualityTable.identify(model: "D40", usbProductID: 0x0414, enumeration: [0, 3], current: 7).table
                == nil)
    }

    @Test func anUnlistedBodyGetsTheNumberingItsValuesLeave() {
        // Values among 8–13 exist only in the ★ numbering (a Z body libgphoto2 does not list yet).
        #expect(
            NikonImageQualityTable.identify(model: "Z f", usbProductID: 0x0453, enumeration: Self.d850Values).table
                == .optimalQuality)
        // Up to 7 with NEF + JPEG among 5–7: libgphoto2's numbering for unlisted Nikons (a D810).
        let d810 = NikonImageQualityTable.identify(
            model: "D810", usbProductID: 0x0436, enumeration: [0, 1, 2, 3, 4, 5, 6, 7])
        #expect(d810.table == .classic, "\(d810)")
        // Up to 4: the classic and the D40 numbering both fit, so none is chosen.
        #expect(
            NikonImageQualityTable.identify(model: "D60", usbProductID: nil, enumeration: [0, 1, 2, 3, 4]).table == nil)
        // A value no numbering has, or nothing to check against.
        #expect(NikonImageQualityTable.identify(model: "D6", usbProductID: nil, enumeration: [4, 7, 40]).table == nil)
        #expect(
            NikonImageQualityTable.identify(model: "D6", usbProductID: nil, enumeration: nil, current: 4).table == nil)
    }

    @Test func theDescriptorOverloadReadsAUINT8Enumeration() {
        let descriptor = DevicePropDesc(
            propertyCode: .compressionSetting, dataType: .uint8, getSet: 1, factoryDefaultValue: .uint8(7),
            currentValue: .uint8(7), form: .enumeration(Self.d850Values.map { .uint8($0) }))
        #expect(
            NikonImageQualityTable.identify(model: "", usbProductID: nil, descriptor: descriptor).table
                == .optimalQuality)
        var range = descriptor
        range.form = .range(minimum: .uint8(0), maximum: .uint8(13), step: .uint8(1))
        #expect(NikonImageQualityTable.identify(model: "", usbProductID: nil, descriptor: range).table == nil)
        #expect(
            NikonImageQualityTable.identify(model: "D850", usbProductID: nil, descriptor: range).table
                == .optimalQuality)
    }
}
