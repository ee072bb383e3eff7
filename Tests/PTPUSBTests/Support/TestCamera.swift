import FakeUSB
import PTP
import WireFormat

/// A minimal, strict PTP responder for the libusb tests: DeviceInfo, sessions with transaction IDs checked, one
/// store, objects of chosen sizes, two properties (a third the camera refuses), and events on demand. The real
/// emulated camera (CameraEmulator) plugs into the same ``FakeUSBCamera`` seam.
actor TestCamera: PTPResponder {
    static let storage = StorageID(rawValue: 0x0001_0001)

    var deviceInfo: DeviceInfo
    private(set) var requests: [PTPRequest] = []
    private(set) var lastDataOut: [UInt8]?
    /// Whether every request was answered on the fake cameras' own queue, off Swift's cooperative pool.
    private(set) var answeredOffThePool = true
    private var sessionID: UInt32?
    private var expectedTransactionID: UInt32 = 0
    private var objects: [UInt32: [UInt8]] = [:]
    private var nextHandle: UInt32 = 0x100
    nonisolated let events: AsyncStream<PTPEvent>
    private let eventContinuation: AsyncStream<PTPEvent>.Continuation

    static let properties: [DevicePropertyCode: DevicePropDesc] = [
        .batteryLevel: DevicePropDesc(
            propertyCode: .batteryLevel, dataType: .uint8, getSet: 0, factoryDefaultValue: .uint8(100),
            currentValue: .uint8(75), form: .range(minimum: .uint8(0), maximum: .uint8(100), step: .uint8(25))),
        .exposureIndex: DevicePropDesc(
            propertyCode: .exposureIndex, dataType: .uint16, factoryDefaultValue: .uint16(100),
            currentValue: .uint16(400), form: .enumeration([.uint16(100), .uint16(200), .uint16(400), .uint16(800)])),
    ]

    init(serialNumber: String = "0001") {
        deviceInfo = DeviceInfo(
            standardVersion: 110, vendorExtensionID: .microsoft, vendorExtensionVersion: 100,
            vendorExtensionDesc: "microsoft.com: 1.0",
            operationsSupported: [
                .getDeviceInfo, .openSession, .closeSession, .getStorageIDs, .getStorageInfo, .getObject,
                .getDevicePropDesc, .setDevicePropValue,
            ],
            eventsSupported: [.objectAdded, .captureComplete],
            devicePropertiesSupported: [.batteryLevel, .exposureIndex, .fNumber],
            captureFormats: [.exifJPEG], imageFormats: [.exifJPEG, .dng],
            manufacturer: "rawcap", model: "Test Camera", deviceVersion: "1.0", serialNumber: serialNumber)
        (events, eventContinuation) = AsyncStream.makeStream(of: PTPEvent.self)
    }

    /// Adds an object whose bytes are `count` bytes of a pattern; returns its handle.
    func addObject(byteCount count: Int) -> ObjectHandle {
        nextHandle += 1
        objects[nextHandle] = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }
        return ObjectHandle(rawValue: nextHandle)
    }

    func object(_ handle: ObjectHandle) -> [UInt8]? { objects[handle.rawValue] }

    func emit(_ event: PTPEvent) { eventContinuation.yield(event) }

    func respond(to request: PTPRequest, dataOut: [UInt8]?) async -> PTPResponderReply {
        requests.append(request)
        if !FakeUSBExecutor.isCurrent { answeredOffThePool = false }
        if let dataOut { lastDataOut = dataOut }
        let parameter = { (index: Int) -> UInt32 in index < request.parameters.count ? request.parameters[index] : 0 }
        switch request.code {
        case .getDeviceInfo where sessionID == nil:
            // Legal outside a session, with transaction ID 0; inside one it takes the next ID like any operation.
            return .dataset(deviceInfo)
        case .openSession:
            guard request.transactionID == 0 else { return PTPResponderReply(.invalidTransactionID) }
            guard parameter(0) != 0 else { return PTPResponderReply(.invalidParameter) }
            if sessionID != nil { return PTPResponderReply(.sessionAlreadyOpened) }
            sessionID = parameter(0)
            expectedTransactionID = 1
            return PTPResponderReply()
        default:
            break
        }
        guard sessionID != nil else { return PTPResponderReply(.sessionNotOpen) }
        guard request.transactionID == expectedTransactionID else { return PTPResponderReply(.invalidTransactionID) }
        expectedTransactionID = request.transactionID + 1
        switch request.code {
        case .getDeviceInfo:
            return .dataset(deviceInfo)
        case .closeSession:
            sessionID = nil
            return PTPResponderReply()
        case .getStorageIDs:
            return .dataset(StorageIDArray([Self.storage]))
        case .getStorageInfo:
            guard parameter(0) == Self.storage.rawValue else { return PTPResponderReply(.invalidStorageID) }
            return .dataset(
                StorageInfo(
                    storageType: .removableRAM, filesystemType: .dcf, accessCapability: .readWrite,
                    maxCapacity: 64_000_000_000, freeSpaceInBytes: 12_500_000_000, freeSpaceInImages: 0xFFFF_FFFF,
                    storageDescription: "SD", volumeLabel: "EOS_DIGITAL"))
        case .getObject:
            guard let bytes = objects[parameter(0)] else { return PTPResponderReply(.invalidObjectHandle) }
            return .data(bytes)
        case .getDevicePropDesc:
            guard let desc = Self.properties[DevicePropertyCode(rawValue: UInt16(truncatingIfNeeded: parameter(0)))]
            else { return PTPResponderReply(.devicePropNotSupported) }
            return .dataset(desc)
        case .setDevicePropValue:
            return PTPResponderReply(dataOut == nil ? .invalidDevicePropValue : .ok)
        default:
            return PTPResponderReply(.operationNotSupported)
        }
    }
}
