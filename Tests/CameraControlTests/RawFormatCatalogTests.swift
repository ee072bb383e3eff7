import CameraControl
import PTP
import Testing
import WireFormat

/// The raw format catalog from DeviceInfo and DevicePropDesc bytes, as a camera sends them.
@Suite struct RawFormatCatalogTests {
    /// DeviceInfo decoded from its wire bytes.
    static func info(
        vendor: VendorExtensionID = VendorExtensionID(rawValue: 0), manufacturer: String = "rawcap",
        captureFormats: [UInt16]
    ) throws -> DeviceInfo {
        let encoded = DeviceInfo(
            vendorExtensionID: vendor, captureFormats: captureFormats.map(ObjectFormatCode.init(rawValue:)),
            manufacturer: manufacturer, model: "Test"
        ).ptpEncoded
        return try DeviceInfo(ptpEncoded: encoded)
    }

    /// The generic bit depth property: UINT8 enumeration, as bytes.
    static func bitDepth(_ depths: [UInt8], current: UInt8, settable: Bool = true) throws -> DevicePropDesc {
        var bytes: [UInt8] = [0x01, 0xD0, 0x02, 0x00, settable ? 1 : 0, current, current, 0x02]
        bytes += [UInt8(depths.count), 0] + depths
        return try DevicePropDesc(ptpEncoded: bytes)
    }

    @Test func tiffEPWithBitDepthsOffersBayerAtEachDepthHighestFirst() throws {
        let catalog = RawFormatCatalog(
            deviceInfo: try Self.info(captureFormats: [0x3801, 0x3802]),
            bitDepth: try Self.bitDepth([12, 14], current: 12))
        #expect(catalog.formats == [.bayer14, .bayer12, .linear, .jpeg])
        let choice = try catalog.choose(.auto)
        #expect(choice.offer.format == .bayer14)
        #expect(choice.reason.hasPrefix("bayer14: Bayer data is the purest"))
        #expect(choice.reason.contains("(12, 14)"))
    }

    @Test func aReadOnlyDepthOffersOnlyTheCurrentOne() throws {
        let catalog = RawFormatCatalog(
            deviceInfo: try Self.info(captureFormats: [0x3802]),
            bitDepth: try Self.bitDepth([12, 14, 16], current: 14, settable: false))
        #expect(catalog.formats == [.bayer14, .linear])
        #expect(try catalog.choose(.auto).offer.settings.isEmpty)
    }

    @Test func vendorRawWithoutDepthPropertyIsBayerAtTheCamerasDepth() throws {
        let canon = RawFormatCatalog(
            deviceInfo: try Self.info(manufacturer: "Canon Inc.", captureFormats: [0x3801, 0xB103]), bitDepth: nil)
        #expect(canon.formats == [.bayer, .linear, .jpeg])
        #expect(canon.offers.first?.objectFormatName == "Canon.CRW3")
        // 0xB103 means nothing to a camera without Canon's extension.
        let other = RawFormatCatalog(deviceInfo: try Self.info(captureFormats: [0x3801, 0xB103]), bitDepth: nil)
        #expect(other.formats == [.jpeg])
        let nikon = RawFormatCatalog(deviceInfo: try Self.info(vendor: .nikon, captureFormats: [0x3000]), bitDepth: nil)
        #expect(nikon.formats == [.bayer, .linear])
    }

    @Test func linearIsOnlyAFallbackWhenThereIsNoBayer() throws {
        let phone = RawFormatCatalog(deviceInfo: try Self.info(captureFormats: [0x3801, 0x3811]), bitDepth: nil)
        #expect(phone.formats == [.linear, .jpeg])
        let choice = try phone.choose(.auto)
        #expect(choice.offer.format == .linear)
        #expect(!choice.offer.isDerived)
        #expect(choice.reason.contains("no Bayer"))
    }

    @Test func processedOnlyCamerasGetTIFFThenJPEGWithTheReason() throws {
        let catalog = RawFormatCatalog(deviceInfo: try Self.info(captureFormats: [0x3801, 0x380D]), bitDepth: nil)
        #expect(catalog.formats == [.tiff, .jpeg])
        let choice = try catalog.choose(.auto)
        #expect(choice.offer.format == .tiff)
        #expect(choice.reason.contains("no raw format"))
        let error = #expect(throws: CameraControlError.self) { try catalog.choose(.format(.bayer14)) }
        #expect(error?.code == .formatUnavailable)
        #expect(error?.description.contains("EXIF_JPEG") == true)
        let none = RawFormatCatalog(deviceInfo: try Self.info(captureFormats: []), bitDepth: nil)
        #expect(throws: CameraControlError.self) { try none.choose(.auto) }
    }

    @Test func oddDepthsAndRangesAreHandled() throws {
        let range = DevicePropDesc(
            propertyCode: DevicePropertyCode(rawValue: 0xD001), dataType: .uint8, factoryDefaultValue: .uint8(12),
            currentValue: .uint8(12), form: .range(minimum: .uint8(10), maximum: .uint8(200), step: .uint8(2)))
        let catalog = RawFormatCatalog(deviceInfo: try Self.info(captureFormats: [0x3802]), bitDepth: range)
        #expect(catalog.offers.compactMap(\.bitDepth) == [16, 14, 12, 10])
        #expect(catalog.formats.prefix(3) == [.bayer16, .bayer14, .bayer12])
        #expect(catalog.formats[3] == .bayer)
    }

    @Test func requestsParse() {
        #expect(RawFormatRequest("AUTO") == .auto)
        #expect(RawFormatRequest("bayer14") == .format(.bayer14))
        #expect(RawFormatRequest("raw") == nil)
    }
}
