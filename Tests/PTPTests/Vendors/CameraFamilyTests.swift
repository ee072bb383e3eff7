import PTP
import Testing
import WireFormat

/// Every DeviceInfo in Fixtures/ptp-real, plus the cases the fixtures lack (0xFFFFFFFF over PTP/IP, a USB vendor ID
/// that contradicts DeviceInfo, Nikon 1).
@Suite struct CameraFamilyTests {
    private static func deviceInfo(_ file: String) throws -> DeviceInfo {
        let record = try #require(try Fixture("ptp-real/\(file)").records.first)
        guard case .data(_, _, let payload) = try USBContainer(usbEncoded: record.bytes) else {
            throw FixtureError(message: "\(file): not a data container")
        }
        return try DeviceInfo(ptpEncoded: payload)
    }

    private static func rx100m7() throws -> DeviceInfo {
        let records = try Fixture("ptp-real/sony-dsc-rx100m7_ptpip-connect.hex").records
        guard case .data(_, let payload) = try PTPIPPacket(ptpipEncoded: records[8].bytes) else {
            throw FixtureError(message: "RX100M7: packet 8 is not Data")
        }
        return try DeviceInfo(ptpEncoded: payload)
    }

    @Test(arguments: [
        ("canon-eos-60d_deviceinfo.hex", CameraFamily.canonEOS, VendorExtensionID.canon),
        ("canon-powershot-g5x_deviceinfo.hex", .canonEOS, .canon),
        ("fujifilm-finepix-s4200_deviceinfo.hex", .generic, .fujifilm),
        ("samsung-nx1_deviceinfo.hex", .generic, .samsung),
    ])
    func realUSBDeviceInfo(file: String, family: CameraFamily, vendor: VendorExtensionID) throws {
        let identification = CameraFamily.identify(try Self.deviceInfo(file))
        #expect(identification.family == family, "\(identification)")
        #expect(identification.vendor == vendor)
    }

    @Test func canonReportingMicrosoftIsRecognisedByItsUSBVendorToo() throws {
        let info = try Self.deviceInfo("canon-eos-60d_deviceinfo.hex")
        #expect(info.vendorExtensionID == .microsoft)
        let identification = CameraFamily.identify(info, usbVendorID: .canon)
        #expect(identification.family == .canonEOS)
        #expect(identification.reason.contains("USB vendor Canon(0x04A9)"))
        #expect(identification.reason.contains("RemoteRelease"))
    }

    @Test func fujifilmWithoutCaptureIsGeneric() throws {
        let identification = CameraFamily.identify(
            try Self.deviceInfo("fujifilm-finepix-s4200_deviceinfo.hex"), usbVendorID: .fujifilm)
        #expect(identification.family == .generic && identification.reason.contains("does not list InitiateCapture"))
    }

    @Test func sonyOverPTPIPListsSDIOConnect() throws {
        let identification = CameraFamily.identify(try Self.rx100m7())
        #expect(identification.family == .sony && identification.vendor == .sony)
    }

    /// The Nikon Z 8 reports 0xFFFFFFFF over PTP/IP (libgphoto2 issue 1135): the manufacturer decides.
    @Test func nikonReportingMTPOverPTPIP() {
        let info = DeviceInfo(
            standardVersion: 100, vendorExtensionID: .mtp, vendorExtensionVersion: 100, vendorExtensionDesc: "",
            operationsSupported: [.getDeviceInfo, .openSession, OperationCode.Nikon.initiateCaptureRecInSdram],
            manufacturer: "Nikon Corporation", model: "Z 8", deviceVersion: "V1.00", serialNumber: "1")
        #expect(CameraFamily.identify(info).family == .nikon)
        #expect(CameraFamily.identify(info).vendor == .nikon)
    }

    /// The USB descriptor wins over a DeviceInfo that names another maker.
    @Test func usbVendorOverridesTheManufacturerString() {
        let info = DeviceInfo(
            standardVersion: 100, vendorExtensionID: .microsoft, vendorExtensionVersion: 100,
            vendorExtensionDesc: "", operationsSupported: [OperationCode.Sony.sdioConnect],
            manufacturer: "Generic", model: "ILCE-7M4", deviceVersion: "1", serialNumber: "1")
        #expect(CameraFamily.identify(info).family == .generic)
        let identification = CameraFamily.identify(info, usbVendorID: .sony)
        #expect(identification.family == .sony && identification.reason.contains("although DeviceInfo says"))
        #expect(CameraFamily.identify(info, usbVendorID: USBVendorID(rawValue: 0x1234)).family == .generic)
    }

    @Test func nikon1BodiesShootGenerically() {
        let info = DeviceInfo(
            standardVersion: 100, vendorExtensionID: .nikon, vendorExtensionVersion: 100, vendorExtensionDesc: "",
            operationsSupported: [.initiateCapture, OperationCode.Nikon.initiateCaptureRecInSdram],
            manufacturer: "Nikon Corporation", model: "J5", deviceVersion: "1", serialNumber: "1")
        #expect(CameraFamily.identify(info).family == .generic)
        var d850 = info
        d850.model = "D850"
        #expect(CameraFamily.identify(d850).family == .nikon)
    }

    @Test func canonWithoutEOSGetEventIsGeneric() {
        let info = DeviceInfo(
            standardVersion: 100, vendorExtensionID: .canon, vendorExtensionVersion: 100, vendorExtensionDesc: "",
            operationsSupported: [.initiateCapture, OperationCode.Canon.remoteRelease], manufacturer: "Canon Inc.",
            model: "Canon PowerShot S5", deviceVersion: "1", serialNumber: "1")
        #expect(CameraFamily.identify(info).family == .generic)
    }

    @Test func usbVendorIDDescriptions() {
        #expect(USBVendorID.nikon.description == "Nikon(0x04B0)" && USBVendorID.fujifilm.vendorExtension == .fujifilm)
        #expect(USBVendorID(rawValue: 0x1D6B).description == "Unknown(0x1D6B)")
    }
}
