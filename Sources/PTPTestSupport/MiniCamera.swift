import PTP

/// A minimal PTP camera for tests of the transports, the recorder and the replayer: one card with one small
/// JPEG-like picture, one settable property (ISO), and InitiateCapture that adds a picture and sends
/// ObjectAdded and CaptureComplete. It checks sessions and transaction IDs (OpenSession with ID 0 first, then
/// 1, 2, …) like a strict camera, and answers what it does not know with OperationNotSupported.
///
/// It is enough for gphoto2's `--summary`, `--list-files` and `--get-all-files`; the full emulated camera lives in
/// `CameraEmulator`.
public actor MiniCamera: PTPResponder {
    /// The one storage's ID.
    public static let storageID = StorageID(rawValue: 0x0001_0001)
    /// The handle of the picture that is on the card from the start.
    public static let firstHandle = ObjectHandle(rawValue: 0x0000_0101)

    /// DeviceInfo, as GetDeviceInfo returns it.
    public let deviceInfo: DeviceInfo
    /// Every request received, in order.
    public private(set) var requests: [PTPRequest] = []
    /// The host data phase of the last request that had one.
    public private(set) var lastDataOut: [UInt8]?
    /// The open session's ID.
    public private(set) var sessionID: UInt32?
    /// The current ISO (ExposureIndex, 0x500F).
    public private(set) var iso: UInt16 = 200
    /// Pictures on the card by handle.
    public private(set) var objects: [UInt32: (info: ObjectInfo, bytes: [UInt8])] = [:]

    private var expectedTransactionID: UInt32 = 0
    private var nextHandle: UInt32 = MiniCamera.firstHandle.rawValue
    private var pendingCaptureCompletion: UInt32?
    /// Events the camera sends on its own.
    public nonisolated let events: AsyncStream<PTPEvent>
    private let eventContinuation: AsyncStream<PTPEvent>.Continuation

    /// Creates the camera with `pictureByteCount` bytes of JPEG-like data in its first picture.
    public init(model: String = "MiniCam 1", pictureByteCount: Int = 3000) {
        deviceInfo = DeviceInfo(
            standardVersion: 100, vendorExtensionID: VendorExtensionID(rawValue: 0), vendorExtensionVersion: 0,
            vendorExtensionDesc: "", functionalMode: 0,
            operationsSupported: [
                .getDeviceInfo, .openSession, .closeSession, .getStorageIDs, .getStorageInfo, .getNumObjects,
                .getObjectHandles, .getObjectInfo, .getObject, .getPartialObject, .getDevicePropDesc,
                .getDevicePropValue, .setDevicePropValue, .initiateCapture,
            ],
            eventsSupported: [.objectAdded, .captureComplete], devicePropertiesSupported: [.exposureIndex],
            captureFormats: [.exifJPEG], imageFormats: [.exifJPEG], manufacturer: "rawcap tests", model: model,
            deviceVersion: "1.0", serialNumber: "MINI0001")
        (events, eventContinuation) = AsyncStream.makeStream(of: PTPEvent.self)
        objects[Self.firstHandle.rawValue] = Self.picture(
            handle: Self.firstHandle.rawValue, byteCount: pictureByteCount, name: "IMG_0001.JPG")
        nextHandle = Self.firstHandle.rawValue + 1
    }

    /// JPEG-like bytes: SOI, an APP0 marker, a deterministic body, EOI.
    public static func pictureBytes(byteCount: Int, seed: UInt32 = 1) -> [UInt8] {
        let count = max(byteCount, 8)
        var bytes = [UInt8](repeating: 0, count: count)
        bytes[0...3] = [0xFF, 0xD8, 0xFF, 0xE0]
        var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        var index = 4
        while index < count - 2 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            var word = state
            for _ in 0..<8 where index < count - 2 {
                bytes[index] = UInt8(truncatingIfNeeded: word) & 0xFE  // never 0xFF: no false markers
                word >>= 8
                index += 1
            }
        }
        bytes[count - 2] = 0xFF
        bytes[count - 1] = 0xD9
        return bytes
    }

    /// `IMG_0258.JPG` for handle 0x102: a DCF-style name from a handle.
    static func fileName(_ handle: UInt32) -> String {
        let digits = "\(handle % 10000)"
        return "IMG_" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + ".JPG"
    }

    /// The ExposureIndex property's description.
    public var isoDescription: DevicePropDesc {
        DevicePropDesc(
            propertyCode: .exposureIndex, dataType: .uint16, getSet: 1, factoryDefaultValue: .uint16(200),
            currentValue: .uint16(iso), form: .enumeration([.uint16(100), .uint16(200), .uint16(400), .uint16(800)]))
    }

    /// Sends an event now.
    public func emit(_ event: PTPEvent) { eventContinuation.yield(event) }

    private static func picture(handle: UInt32, byteCount: Int, name: String) -> (ObjectInfo, [UInt8]) {
        let bytes = pictureBytes(byteCount: byteCount, seed: handle)
        let info = ObjectInfo(
            storageID: storageID, objectFormat: .exifJPEG, objectCompressedSize: UInt32(bytes.count),
            imagePixWidth: 640, imagePixHeight: 480, imageBitDepth: 24, parentObject: ObjectHandle(rawValue: 0),
            filename: name, captureDate: "20240101T120000", modificationDate: "20240101T120000")
        return (info, bytes)
    }

    // MARK: PTPResponder

    /// Handles one operation.
    public func respond(to request: PTPRequest, dataOut: [UInt8]?) async -> PTPResponderReply {
        requests.append(request)
        if dataOut != nil { lastDataOut = dataOut }
        let reply = handle(request, dataOut: dataOut)
        if let transaction = pendingCaptureCompletion {
            pendingCaptureCompletion = nil
            eventContinuation.yield(PTPEvent(code: .captureComplete, transactionID: transaction))
        }
        return reply
    }

    private func handle(_ request: PTPRequest, dataOut: [UInt8]?) -> PTPResponderReply {
        let parameters = request.parameters
        func parameter(_ index: Int) -> UInt32 { index < parameters.count ? parameters[index] : 0 }
        switch request.code {
        case .getDeviceInfo where sessionID == nil:
            // Legal outside a session (PTP notes §2.4).
            return .dataset(deviceInfo)
        case .openSession:
            guard request.transactionID == 0 else { return PTPResponderReply(.invalidTransactionID) }
            guard parameter(0) != 0 else { return PTPResponderReply(.invalidParameter) }
            if let sessionID { return PTPResponderReply(.sessionAlreadyOpened, parameters: [sessionID]) }
            sessionID = parameter(0)
            expectedTransactionID = 1
            return PTPResponderReply()
        default:
            break
        }
        guard sessionID != nil else { return PTPResponderReply(.sessionNotOpen) }
        guard request.transactionID == expectedTransactionID else { return PTPResponderReply(.invalidTransactionID) }
        expectedTransactionID = request.transactionID == 0xFFFF_FFFE ? 1 : request.transactionID + 1

        switch request.code {
        case .getDeviceInfo:
            return .dataset(deviceInfo)
        case .closeSession:
            sessionID = nil
            return PTPResponderReply()
        case .getStorageIDs:
            return .dataset(StorageIDArray([Self.storageID]))
        case .getStorageInfo:
            guard parameter(0) == Self.storageID.rawValue else { return PTPResponderReply(.invalidStorageID) }
            return .dataset(
                StorageInfo(
                    storageType: .removableRAM, filesystemType: .dcf, accessCapability: .readWrite,
                    maxCapacity: 32 << 30, freeSpaceInBytes: 16 << 30, freeSpaceInImages: 4000,
                    storageDescription: "SD", volumeLabel: "MINICAM"))
        case .getNumObjects:
            return PTPResponderReply(parameters: [UInt32(objects.count)])
        case .getObjectHandles:
            let storage = parameter(0)
            guard storage == 0xFFFF_FFFF || storage == Self.storageID.rawValue else {
                return PTPResponderReply(.invalidStorageID)
            }
            let parent = parameter(2)
            let handles = parent == 0 || parent == 0xFFFF_FFFF ? objects.keys.sorted() : []
            return .dataset(ObjectHandleArray(handles.map(ObjectHandle.init(rawValue:))))
        case .getObjectInfo:
            guard let object = objects[parameter(0)] else { return PTPResponderReply(.invalidObjectHandle) }
            return .dataset(object.info)
        case .getObject:
            guard let object = objects[parameter(0)] else { return PTPResponderReply(.invalidObjectHandle) }
            return .data(object.bytes)
        case .getPartialObject:
            guard let object = objects[parameter(0)] else { return PTPResponderReply(.invalidObjectHandle) }
            let start = min(Int(parameter(1)), object.bytes.count)
            let end = min(object.bytes.count, start + Int(min(parameter(2), UInt32(Int32.max))))
            return .data(Array(object.bytes[start..<end]), parameters: [UInt32(end - start)])
        case .getDevicePropDesc:
            guard parameter(0) == UInt32(DevicePropertyCode.exposureIndex.rawValue) else {
                return PTPResponderReply(.devicePropNotSupported)
            }
            return .dataset(isoDescription)
        case .getDevicePropValue:
            guard parameter(0) == UInt32(DevicePropertyCode.exposureIndex.rawValue) else {
                return PTPResponderReply(.devicePropNotSupported)
            }
            return .data(PTPValue.uint16(iso).ptpEncoded)
        case .setDevicePropValue:
            guard parameter(0) == UInt32(DevicePropertyCode.exposureIndex.rawValue) else {
                return PTPResponderReply(.devicePropNotSupported)
            }
            guard let dataOut, case .uint16(let value)? = try? PTPValue(ptpEncoded: dataOut, type: .uint16),
                [100, 200, 400, 800].contains(value)
            else { return PTPResponderReply(.invalidDevicePropValue) }
            iso = value
            return PTPResponderReply()
        case .initiateCapture:
            let handle = ObjectHandle(rawValue: nextHandle)
            nextHandle += 1
            objects[handle.rawValue] = Self.picture(
                handle: handle.rawValue, byteCount: 2000, name: Self.fileName(handle.rawValue))
            // The camera answers at once and reports the picture by events (PTP notes §3.3 item 5).
            eventContinuation.yield(
                PTPEvent(code: .objectAdded, transactionID: request.transactionID, parameters: [handle.rawValue]))
            pendingCaptureCompletion = request.transactionID
            return PTPResponderReply()
        default:
            return PTPResponderReply(.operationNotSupported)
        }
    }
}
