import PTP
import Testing
import WireFormat

/// Spec bytes for every dataset: annotated hex decodes, re-encodes byte for byte, and every prefix fails.
@Suite struct DatasetTests {
    /// Hand-assembled from PTP 1.1 §5.5.1; every field annotated.
    static let deviceInfo = hexBytes(
        """
        64 00                         // StandardVersion 100
        0a 00 00 00                   // VendorExtensionID 0x0A (Nikon)
        64 00                         // VendorExtensionVersion 100
        03 61 00 62 00 00 00          // VendorExtensionDesc "ab" (3 units incl. NUL)
        00 00                         // FunctionalMode 0
        03 00 00 00 01 10 02 10 c0 90 // OperationsSupported [0x1001, 0x1002, 0x90C0]
        01 00 00 00 01 c1             // EventsSupported [0xC101]
        02 00 00 00 01 50 49 d1       // DevicePropertiesSupported [0x5001, 0xD149]
        01 00 00 00 00 30             // CaptureFormats [0x3000]
        02 00 00 00 00 30 01 38       // ImageFormats [0x3000, 0x3801]
        06 4e 00 69 00 6b 00 6f 00 6e 00 00 00  // Manufacturer "Nikon"
        03 5a 00 38 00 00 00          // Model "Z8"
        00                            // DeviceVersion ""
        02 31 00 00 00                // SerialNumber "1"
        """)

    /// PTP 1.1 §5.5.3.
    static let storageInfo = hexBytes(
        """
        04 00                         // StorageType 4 RemovableRAM
        03 00                         // FilesystemType 3 DCF
        00 00                         // AccessCapability 0 ReadWrite
        00 00 00 00 10 00 00 00       // MaxCapacity 64 GiB
        00 00 00 80 00 00 00 00       // FreeSpaceInBytes 2 GiB
        ff ff ff ff                   // FreeSpaceInImages: not used
        03 53 00 44 00 00 00          // StorageDescription "SD"
        00                            // VolumeLabel ""
        """)

    /// PTP 1.1 §5.5.2.
    static let objectInfo = hexBytes(
        """
        01 00 01 00                   // StorageID 0x00010001
        11 38                         // ObjectFormat 0x3811 DNG
        00 00                         // ProtectionStatus 0
        00 00 40 01                   // ObjectCompressedSize 20 MiB
        08 38                         // ThumbFormat 0x3808 JFIF
        00 30 00 00                   // ThumbCompressedSize 12288
        a0 00 00 00 78 00 00 00       // ThumbPixWidth 160, ThumbPixHeight 120
        40 1f 00 00 50 14 00 00       // ImagePixWidth 8000, ImagePixHeight 5200
        0e 00 00 00                   // ImageBitDepth 14
        00 00 90 91                   // ParentObject 0x91900000
        00 00                         // AssociationType 0
        00 00 00 00                   // AssociationDesc 0
        07 00 00 00                   // SequenceNumber 7
        05 41 00 2e 00 44 00 4e 00 00 00  // Filename "A.DN" (5 units)
        12 32 00 30 00 32 00 34 00 30 00 31 00 30 00 32 00 54 00 31 00 32 00 33 00 30 00 34 00 35 00 2e 00 36 00 00 00  // CaptureDate "20240102T123045.6"
        00                            // ModificationDate ""
        00                            // Keywords ""
        """)

    /// PTP 1.1 §13.3.3: ExposureIndex, UINT16, get/set, enumeration form.
    static let enumerationDesc = hexBytes(
        """
        0f 50                         // DevicePropertyCode 0x500F ExposureIndex
        04 00                         // DataType UINT16
        01                            // GetSet 1
        64 00                         // FactoryDefaultValue 100
        90 01                         // CurrentValue 400
        02                            // FormFlag 2 enumeration
        03 00                         // NumberOfValues 3
        64 00 c8 00 90 01             // 100, 200, 400
        """)

