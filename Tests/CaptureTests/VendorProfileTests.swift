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

    /// NEF first for RAW, NEF + Fine (then its ★, then coarser) for RAW+JPEG, JPEG Fine first for JPEG; TIFF for
    /// none of them.
    @Test func nikonQualityValuesFollowTheBodysNumbering() {
        func values(_ table: NikonImageQualityTable, _ quality: ShotQuality) -> [PTPValue] {
            CameraProfile.nikonQualityValues(table).filter { $0.quality == quality }.map(\.value)
        }
        #expect(values(.optimalQuality, .raw) == [.uint8(7)])
        #expect(values(.optimalQuality, .rawPlusJPEG) == [12, 13, 10, 11, 8, 9].map { PTPValue.uint8($0) })
        #expect(values(.optimalQuality, .jpeg) == [4, 5, 2, 3, 0, 1].map { PTPValue.uint8($0) })
        #expect(values(.classic, .raw) == [.uint8(4)])
        #expect(values(.classic, .rawPlusJPEG) == [7, 6, 5].map { PTPValue.uint8($0) })
        #expect(values(.classic, .jpeg) == [2, 1, 0].map { PTPValue.uint8($0) })
        #expect(values(.d40, .raw) == [.uint8(3)] && values(.d40, .rawPlusJPEG) == [.uint8(4)])
        #expect(!CameraProfile.nikonQualityValues(.classic).contains { $0.value == .uint8(3) }, "TIFF")
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
