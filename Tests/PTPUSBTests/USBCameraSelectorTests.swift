import PTPUSB
import Testing

/// The `--camera` forms for USB, parsed without libusb.
@Suite struct USBCameraSelectorTests {
    @Test func parsesTheUSBForms() {
        #expect(USBCameraSelector("usb") == .onlyCamera)
        #expect(USBCameraSelector("usb:1:2") == .busAndAddress(bus: 1, address: 2))
        #expect(USBCameraSelector("usb:001:012") == .busAndAddress(bus: 1, address: 12))
        #expect(USBCameraSelector("serial:ABC:12") == .serialNumber("ABC:12"))
        #expect(USBCameraSelector("usb:001:012")?.description == "usb:001:012")
        #expect(USBCameraSelector("serial:X1")?.description == "serial:X1")
    }

    @Test(arguments: [
        "", "usb:", "usb:1", "usb:1:2:3", "usb:0:2", "usb:1:0", "usb:a:b", "usb:256:1", "serial:", "USB", "sim",
    ])
    func rejectsAnythingElse(text: String) {
        #expect(USBCameraSelector(text) == nil)
    }
}