    /// A range form over INT16 (ExposureBiasCompensation in 1/1000 EV).
    static let rangeDesc = hexBytes(
        """
        10 50                         // 0x5010 ExposureBiasCompensation
        03 00                         // DataType INT16
        01                            // GetSet 1
        00 00 18 fc                   // FactoryDefault 0, Current -1000
        01                            // FormFlag 1 range
        48 f4 b8 0b 4d 01             // min -3000, max 3000, step 333
        """)

    /// A string property without a form (Canon's 0xD402 DeviceFriendlyName layout).
    static let stringDesc = hexBytes(
        """
        02 d4 ff ff 00                // 0xD402, STR, get only
        02 41 00 00 00                // FactoryDefault "A"
        02 42 00 00 00                // Current "B"
        00                            // FormFlag 0
        """)

    /// An array property (AUINT8, a white-balance table).
    static let arrayDesc = hexBytes(
        """
        00 d0 02 40 01                // 0xD000, AUINT8, get/set
        02 00 00 00 01 02             // FactoryDefault [1, 2]
        00 00 00 00                   // Current []
        00                            // FormFlag 0
        """)

    /// Reply to GetStorageIDs (PTP 1.1 §10.5.4): two stores.
    static let storageIDs = hexBytes("02 00 00 00  01 00 01 00  01 00 02 00")
    /// Reply to GetObjectHandles (PTP 1.1 §10.5.7).
    static let objectHandles = hexBytes("03 00 00 00  01 00 00 00  02 00 00 00  00 00 00 80")
    /// Sony GetSDIOExtDeviceInfo, version 200 with the controls list.
    static let sonyExt = hexBytes("c8 00  02 00 00 00 0d d2 1e d2  01 00 00 00 c2 d2")

    static let all: [(String, [UInt8], @Sendable (ArraySlice<UInt8>) throws(WireError) -> any PTPDataset)] = [
        ("DeviceInfo", deviceInfo, { bytes throws(WireError) in try DeviceInfo(ptpEncoded: bytes) }),
        ("StorageInfo", storageInfo, { bytes throws(WireError) in try StorageInfo(ptpEncoded: bytes) }),
        ("ObjectInfo", objectInfo, { bytes throws(WireError) in try ObjectInfo(ptpEncoded: bytes) }),
        ("DevicePropDesc enum", enumerationDesc, { bytes throws(WireError) in try DevicePropDesc(ptpEncoded: bytes) }),
        ("DevicePropDesc range", rangeDesc, { bytes throws(WireError) in try DevicePropDesc(ptpEncoded: bytes) }),
        ("DevicePropDesc string", stringDesc, { bytes throws(WireError) in try DevicePropDesc(ptpEncoded: bytes) }),
        ("DevicePropDesc array", arrayDesc, { bytes throws(WireError) in try DevicePropDesc(ptpEncoded: bytes) }),
        ("StorageIDArray", storageIDs, { bytes throws(WireError) in try StorageIDArray(ptpEncoded: bytes) }),
        ("ObjectHandleArray", objectHandles, { bytes throws(WireError) in try ObjectHandleArray(ptpEncoded: bytes) }),
        ("SonyExtDeviceInfo", sonyExt, { bytes throws(WireError) in try SonyExtDeviceInfo(ptpEncoded: bytes) }),
    ]

    @Test(arguments: 0..<all.count)
    func decodesAndReencodesSpecBytes(index: Int) throws {
        let (name, bytes, decode) = Self.all[index]
        let value = try decode(bytes[...])
        #expect(value.ptpEncoded == bytes, "\(name)")
    }

