import PTP
import Synchronization
import WireFormat

/// A small, strict PTP responder for tests: sessions and transaction IDs checked, a few stores, objects and
/// properties, InitiateCapture that adds an object and sends events. The real emulated camera lives in
/// `CameraEmulator`; this one only has to be right about what the tests exercise.
actor TestResponder: PTPResponder {
    struct StoredObject {
        var info: ObjectInfo
        var data: any PTPDataSource
        var thumb: [UInt8]?
    }

    var deviceInfo: DeviceInfo
    var storages: [StorageID: StorageInfo] = [
        StorageID(rawValue: 0x0001_0001): StorageInfo(
            maxCapacity: 1 << 34, freeSpaceInBytes: 1 << 33, storageDescription: "SD", volumeLabel: "CARD")
    ]
    var objects: [UInt32: StoredObject] = [:]
    var properties: [DevicePropertyCode: DevicePropDesc] = [:]
    /// Replies that replace the normal handling of an operation, used once each.
    var scripted: [OperationCode: [PTPResponderReply]] = [:]
    private(set) var requests: [PTPRequest] = []
    private(set) var lastDataOut: [UInt8]?
    private(set) var sessionID: UInt32?
    private var expectedTransactionID: UInt32 = 0
    private(set) var cancelledTransactions: [UInt32?] = []
    private var nextHandle: UInt32 = 0x100
    nonisolated let events: AsyncStream<PTPEvent>
    private let eventContinuation: AsyncStream<PTPEvent>.Continuation

    init(deviceInfo: DeviceInfo = TestResponder.defaultDeviceInfo) {
        self.deviceInfo = deviceInfo
        (events, eventContinuation) = AsyncStream.makeStream(of: PTPEvent.self)
    }

    static let defaultDeviceInfo = DeviceInfo(
        standardVersion: 110, vendorExtensionID: .microsoft, vendorExtensionVersion: 100,
        vendorExtensionDesc: "microsoft.com: 1.0", operationsSupported: [.getDeviceInfo, .openSession, .closeSession],
        eventsSupported: [.objectAdded, .captureComplete], manufacturer: "rawcap", model: "Test Camera",
        deviceVersion: "1.0", serialNumber: "0001")

    func add(_ info: ObjectInfo, data: any PTPDataSource, thumb: [UInt8]? = nil) -> ObjectHandle {
        nextHandle += 1
        objects[nextHandle] = StoredObject(info: info, data: data, thumb: thumb)
        return ObjectHandle(rawValue: nextHandle)
    }

    func setProperty(_ desc: DevicePropDesc) { properties[desc.propertyCode] = desc }

    func script(_ code: OperationCode, _ reply: PTPResponderReply) { scripted[code, default: []].append(reply) }

    func emit(_ event: PTPEvent) { eventContinuation.yield(event) }

    /// Forgets the open session, as a camera does when its USB connection is re-established.
    func forgetSession() { sessionID = nil }

    func transactionCancelled(_ transactionID: UInt32?) async {
        cancelledTransactions.append(transactionID)
        // A transaction the device abandoned before answering still used up its ID.
        if let transactionID, sessionID != nil, transactionID == expectedTransactionID {
            expectedTransactionID = transactionID + 1
        }
    }

    func respond(to request: PTPRequest, dataOut: [UInt8]?) async -> PTPResponderReply {
        requests.append(request)
        lastDataOut = dataOut
        if var replies = scripted[request.code], !replies.isEmpty {
            let reply = replies.removeFirst()
            scripted[request.code] = replies
            if sessionID != nil { expectedTransactionID = request.transactionID &+ 1 }
            return reply
        }
        let p = request.parameters
        func parameter(_ index: Int) -> UInt32 { index < p.count ? p[index] : 0 }

        switch request.code {
        case .getDeviceInfo:
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
        expectedTransactionID = request.transactionID == 0xFFFF_FFFE ? 1 : request.transactionID + 1

        switch request.code {
        case .closeSession:
            sessionID = nil
            return PTPResponderReply()
        case .getStorageIDs:
            return .dataset(StorageIDArray(storages.keys.sorted { $0.rawValue < $1.rawValue }))
        case .getStorageInfo:
            guard let info = storages[StorageID(rawValue: parameter(0))] else {
                return PTPResponderReply(.invalidStorageID)
            }
            return .dataset(info)
        case .getNumObjects:
            return PTPResponderReply(parameters: [UInt32(matching(p).count)])
        case .getObjectHandles:
            return .dataset(ObjectHandleArray(matching(p).map(ObjectHandle.init(rawValue:))))
        case .getObjectInfo:
            guard let object = objects[parameter(0)] else { return PTPResponderReply(.invalidObjectHandle) }
            return .dataset(object.info)
        case .getObject:
            guard let object = objects[parameter(0)] else { return PTPResponderReply(.invalidObjectHandle) }
            return PTPResponderReply(dataIn: object.data)
        case .getThumb:
            guard let object = objects[parameter(0)] else { return PTPResponderReply(.invalidObjectHandle) }
            guard let thumb = object.thumb else { return PTPResponderReply(.noThumbnailPresent) }
            return .data(thumb)
        case .getPartialObject:
            guard let object = objects[parameter(0)] else { return PTPResponderReply(.invalidObjectHandle) }
            let offset = UInt64(parameter(1))
            guard offset <= object.data.byteCount else { return PTPResponderReply(.invalidParameter) }
            let count = min(UInt64(parameter(2)), object.data.byteCount - offset)
            return PTPResponderReply(
                parameters: [UInt32(count)], dataIn: SliceSource(base: object.data, offset: offset, byteCount: count))
        case .sendObject:
            return dataOut == nil ? PTPResponderReply(.incompleteTransfer) : PTPResponderReply()
        case .deleteObject:
            guard objects.removeValue(forKey: parameter(0)) != nil else {
                return PTPResponderReply(.invalidObjectHandle)
            }
            return PTPResponderReply()
        case .initiateCapture:
            let data = PatternSource(byteCount: 3000)
            let handle = add(
                ObjectInfo(
                    storageID: StorageID(rawValue: 0x0001_0001), objectFormat: .dng, objectCompressedSize: 3000,
                    filename: "CAP_\(nextHandle + 1).DNG"), data: data)
            eventContinuation.yield(
                PTPEvent(code: .objectAdded, transactionID: request.transactionID, parameters: [handle.rawValue]))
            eventContinuation.yield(
                PTPEvent(
                    code: .captureComplete, transactionID: request.transactionID, parameters: [request.transactionID]))
            return PTPResponderReply()
        case .getDevicePropDesc:
            guard let desc = properties[DevicePropertyCode(rawValue: UInt16(truncatingIfNeeded: parameter(0)))] else {
                return PTPResponderReply(.devicePropNotSupported)
            }
            return .dataset(desc)
        case .getDevicePropValue:
            guard let desc = properties[DevicePropertyCode(rawValue: UInt16(truncatingIfNeeded: parameter(0)))] else {
                return PTPResponderReply(.devicePropNotSupported)
            }
            return .data(desc.currentValue.ptpEncoded)
        case .setDevicePropValue:
            let code = DevicePropertyCode(rawValue: UInt16(truncatingIfNeeded: parameter(0)))
            guard var desc = properties[code] else { return PTPResponderReply(.devicePropNotSupported) }
            guard desc.isSettable else { return PTPResponderReply(.accessDenied) }
            guard let dataOut, let value = try? PTPValue(ptpEncoded: dataOut, type: desc.dataType) else {
                return PTPResponderReply(.invalidDevicePropFormat)
            }
            desc.currentValue = value
            properties[code] = desc
            return PTPResponderReply()
        default:
            return PTPResponderReply(.operationNotSupported)
        }
    }

    private func matching(_ p: [UInt32]) -> [UInt32] {
        let storage = p.first ?? 0xFFFF_FFFF
        let format = p.count > 1 ? p[1] : 0
        return objects.keys.sorted().filter { handle in
            guard let info = objects[handle]?.info else { return false }
            return (storage == 0xFFFF_FFFF || info.storageID.rawValue == storage)
                && (format == 0 || UInt32(info.objectFormat.rawValue) == format)
        }
    }
}

/// Bytes whose value depends on their offset: `i * 7 + 3`, so a lost, doubled or shifted byte shows.
struct PatternSource: PTPDataSource {
    let byteCount: UInt64

    static func byte(at offset: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: offset &* 7 &+ 3) }

    static func bytes(_ range: Range<Int>) -> [UInt8] { range.map { byte(at: UInt64($0)) } }

    func read(at offset: UInt64, maxByteCount: Int) async throws -> [UInt8] {
        let count = Int(min(UInt64(maxByteCount), byteCount - offset))
        return (0..<count).map { Self.byte(at: offset + UInt64($0)) }
    }
}

