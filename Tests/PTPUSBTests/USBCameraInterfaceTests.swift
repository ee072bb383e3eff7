import PTPUSB
import Testing

/// Which interfaces count as a camera's PTP interface: pure classification, no libusb.
@Suite struct USBCameraInterfaceTests {
    static let bulkIn = USBEndpointDescription(address: 0x81, transferType: .bulk, maxPacketSize: 512)
    static let bulkOut = USBEndpointDescription(address: 0x02, transferType: .bulk, maxPacketSize: 512)
    static let interrupt = USBEndpointDescription(address: 0x83, transferType: .interrupt, maxPacketSize: 8)

    static func interface(
        _ number: UInt8, _ triple: (UInt8, UInt8, UInt8),
        endpoints: [USBEndpointDescription] = [bulkIn, bulkOut, interrupt]
    ) -> USBInterfaceDescription {
        USBInterfaceDescription(
            number: number, interfaceClass: triple.0, interfaceSubclass: triple.1, interfaceProtocol: triple.2,
            endpoints: endpoints)
    }

    @Test func aStillImageInterfaceOfAnyVendorIsACamera() throws {
        let found = try #require(USBCameraInterface.find(vendorID: 0x1209, in: [Self.interface(0, (6, 1, 1))]))
        #expect(found.kind == .stillImage)
        #expect(found.bulkIn == Self.bulkIn && found.bulkOut == Self.bulkOut && found.interruptIn == Self.interrupt)
    }

    @Test func stillImageWinsOverVendorSpecificAndTheInterfaceNumberIsKept() throws {
        let interfaces = [Self.interface(0, (0xFF, 0, 0)), Self.interface(2, (6, 1, 1))]
        let found = try #require(USBCameraInterface.find(vendorID: 0x04B0, in: interfaces))
        #expect(found.kind == .stillImage)
        #expect(found.number == 2)
    }

    @Test(arguments: [UInt16(0x04B0), 0x04A9, 0x054C, 0x04CB, 0x04DA, 0x07B4, 0x25FB, 0x1A98])
    func vendorSpecificInterfacesOfCameraMakersAreCameras(vendor: UInt16) {
        #expect(
            USBCameraInterface.find(vendorID: vendor, in: [Self.interface(0, (0xFF, 0xFF, 0))])?.kind == .vendorSpecific
        )
    }

    @Test func otherInterfacesAreNotCameras() {
        // A vendor-specific interface of a vendor that makes no cameras, mass storage, and a still-image interface
        // missing its interrupt endpoint or with a zero packet size.
        #expect(USBCameraInterface.find(vendorID: 0x1209, in: [Self.interface(0, (0xFF, 0, 0))]) == nil)
        #expect(USBCameraInterface.find(vendorID: 0x04A9, in: [Self.interface(0, (8, 6, 0x50))]) == nil)
        #expect(
            USBCameraInterface.find(
                vendorID: 0x04A9, in: [Self.interface(0, (6, 1, 1), endpoints: [Self.bulkIn, Self.bulkOut])])
                == nil)
        let zero = USBEndpointDescription(address: 0x81, transferType: .bulk, maxPacketSize: 0)
        #expect(
            USBCameraInterface.find(
                vendorID: 0x04A9, in: [Self.interface(0, (6, 1, 1), endpoints: [zero, Self.bulkOut, Self.interrupt])])
                == nil)
    }

    @Test func highBandwidthBitsAreNotPartOfThePacketSize() {
        // wMaxPacketSize 0x1400: 1024 bytes with a multiplier in bits 11–12.
        #expect(USBEndpointDescription(address: 0x83, attributes: 0x03, maxPacketSize: 0x1400).maxPacketSize == 1024)
        #expect(USBEndpointDescription(address: 0x83, attributes: 0x03, maxPacketSize: 8).transferType == .interrupt)
    }
}
