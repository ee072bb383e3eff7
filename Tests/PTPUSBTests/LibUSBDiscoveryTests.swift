import FakeUSB
import PTP
import PTPUSB
import Testing

/// Discovery through real libusb against fake cameras on umockdev's bus.
@Suite(.serialized) struct LibUSBDiscoveryTests {
    @Test func findsTheStillImageCameraWithItsDescriptorsAndStrings() async throws {
        try await FakeUSBTestbed.withTestbed { testbed in
            try testbed.requirePreload()
            _ = try testbed.addCamera(
                .init(
                    busNumber: 1, deviceAddress: 5, port: 3, vendorID: 0x04A9, productID: 0x32F4,
                    manufacturer: "Canon Inc.", product: "Canon EOS R5", serialNumber: "083024001234"),
                responder: TestCamera())
            let context = try await LibUSBContext.make()
            let cameras = try await context.cameras()
            let camera = try #require(cameras.first)
            #expect(cameras.count == 1)
            #expect(camera.busNumber == 1 && camera.deviceAddress == 5)
            #expect(camera.portNumbers == [3])
            #expect(camera.portPath == "1-3")
            #expect(camera.vendorID == 0x04A9 && camera.productID == 0x32F4)
            #expect(camera.manufacturer == "Canon Inc.")
            #expect(camera.product == "Canon EOS R5")
            #expect(camera.serialNumber == "083024001234")
            #expect(camera.interface.kind == .stillImage)
            #expect(camera.interface.bulkIn == USBEndpointDescription(address: 0x81, transferType: .bulk, maxPacketSize: 512))
            #expect(camera.interface.bulkOut == USBEndpointDescription(address: 0x02, transferType: .bulk, maxPacketSize: 512))
            #expect(camera.interface.interruptIn.address == 0x83)
            #expect(camera.access == .available)
            #expect(camera.selector == "usb:001:005")
            #expect(camera.displayName == "Canon EOS R5")
        }
    }
}
