import PTP
import Testing

@Suite struct CodeTableTests {
    @Test func standardCodesPrintTheirNames() {
        #expect(OperationCode.getDeviceInfo.rawValue == 0x1001)
        #expect(OperationCode.getDeviceInfo.description == "GetDeviceInfo")
        #expect(ResponseCode.ok.description == "OK")
        #expect(ResponseCode.sessionAlreadyOpened.rawValue == 0x201E)
        #expect(EventCode.captureComplete.rawValue == 0x400D)
        #expect(DevicePropertyCode.exposureIndex.rawValue == 0x500F)
        #expect(ObjectFormatCode.dng.rawValue == 0x3811)
        #expect(ObjectFormatCode.tiffEP.description == "TIFF_EP")
        #expect(StorageType.removableRAM.rawValue == 4)
        #expect(FilesystemType.dcf.rawValue == 3)
        #expect(AccessCapability.readOnlyWithObjectDeletion.rawValue == 2)
    }

    @Test func unknownCodesPrintTheirValue() {
        #expect(OperationCode(0x9ABC).description == "Unknown(0x9ABC)")
        #expect(ResponseCode(0x0042).description == "Unknown(0x0042)")
        #expect(VendorExtensionID(rawValue: 0x1234).description == "Unknown(0x1234)")
        #expect(OperationCode(0x9ABC).description(vendor: .nikon) == "Unknown(0x9ABC)")
    }

    @Test func vendorCodesNeedTheirVendorToBeNamed() {
        // 0x90C7 is Nikon's GetEvent; 0x9207 is Nikon InitiateCaptureRecInMedia and Sony SetControlDeviceB.
        #expect(OperationCode.Nikon.getEvent.description == "Unknown(0x90C7)")
        #expect(OperationCode.Nikon.getEvent.description(vendor: .nikon) == "Nikon.GetEvent")
        #expect(OperationCode(0x9207).description(vendor: .nikon) == "Nikon.InitiateCaptureRecInMedia")
        #expect(OperationCode(0x9207).description(vendor: .sony) == "Sony.SetControlDeviceB")
        #expect(OperationCode(0x9207).description(vendor: .canon) == "Unknown(0x9207)")
        #expect(ObjectFormatCode(0xB101).description(vendor: .canon) == "Canon.CRW")
        #expect(ObjectFormatCode(0xB101).description(vendor: .sony) == "Sony.ARW")
        #expect(EventCode(0xC101).description(vendor: .nikon) == "Nikon.ObjectAddedInSdram")
        #expect(EventCode(0xC101).description(vendor: .canon) == "Canon.RequestGetEvent")
        #expect(ResponseCode(0xA001).description(vendor: .nikon) == "Nikon.HardwareError")
        // A standard code keeps its name whatever the vendor.
        #expect(OperationCode.getObject.description(vendor: .sony) == "GetObject")
    }

    static let vendorOperations: [(OperationCode, UInt16)] = [
        (OperationCode.Nikon.initiateCaptureRecInSdram, 0x90C0), (OperationCode.Nikon.deviceReady, 0x90C8),
        (OperationCode.Nikon.getEvent, 0x90C7), (OperationCode.Nikon.initiateCaptureRecInMedia, 0x9207),
        (OperationCode.Canon.setRemoteMode, 0x9114), (OperationCode.Canon.setEventMode, 0x9115),
        (OperationCode.Canon.getEvent, 0x9116), (OperationCode.Canon.remoteRelease, 0x910F),
        (OperationCode.Canon.remoteReleaseOn, 0x9128), (OperationCode.Canon.remoteReleaseOff, 0x9129),
        (OperationCode.Canon.getPartialObject64, 0x9172), (OperationCode.Sony.sdioConnect, 0x9201),
        (OperationCode.Sony.getSDIOExtDeviceInfo, 0x9202), (OperationCode.Sony.getAllDevicePropData, 0x9209),
        (OperationCode.Sony.setControlDeviceA, 0x9205), (OperationCode.Sony.setControlDeviceB, 0x9207),
        (OperationCode.Fujifilm.getDeviceInfo, 0x902B),
    ]

    @Test(arguments: vendorOperations)
    func vendorOperationNumbersMatchLibgphoto2(code: OperationCode, value: UInt16) {
        #expect(code.rawValue == value)
    }

    @Test func vendorPropertiesForCaptureExist() {
        #expect(DevicePropertyCode.Nikon.rawBitMode.rawValue == 0xD149)
        #expect(DevicePropertyCode.Nikon.rawCompression.rawValue == 0xD016)
        #expect(DevicePropertyCode.Canon.eosImageFormat.rawValue == 0xD120)
        #expect(DevicePropertyCode.Canon.eosISOSpeed.rawValue == 0xD103)
        #expect(DevicePropertyCode.Canon.eosShutterSpeed.rawValue == 0xD102)
        #expect(DevicePropertyCode.Canon.eosAperture.rawValue == 0xD101)
        #expect(DevicePropertyCode.Sony.shutterSpeed.rawValue == 0xD20D)
        #expect(DevicePropertyCode.Sony.iso.rawValue == 0xD21E)
        #expect(DevicePropertyCode.Fujifilm.quality.rawValue == 0xD018)
        #expect(DevicePropertyCode.Fujifilm.shutterSpeed.rawValue == 0xD219)
        #expect(DevicePropertyCode(0xD018).description(vendor: .fujifilm) == "Fujifilm.Quality")
    }

    @Test func dataTypeCodesDescribeArraysAndSizes() {
        #expect(DataTypeCode.array(of: .uint16).rawValue == 0x4004)
        #expect(DataTypeCode(0x4004).description == "AUINT16")
        #expect(DataTypeCode(0x4004).isArray)
        #expect(DataTypeCode(0x4004).elementType == .uint16)
        #expect(DataTypeCode.string.description == "STR")
        #expect(!DataTypeCode.string.isArray)
        #expect(DataTypeCode.uint128.scalarByteCount == 16)
        #expect(DataTypeCode.int8.scalarByteCount == 1)
        #expect(DataTypeCode.int64.isSigned && !DataTypeCode.uint64.isSigned)
        #expect(!DataTypeCode(0x4000).isArray)
        #expect(DataTypeCode(0x400B).scalarByteCount == nil)
    }

    @Test func cameraVendorFallsBackToTheManufacturer() {
        #expect(DeviceInfo(vendorExtensionID: .nikon).cameraVendor == .nikon)
        #expect(DeviceInfo(vendorExtensionID: .microsoft, manufacturer: "Canon Inc.").cameraVendor == .canon)
        #expect(DeviceInfo(vendorExtensionID: .mtp, manufacturer: "Nikon Corporation").cameraVendor == .nikon)
        #expect(DeviceInfo(vendorExtensionID: .microsoft, manufacturer: "FUJIFILM").cameraVendor == .fujifilm)
        #expect(DeviceInfo(vendorExtensionID: .microsoft, manufacturer: "Acme").cameraVendor == .microsoft)
    }
}
