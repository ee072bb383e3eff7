import PTP
import PTPRecord

/// A Nikon D5500 shooting one JPEG into its memory with no card, as a Windows client drove a real D5500 in a USB
/// recording (USBPcap) that is kept outside the project. The conversation is rawcap's own fixture, built from the
/// facts that recording and libgphoto2 give:
///
/// - the client's order: OpenSession, GetDeviceInfo, GetVendorPropCodes (0x90CA), ChangeCameraMode(1) (0x90C2),
///   GetDevicePropDesc and GetDevicePropValue of FNumber and ExposureIndex, InitiateCaptureRecInSdram (0x90C0),
///   GetEvent (0x90C7) polled until ObjectAddedInSdram (0xC101) names 0x2B000001, DeviceReady (0x90C8),
///   GetObjectInfo, GetObject of the whole 1,325,002-byte JPEG; GetObjectHandles answered StoreNotAvailable;
/// - DeviceInfo's 22 properties and the 105 vendor properties, in order, and the FNumber and ExposureIndex
///   enumerations: libgphoto2 `camlibs/ptp2/cameras/nikon-d5500.txt` (commit 9628c0e3, a real D5500's summary);
/// - identity strings from the same summary (serial number replaced).
///
/// Not from a source: the operation and event lists (the summary decodes them only as capabilities; these follow
/// libgphoto2 `ptp.h` for a Nikon DSLR), the number of empty GetEvent polls, the current values, the ObjectInfo's
/// fields other than format, size and name, and the JPEG's bytes (a marker frame of the recorded size).
enum NikonD5500Session {
    static let jpegByteCount = 1_325_002
    static let shotHandle: UInt32 = 0x2B00_0001

    static let deviceInfoProperties: [UInt16] = [
        0x5001, 0x5003, 0x5004, 0x5005, 0x5007, 0x5008, 0x500A, 0x500B, 0x500C, 0x500D, 0x500E, 0x500F, 0x5010,
        0x5011, 0x5013, 0x5018, 0x501C, 0x501E, 0x501F, 0xD303, 0xD406, 0xD407,
    ]

    static let vendorProperties: [UInt16] = [
        0xD015, 0xD017, 0xD018, 0xD019, 0xD01A, 0xD01B, 0xD01C, 0xD01D, 0xD01F, 0xD025, 0xD026, 0xD032, 0xD036,
        0xD037, 0xD045, 0xD048, 0xD053, 0xD054, 0xD056, 0xD05D, 0xD061, 0xD066, 0xD06A, 0xD06B, 0xD06C, 0xD070,
        0xD072, 0xD073, 0xD078, 0xD08A, 0xD08D, 0xD08F, 0xD090, 0xD091, 0xD092, 0xD09C, 0xD0A0, 0xD0A2, 0xD0A4,
        0xD0A6, 0xD0A7, 0xD0A8, 0xD0AA, 0xD0AB, 0xD0B5, 0xD0C0, 0xD0C1, 0xD0C2, 0xD0C3, 0xD0C4, 0xD0C5, 0xD0C6,
        0xD0E0, 0xD0E1, 0xD0E2, 0xD0E3, 0xD0E4, 0xD0E5, 0xD0E6, 0xD0F7, 0xD0F8, 0xD0F9, 0xD100, 0xD101, 0xD102,
        0xD104, 0xD105, 0xD108, 0xD109, 0xD10B, 0xD10E, 0xD120, 0xD121, 0xD122, 0xD124, 0xD125, 0xD126, 0xD12D,
        0xD130, 0xD149, 0xD14E, 0xD14F, 0xD161, 0xD163, 0xD164, 0xD167, 0xD16A, 0xD183, 0xD1A2, 0xD1A3, 0xD1A4,
        0xD1AC, 0xD1B0, 0xD1B1, 0xD1B2, 0xD1B3, 0xD1B4, 0xD1B5, 0xD1C0, 0xD1C1, 0xD1F0, 0xD1F1, 0xD1F4, 0xD200,
        0xD201,
    ]

