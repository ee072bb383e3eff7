import FakeUSB
import PTP
import PTPUSB
import Testing

/// Discovery, selection and opening through real libusb against fake cameras on umockdev's bus.
@Suite(.serialized, .timeLimit(.minutes(1))) struct LibUSBDiscoveryTests {
    static let canon = FakeUSBCamera.Configuration(
        busNumber: 1, deviceAddress: 5, port: 3, vendorID: 0x04A9, productID: 0x32F4, manufacturer: "Canon Inc.",
        product: "Canon EOS R5", serialNumber: "083024001234")
    static let nikon = FakeUSBCamera.Configuration(
        busNumber: 2, deviceAddress: 7, port: 1, vendorID: 0x04B0, productID: 0x0450, manufacturer: "Nikon Corp.",
        product: "Z 8", serialNumber: "3007771")

    @Test func findsTheStillImageCameraWithItsDescriptorsAndStrings() async throws {
        try await FakeUSBTestbed.withTestbed { testbed in
            try testbed.requirePreload()
            _ = try testbed.addCamera(Self.canon, responder: TestCamera())
            let context = try await LibUSBContext.make()
            let cameras = try await context.cameras()
            let camera = try #require(cameras.first)
            #expect(cameras.count == 1)
            #expect(camera.busNumber == 1 && camera.deviceAddress == 5)
            #expect(camera.portNumbers == [3])
            #expect(camera.portPath == "1-3")
            #expect(camera.devicePath == "/dev/bus/usb/001/005")
            #expect(camera.vendorID == 0x04A9 && camera.productID == 0x32F4)
            #expect(camera.manufacturer == "Canon Inc.")
            #expect(camera.product == "Canon EOS R5")
            #expect(camera.serialNumber == "083024001234")
            #expect(camera.interface.kind == .stillImage)
            #expect(camera.interface.number == 0 && camera.interface.alternateSetting == 0)
            #expect(
                camera.interface.bulkIn
                    == USBEndpointDescription(address: 0x81, transferType: .bulk, maxPacketSize: 512))
            #expect(
                camera.interface.bulkOut
                    == USBEndpointDescription(address: 0x02, transferType: .bulk, maxPacketSize: 512))
            #expect(
                camera.interface.interruptIn
                    == USBEndpointDescription(address: 0x83, transferType: .interrupt, maxPacketSize: 8))
            #expect(camera.access == .available)
            #expect(camera.selector == "usb:001:005")
            #expect(camera.displayName == "Canon EOS R5")
            #expect(camera.description == "usb:001:005  Canon EOS R5 (04a9:32f4), serial 083024001234, port 1-3")
        }
    }

    @Test func vendorSpecificInterfacesCountOnlyFromCameraMakers() async throws {
        try await FakeUSBTestbed.withTestbed { testbed in
            try testbed.requirePreload()
            var nikon = Self.nikon
            nikon.interfaceClass = (0xFF, 0x00, 0x00)
            _ = try testbed.addCamera(nikon, responder: TestCamera())
            // The same interface from a vendor that makes no cameras is some other gadget.
            _ = try testbed.addCamera(
                .init(busNumber: 1, deviceAddress: 9, interfaceClass: (0xFF, 0x00, 0x00)), responder: TestCamera())
            let cameras = try await LibUSBContext.make().cameras()
            #expect(cameras.map(\.selector) == ["usb:002:007"])
            #expect(cameras.first?.interface.kind == .vendorSpecific)
            #expect(cameras.first?.displayName == "Nikon Corp. Z 8")
        }
    }

    @Test func selectsByBusAndAddressOrSerialNumber() async throws {
        try await FakeUSBTestbed.withTestbed { testbed in
            try testbed.requirePreload()
            _ = try testbed.addCamera(Self.canon, responder: TestCamera())
            _ = try testbed.addCamera(Self.nikon, responder: TestCamera())
            let cameras = try await LibUSBContext.make().cameras()
            #expect(cameras.map(\.selector) == ["usb:001:005", "usb:002:007"])
            let byAddress = try #require(USBCameraSelector("usb:2:7"))
            #expect(try byAddress.select(from: cameras).product == "Z 8")
            let bySerial = try #require(USBCameraSelector("serial:083024001234"))
            #expect(try bySerial.select(from: cameras).product == "Canon EOS R5")

            let ambiguous = #expect(throws: USBCameraError(.ambiguous)) {
                try USBCameraSelector.onlyCamera.select(from: cameras)
            }
            let message = ambiguous?.description ?? ""
            #expect(message.contains("2 cameras found"))
            #expect(message.contains("usb:001:005  Canon EOS R5"))
            #expect(message.contains("usb:002:007  Nikon Corp. Z 8"))
            #expect(message.contains("--camera usb:BUS:ADDR"))

            let missing = #expect(throws: USBCameraError(.notFound)) {
                try USBCameraSelector.serialNumber("nope").select(from: cameras)
            }
            #expect(missing?.description.contains("No camera matches serial:nope") == true)
            #expect(throws: USBCameraError(.notFound)) {
                try USBCameraSelector.busAndAddress(bus: 1, address: 6).select(from: cameras)
            }
        }
    }

    @Test func noCameraIsAClearError() async throws {
        try await FakeUSBTestbed.withTestbed { testbed in
            try testbed.requirePreload()
            let cameras = try await LibUSBContext.make().cameras()
            #expect(cameras.isEmpty)
            let error = #expect(throws: USBCameraError(.noCamera)) {
                try USBCameraSelector.onlyCamera.select(from: cameras)
            }
            #expect(error?.description.contains("No camera found on USB") == true)
            #expect(error?.description.contains("PTP") == true)
        }
    }

    @Test func aCameraHeldByAnotherProgramIsBusy() async throws {
        try await FakeUSBTestbed.withTestbed { testbed in
            try testbed.requirePreload()
            let fake = try testbed.addCamera(Self.canon, responder: TestCamera())
            fake.setHeldByAnotherProgram(true)
            let context = try await LibUSBContext.make()
            let camera = try #require(try await context.cameras().first)
            #expect(camera.access == .busy)
            let error = await #expect(throws: USBCameraError(.busy)) { try await LibUSBPipe.open(camera, in: context) }
            #expect(error?.underlyingError?.code == .busy)
            let message = error?.description ?? ""
            #expect(message.contains("Canon EOS R5 at usb:001:005"))
            #expect(message.contains("gvfs-gphoto2-volume-monitor"))
            #expect(message.contains("systemctl --user stop gvfs-gphoto2-volume-monitor.service"))
            #expect(message.contains("gio mount -s gphoto2"))
            fake.setHeldByAnotherProgram(false)
            let pipe = try await LibUSBPipe.open(camera, in: context)
            await pipe.close()
        }
    }

    @Test func aSecondOpenWhileTheFirstHoldsTheCameraIsBusy() async throws {
        try await FakeUSBTestbed.withTestbed { testbed in
            try testbed.requirePreload()
            _ = try testbed.addCamera(Self.canon, responder: TestCamera())
            let context = try await LibUSBContext.make()
            let camera = try #require(try await context.cameras().first)
            let first = try await LibUSBPipe.open(camera, in: context)
            #expect(try await context.cameras().first?.access == .busy)
            await #expect(throws: USBCameraError(.busy)) { try await LibUSBPipe.open(camera, in: context) }
            await first.close()
            #expect(try await context.cameras().first?.access == .available)
        }
    }

    @Test func aCameraThatVanishedBeforeOpeningIsReportedDisconnected() async throws {
        try await FakeUSBTestbed.withTestbed { testbed in
            try testbed.requirePreload()
            let fake = try testbed.addCamera(Self.canon, responder: TestCamera())
            let context = try await LibUSBContext.make()
            var camera = try #require(try await context.cameras().first)
            camera.deviceAddress = 6  // as if it had been replugged at another address
            await #expect(throws: USBCameraError(.disconnected)) { try await LibUSBPipe.open(camera, in: context) }
            await fake.pullCable()
            let gone = try #require(try await context.cameras().first)
            await #expect(throws: USBCameraError.self) { try await LibUSBPipe.open(gone, in: context) }
        }
    }
}
