import CLibUSB
import Foundation
import PTP
import TestSupport
import Testing

@testable import PTPUSB

/// libusb's codes, their mapping onto the pipe's vocabulary, and the messages users read.
@Suite struct LibUSBErrorTests {
    @Test func codesNameTheirCConstants() {
        #expect(LibUSBError.Code.timeout.rawValue == LIBUSB_ERROR_TIMEOUT.rawValue)
        #expect(LibUSBError.Code.access.rawValue == LIBUSB_ERROR_ACCESS.rawValue)
        #expect(LibUSBError.Code.busy.rawValue == LIBUSB_ERROR_BUSY.rawValue)
        #expect(LibUSBError.Code.other.rawValue == LIBUSB_ERROR_OTHER.rawValue)
        #expect(LibUSBError.Code.pipe.description == "LIBUSB_ERROR_PIPE")
        #expect(LibUSBError.Code(rawValue: -42).description == "Unknown(-42)")
        #expect(
            LibUSBError(.busy, function: "libusb_claim_interface", "interface 0").description
                == "libusb_claim_interface: LIBUSB_ERROR_BUSY (interface 0)")
        #expect(LibUSBError(.busy, function: "a") == LibUSBError(.busy, function: "b"))
    }

    @Test func transferStatusesBecomeCodes() {
        #expect(LibUSBError.Code(transferStatus: LIBUSB_TRANSFER_COMPLETED) == nil)
        #expect(LibUSBError.Code(transferStatus: LIBUSB_TRANSFER_TIMED_OUT) == .timeout)
        #expect(LibUSBError.Code(transferStatus: LIBUSB_TRANSFER_STALL) == .pipe)
        #expect(LibUSBError.Code(transferStatus: LIBUSB_TRANSFER_NO_DEVICE) == .noDevice)
        #expect(LibUSBError.Code(transferStatus: LIBUSB_TRANSFER_OVERFLOW) == .overflow)
        #expect(LibUSBError.Code(transferStatus: LIBUSB_TRANSFER_CANCELLED) == .interrupted)
        #expect(LibUSBError.Code(transferStatus: LIBUSB_TRANSFER_ERROR) == .io)
    }

    @Test(arguments: [
        (LibUSBError.Code.timeout, USBPipeError.Code.timeout), (.pipe, .stall), (.noDevice, .disconnected),
        (.overflow, .overflow), (.interrupted, .cancelled), (.io, .ioError), (.access, .ioError), (.other, .ioError),
    ])
    func pipeErrorsKeepTheMeaningAndTheLibUSBError(code: LibUSBError.Code, expected: USBPipeError.Code) {
        let error = USBPipeError(LibUSBError(code, function: "libusb_submit_transfer"), partialData: [1, 2])
        #expect(error.code == expected)
        #expect(error.partialData == [1, 2])
        #expect((error.underlyingError as? LibUSBError)?.code == code)
    }

    @Test func thePermissionMessageSaysHowToInstallTheUdevRule() {
        let message = USBCameraError(.permissionDenied).description
        #expect(message.contains("sudo make install"))
        #expect(message.contains("/etc/udev/rules.d/60-rawcap.rules"))
        #expect(message.contains("Packaging/udev/60-rawcap.rules"))
        #expect(message.contains("udevadm control --reload-rules"))
        #expect(message.contains("plugdev"))
    }

    @Test func theUdevRuleCoversStillImageInterfacesAndTheVendorTable() throws {
        let url = ExternalTool.packageRoot.appendingPathComponent("Packaging/udev/60-rawcap.rules")
        let rules = try String(contentsOf: url, encoding: .utf8)
        #expect(rules.contains(#"ENV{ID_USB_INTERFACES}=="*:060101:*", GOTO="rawcap_camera""#))
        #expect(rules.contains(#"MODE="0660", GROUP="plugdev", TAG+="uaccess""#))
        let ruleVendors = Set(
            rules.split(separator: "\n").compactMap { line -> UInt16? in
                guard line.hasPrefix("ATTR{idVendor}==\"") else { return nil }
                return UInt16(line.dropFirst(17).prefix(4), radix: 16)
            })
        #expect(ruleVendors == Set(KnownCameraVendors.names.keys))
    }
}