    static var deviceInfo: DeviceInfo {
        let standard: [UInt16] = [
            0x1001, 0x1002, 0x1003, 0x1004, 0x1005, 0x1006, 0x1007, 0x1008, 0x1009, 0x100A, 0x100B, 0x100C, 0x100D,
            0x100E, 0x100F, 0x1014, 0x1015, 0x1016, 0x101B,
        ]
        let nikon: [UInt16] = [
            0x90C0, 0x90C1, 0x90C2, 0x90C3, 0x90C4, 0x90C7, 0x90C8, 0x90CA, 0x90CB, 0x9201, 0x9202, 0x9203, 0x9204,
            0x9205, 0x9206, 0x9207, 0x920C,
        ]
        return DeviceInfo(
            standardVersion: 100, vendorExtensionID: VendorExtensionID(rawValue: 0xA), vendorExtensionVersion: 100,
            vendorExtensionDesc: "Microsoft.com/DeviceServices: 1.0", functionalMode: 0,
            operationsSupported: (standard + nikon).map(OperationCode.init(rawValue:)),
            eventsSupported: [0x4001, 0x4002, 0x4004, 0x4005, 0x4006, 0x4008, 0x400C, 0x400D, 0xC101, 0xC102, 0xC104]
                .map(EventCode.init(rawValue:)),
            devicePropertiesSupported: deviceInfoProperties.map(DevicePropertyCode.init(rawValue:)),
            captureFormats: [.exifJPEG, .undefined],
            imageFormats: [.exifJPEG, .undefined, .association, ObjectFormatCode(rawValue: 0x3007)],
            manufacturer: "Nikon Corporation", model: "D5500", deviceVersion: "V1.00",
            serialNumber: "00000000000000000000000003000001")
    }

    /// The JPEG the camera sent: SOI, a comment segment, filler, EOI, 1,325,002 bytes in all.
    static var jpeg: [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xFE, 0x00, 0x0E] + Array("rawcap D5500".utf8)
        var state: UInt32 = 0x2B00_0001
        while bytes.count < jpegByteCount - 2 {
            state = state &* 1_664_525 &+ 1_013_904_223
            bytes.append(UInt8(truncatingIfNeeded: state >> 24) & 0x7F)
        }
        return bytes + [0xFF, 0xD9]
    }

    static var objectInfo: ObjectInfo {
        ObjectInfo(
            storageID: StorageID(rawValue: 0), objectFormat: .exifJPEG, objectCompressedSize: UInt32(jpegByteCount),
            imagePixWidth: 6000, imagePixHeight: 4000, imageBitDepth: 24, filename: "DSC_0001.JPG",
            captureDate: "20151012T101010")
    }

    /// The recorded session, in the client's order. `emptyPolls` GetEvent answers with no event come before the one
    /// naming the shot.
    static func conversation(emptyPolls: Int = 3) -> PTPConversation {
        var transactions: [PTPConversation.Transaction] = []
        var id: UInt32 = 0
        func add(_ code: UInt16, _ parameters: [UInt32] = [], dataIn: [UInt8]? = nil, response: ResponseCode = .ok) {
            let request = PTPRequest(code: OperationCode(rawValue: code), transactionID: id, parameters: parameters)
            transactions.append(
                .init(
                    request: request, dataIn: dataIn,
                    response: PTPResponse(code: response, transactionID: id, parameters: [])))
            id += 1
        }
        func u16Array(_ values: [UInt16]) -> [UInt8] {
            var bytes = withUnsafeBytes(of: UInt32(values.count).littleEndian, Array.init)
            for value in values { bytes += withUnsafeBytes(of: value.littleEndian, Array.init) }
            return bytes
        }
        add(0x1002, [1])
        add(0x1001, dataIn: deviceInfo.ptpEncoded)
        add(0x90CA, dataIn: u16Array(vendorProperties))
        add(0x1007, [0xFFFF_FFFF, 0, 0], response: .storeNotAvailable)
        add(0x90C2, [1])
        let fNumbers: [UInt16] = [
            350, 400, 450, 500, 560, 630, 710, 800, 900, 1000, 1100, 1300, 1400, 1600, 1800, 2000, 2200,
        ]
        let isos: [UInt16] = [
            100, 125, 160, 200, 250, 320, 400, 500, 640, 800, 1000, 1250, 1600, 2000, 2500, 3200, 4000, 5000, 6400,
            8000, 10000, 12800, 16000, 20000, 25600,
        ]
        for (code, values, current) in [(UInt16(0x5007), fNumbers, UInt16(800)), (0x500F, isos, 400)] {
            let descriptor = DevicePropDesc(
                propertyCode: DevicePropertyCode(rawValue: code), dataType: .uint16, factoryDefaultValue: .uint16(current),
                currentValue: .uint16(current), form: .enumeration(values.map { .uint16($0) }))
            add(0x1014, [UInt32(code)], dataIn: descriptor.ptpEncoded)
            add(0x1015, [UInt32(code)], dataIn: PTPValue.uint16(current).ptpEncoded)
        }
        add(0x90C0, [0xFFFF_FFFF])
        for _ in 0..<emptyPolls { add(0x90C7, dataIn: NikonEventList([]).ptpEncoded) }
        add(0x90C7, dataIn: NikonEventList([.init(code: EventCode(rawValue: 0xC101), parameter: shotHandle)]).ptpEncoded)
        add(0x90C8)
        add(0x1008, [shotHandle], dataIn: objectInfo.ptpEncoded)
        add(0x1009, [shotHandle], dataIn: jpeg)
        add(0x1003)
        return PTPConversation(transport: .usb, transactions: transactions, responderName: "Nikon D5500")
    }
}