/// A large object made of 4 KiB blocks of one value each: cheap to make and to check in debug builds.
struct BlockPatternSource: PTPDataSource {
    let byteCount: UInt64
    /// Counts the bytes handed out, so a test can see how much is in flight between the source and the sink.
    var produced: ByteCounter?

    static func value(at offset: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: (offset >> 12) ^ (offset >> 20) ^ 0x5A) }

    func read(at offset: UInt64, maxByteCount: Int) async throws -> [UInt8] {
        let count = Int(min(UInt64(maxByteCount), byteCount - offset))
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBufferPointer { buffer in
            var position = 0
            while position < count {
                let absolute = offset + UInt64(position)
                let blockEnd = min(count, position + Int(((absolute | 0xFFF) + 1) - absolute))
                UnsafeMutableBufferPointer(rebasing: buffer[position..<blockEnd]).update(
                    repeating: Self.value(at: absolute))
                position = blockEnd
            }
        }
        produced?.add(count)
        return bytes
    }
}

/// A thread-safe byte count shared between a source and a test.
final class ByteCounter: Sendable {
    private let total = Atomic<UInt64>(0)
    func add(_ count: Int) { total.add(UInt64(count), ordering: .relaxed) }
    var value: UInt64 { total.load(ordering: .relaxed) }
}

/// A window onto another source (GetPartialObject's answer).
struct SliceSource: PTPDataSource {
    let base: any PTPDataSource
    let offset: UInt64
    let byteCount: UInt64

    func read(at position: UInt64, maxByteCount: Int) async throws -> [UInt8] {
        try await base.read(at: offset + position, maxByteCount: Int(min(UInt64(maxByteCount), byteCount - position)))
    }
}