    @Test(arguments: 0..<all.count)
    func rejectsEveryTruncation(index: Int) {
        let (name, bytes, decode) = Self.all[index]
        for length in 0..<bytes.count {
            #expect(throws: WireError(.truncated), "\(name) prefix of \(length) bytes") {
                try decode(bytes.prefix(length))
            }
        }
    }

    @Test(arguments: 0..<all.count)
    func rejectsTrailingBytes(index: Int) {
        let (name, bytes, decode) = Self.all[index]
        #expect(throws: WireError(.trailingBytes), "\(name)") { try decode((bytes + [0])[...]) }
    }

    @Test func fieldsDecodeToTheirSpecValues() throws {
        let info = try DeviceInfo(ptpEncoded: Self.deviceInfo)
        #expect(info.vendorExtensionID == .nikon)
        #expect(info.vendorExtensionDesc == "ab")
        #expect(info.operationsSupported == [.getDeviceInfo, .openSession, .Nikon.initiateCaptureRecInSdram])
        #expect(info.eventsSupported == [.Nikon.objectAddedInSdram])
        #expect(info.devicePropertiesSupported == [.batteryLevel, .Nikon.rawBitMode])
        #expect(
            info.manufacturer == "Nikon" && info.model == "Z8" && info.deviceVersion == "" && info.serialNumber == "1")
        #expect(info.supports(.Nikon.initiateCaptureRecInSdram))

        let storage = try StorageInfo(ptpEncoded: Self.storageInfo)
        #expect(storage.storageType == .removableRAM && storage.filesystemType == .dcf)
        #expect(storage.maxCapacity == 64 << 30 && storage.freeSpaceInBytes == 2 << 30)
        #expect(storage.freeImages == nil && storage.storageDescription == "SD")

        let object = try ObjectInfo(ptpEncoded: Self.objectInfo)
        #expect(object.objectFormat == .dng && object.byteCount == 20 << 20)
        #expect(object.imagePixWidth == 8000 && object.imageBitDepth == 14)
        #expect(object.parentObject == ObjectHandle(rawValue: 0x9190_0000))
        #expect(object.captureDateTime?.tenths == 6)

        let desc = try DevicePropDesc(ptpEncoded: Self.enumerationDesc)
        #expect(desc.propertyCode == .exposureIndex && desc.dataType == .uint16 && desc.isSettable)
        #expect(desc.currentValue == .uint16(400))
        #expect(desc.form == .enumeration([.uint16(100), .uint16(200), .uint16(400)]))
        #expect(
            try DevicePropDesc(ptpEncoded: Self.rangeDesc).form
                == .range(minimum: .int16(-3000), maximum: .int16(3000), step: .int16(333)))
        #expect(
            try DevicePropDesc(ptpEncoded: Self.arrayDesc).factoryDefaultValue
                == .array(.uint8, [.uint8(1), .uint8(2)]))

        #expect(try StorageIDArray(ptpEncoded: Self.storageIDs).storageIDs.map(\.physicalStorage) == [1, 2])
        #expect(
            try ObjectHandleArray(ptpEncoded: Self.objectHandles).handles.last == ObjectHandle(rawValue: 0x8000_0000))
        let sony = try SonyExtDeviceInfo(ptpEncoded: Self.sonyExt)
        #expect(sony.properties == [.Sony.shutterSpeed, .Sony.iso] && sony.controls == [.Sony.capture])
    }

    @Test func unknownFormFlagAndDataTypeAreErrors() {
        var bytes = Self.enumerationDesc
        bytes[9] = 3
        #expect(throws: WireError(.invalidValue)) { try DevicePropDesc(ptpEncoded: bytes) }
        var badType = Self.enumerationDesc
        badType[2] = 0x0B
        #expect(throws: WireError(.invalidValue)) { try DevicePropDesc(ptpEncoded: badType) }
    }

    @Test func sonyExtInfoBelowVersion200HasNoControls() throws {
        let bytes = hexBytes("64 00  01 00 00 00 0d d2")
        let info = try SonyExtDeviceInfo(ptpEncoded: bytes)
        #expect(info.controls == nil)
        #expect(info.ptpEncoded == bytes)
    }

    @Test func hugeArrayCountsAreLimitErrors() {
        #expect(throws: WireError(.limitExceeded)) { try ObjectHandleArray(ptpEncoded: [0x01, 0x00, 0x10, 0x00]) }
    }
}
