import CameraEmulator
import Capture
import PTP
import Testing

/// The seams the Nikon and Canon drivers plug into: profile choice, raw recognition, bit depth codes.
@Suite struct VendorProfileTests {
    static func info(_ model: CameraModel) async throws -> DeviceInfo {
        let camera = try EmulatedCamera(model: model, configuration: .init(sensorWidth: 64, sensorHeight: 48))
        return await camera.deviceInfo
    }

    @Test func nikonAndCanonBodiesGetTheirProfiles() async throws {
        let nikon = try await Self.info(.nikon)
        let canon = try await Self.info(.canon)
        #expect(CameraProfile.select(for: nikon).name == "nikon")
        #expect(CameraProfile.select(for: canon).name == "canon-eos")
        #expect(CameraProfile.select(for: nikon).driver.name == "nikon")
        #expect(CameraProfile.select(for: canon).driver.name == "canon-eos")
        // The USB vendor decides even when DeviceInfo says Microsoft (6), as many Nikons do.
        var info = nikon
        info.vendorExtensionID = VendorExtensionID(rawValue: 6)
        info.manufacturer = "Nikon"
        #expect(CameraProfile.select(for: info, usbVendorID: .nikon).name == "nikon")
        // A Nikon without the SDRAM capture operations shoots generically.
        info.operationsSupported.removeAll {
            $0 == OperationCode.Nikon.initiateCaptureRecInSdram || $0 == OperationCode.Nikon.initiateCaptureRecInMedia
        }
        #expect(CameraProfile.select(for: info, usbVendorID: .nikon).name == "generic")
    }

    @Test func nikonBitDepthsAreRawBitModeCodes() throws {
        let profile = CameraProfile.nikon(logger: .init(label: "test"))
        #expect(try profile.rawBitDepthValue(for: 12, type: .uint8) == .uint8(0))
        #expect(try profile.rawBitDepthValue(for: 14, type: .uint8) == .uint8(1))
        #expect(throws: CaptureError.self) { try profile.rawBitDepthValue(for: 16, type: .uint8) }
        #expect(try CameraProfile.generic.rawBitDepthValue(for: 14, type: .uint8) == .uint8(14))
    }

    @Test(arguments: [
        (ObjectFormatCode.undefined, "DSC_0001.NEF", true),
        (.undefined, "DSCN0001.NRW", true),
        (ObjectFormatCode.Canon.crw3, "IMG_0001.CR2", true),
        (.undefined, "IMG_0001.CR3", true),
        (.undefined, "DSC00001.ARW", true),
        (.undefined, "DSC00001.SR2", true),
        (.undefined, "DSCF0001.RAF", true),
        (.undefined, "P1010001.ORF", true),
        (.undefined, "P1010001.RW2", true),
        (.undefined, "README.TXT", false),
        (.exifJPEG, "DSC_0001.JPG", false),
        (.association, "100NIKON.NEF", false),
        (.tiffEP, "RCAP0001.TIF", true),
    ])
    func rawObjectsAreKnownByFormatAndByName(format: ObjectFormatCode, name: String, raw: Bool) {
        let object = CardObject(
            handle: ObjectHandle(rawValue: 1), info: ObjectInfo(objectFormat: format, filename: name))
        #expect(object.isRaw == raw, "\(name)")
    }
}
