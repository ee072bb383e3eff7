import PTP
import WireFormat

/// A small camera for the vendor session tests: strict about sessions and data phases, answering the Canon EOS,
/// Nikon, Sony and Fujifilm operations the drivers use with bytes made by the vendor encoders.
actor VendorResponder: PTPResponder {
    let deviceInfo: DeviceInfo
    private(set) var requests: [PTPRequest] = []
    private(set) var dataOut: [OperationCode: [[UInt8]]] = [:]
    private var sessionOpen = false

    // Canon EOS
    /// GetEvent replies still to send; an empty queue answers with the terminator alone.
    var canonEventReplies: [CanonEOSEventList] = []
    private(set) var canonProperties: [UInt32: [UInt8]] = [:]
    private var canonReleased = false

    // Nikon
    var nikonBusyInitiates = 0
    var nikonBusyReadies = 0
    var nikonEventReplies: [NikonEventList] = []
    var nikonEventExReplies: [NikonEventListEx] = []

    // Sony
    var sonyExtDeviceInfo: [UInt8] = []
    private(set) var sonyPresses: [SonyControl.Press] = []
    var sonyShotObjects = 0
    private var sonyPending = 0
    /// Property polls before a released shot shows in ObjectInMemory.
    var sonyPollsBeforeShot = 1

    // Fujifilm
    var fujifilmChanges = FujifilmPropertyChangeList([])

    /// Objects every vendor downloads from, by handle.
    var objects: [UInt32: [UInt8]] = [:]

    init(deviceInfo: DeviceInfo) { self.deviceInfo = deviceInfo }

    /// Runs `body` on the actor to set up the camera.
    func configure(_ body: @Sendable (isolated VendorResponder) -> Void) { body(self) }

    func expectsDataOut(_ request: PTPRequest) async -> Bool {
        [
            OperationCode.Canon.setDevicePropValueEx, OperationCode.Sony.setControlDeviceA,
            OperationCode.Sony.setControlDeviceB, .setDevicePropValue,
        ].contains(request.code)
    }

    func respond(to request: PTPRequest, dataOut: [UInt8]?) async -> PTPResponderReply {
        requests.append(request)
        if let dataOut { self.dataOut[request.code, default: []].append(dataOut) }
        let p = request.parameters
        switch request.code {
        case .getDeviceInfo:
            return .dataset(deviceInfo)
        case .openSession:
            sessionOpen = true
            return PTPResponderReply()
        default:
            break
        }
        guard sessionOpen else { return PTPResponderReply(.sessionNotOpen) }
        if deviceInfo.cameraVendor == .canon { return canon(request.code, p, dataOut) }
        if deviceInfo.cameraVendor == .nikon { return nikon(request.code, p) }
        if deviceInfo.cameraVendor == .sony { return sony(request.code, p, dataOut) }
        if deviceInfo.cameraVendor == .fujifilm { return fujifilm(request.code, p) }
        return PTPResponderReply(.operationNotSupported)
    }

    private func object(_ code: OperationCode, _ p: [UInt32]) -> PTPResponderReply? {
        guard code == .getObjectInfo || code == .getObject else { return nil }
        guard let handle = p.first, let bytes = objects[handle] else { return PTPResponderReply(.invalidObjectHandle) }
        if code == .getObjectInfo {
            return .dataset(
                ObjectInfo(objectFormat: .dng, objectCompressedSize: UInt32(bytes.count), filename: "X.ARW"))
        }
        return .data(bytes)
    }

    private func canon(_ code: OperationCode, _ p: [UInt32], _ dataOut: [UInt8]?) -> PTPResponderReply {
        if let reply = object(code, p) { return reply }
        switch code {
        case OperationCode.Canon.setRemoteMode, OperationCode.Canon.setEventMode, OperationCode.Canon.pcHDDCapacity:
            return PTPResponderReply(
                p.count == (code == OperationCode.Canon.pcHDDCapacity ? 3 : 1) ? .ok : .invalidParameter)
        case OperationCode.Canon.setDevicePropValueEx:
            guard let dataOut, let value = try? CanonEOSPropertyValue(ptpEncoded: dataOut) else {
                return PTPResponderReply(.invalidDevicePropFormat)
            }
            canonProperties[value.propertyCode] = value.value
            return PTPResponderReply()
        case OperationCode.Canon.remoteReleaseOn:
            // The camera refuses to shoot to the host until it knows where the shot goes.
            guard canonProperties[UInt32(CanonEOSCapture.captureDestinationProperty.rawValue)] == [4, 0, 0, 0] else {
                return PTPResponderReply(.generalError)
            }
            canonReleased = true
            return PTPResponderReply()
        case OperationCode.Canon.remoteReleaseOff:
            guard canonReleased else { return PTPResponderReply(.generalError) }
            return PTPResponderReply()
        case OperationCode.Canon.getEvent:
            return .dataset(canonEventReplies.isEmpty ? CanonEOSEventList([]) : canonEventReplies.removeFirst())
        case OperationCode.Canon.transferComplete:
            return PTPResponderReply(p.count == 1 ? .ok : .invalidParameter)
        default:
            return PTPResponderReply(.operationNotSupported)
        }
    }

    private func nikon(_ code: OperationCode, _ p: [UInt32]) -> PTPResponderReply {
        if let reply = object(code, p) { return reply }
        switch code {
        case OperationCode.Nikon.initiateCaptureRecInSdram:
            guard p == [0xFFFF_FFFF] || p == [0xFFFF_FFFE] else { return PTPResponderReply(.invalidParameter) }
            if nikonBusyInitiates > 0 {
                nikonBusyInitiates -= 1
                return PTPResponderReply(.deviceBusy)
            }
            return PTPResponderReply()
        case OperationCode.Nikon.deviceReady:
            if nikonBusyReadies > 0 {
                nikonBusyReadies -= 1
                return PTPResponderReply(.deviceBusy)
            }
            return PTPResponderReply()
        case OperationCode.Nikon.getEvent:
            return .dataset(nikonEventReplies.isEmpty ? NikonEventList([]) : nikonEventReplies.removeFirst())
        case OperationCode.Nikon.getEventEx:
            return .dataset(nikonEventExReplies.isEmpty ? NikonEventListEx([]) : nikonEventExReplies.removeFirst())
        default:
            return PTPResponderReply(.operationNotSupported)
        }
    }

    private func sony(_ code: OperationCode, _ p: [UInt32], _ dataOut: [UInt8]?) -> PTPResponderReply {
        if code == .getObject, p.first == SonyControl.capturedObjectHandle.rawValue {
            guard sonyPending > 0 else { return PTPResponderReply(.invalidObjectHandle) }
            sonyPending -= 1
        }
        if let reply = object(code, p) { return reply }
        switch code {
        case OperationCode.Sony.sdioConnect:
            guard p.count == 3, (1...3).contains(p[0]), p[1] == 0, p[2] == 0 else {
                return PTPResponderReply(.invalidParameter)
            }
            return .data(Array(repeating: 0, count: 8))
        case OperationCode.Sony.getSDIOExtDeviceInfo:
            return [[0x12C, 1], [0x12C], [0xC8, 1], [0xC8]].contains(p)
                ? .data(sonyExtDeviceInfo) : PTPResponderReply(.invalidParameter)
        case OperationCode.Sony.setControlDeviceB:
            guard let control = p.first, let dataOut, let value = try? PTPValue(ptpEncoded: dataOut, type: .uint16),
                case .uint16(let raw) = value
            else { return PTPResponderReply(.invalidDevicePropFormat) }
            let press = SonyControl.Press(
                control: DevicePropertyCode(rawValue: UInt16(truncatingIfNeeded: control)), value: raw)
            sonyPresses.append(press)
            if press == SonyControl.Press(control: SonyControl.fullPress, value: SonyControl.released) {
                sonyPending = -sonyPollsBeforeShot  // counts up to the shots with each poll
            }
            return PTPResponderReply()
        case OperationCode.Sony.getAllDevicePropData:
            if sonyPending < 0 {
                sonyPending += 1
                if sonyPending == 0 { sonyPending = sonyShotObjects }
            }
            let pending = UInt16(truncatingIfNeeded: max(0, sonyPending)) + (sonyPending > 0 ? 0x8000 : 0)
            return .dataset(
                SonyAllDevicePropData([
                    SonyDevicePropDesc(
                        propertyCode: DevicePropertyCode.Sony.iso, dataType: .uint32, factoryDefaultValue: .uint32(0),
                        currentValue: .uint32(100), form: .enumeration([.uint32(100), .uint32(200)])),
                    SonyDevicePropDesc(
                        propertyCode: SonyControl.pendingObjectsProperty, dataType: .uint16, getSet: 0,
                        factoryDefaultValue: .uint16(0), currentValue: .uint16(pending)),
                ]))
        default:
            return PTPResponderReply(.operationNotSupported)
        }
    }

    private func fujifilm(_ code: OperationCode, _ p: [UInt32]) -> PTPResponderReply {
        guard code == .getDevicePropValue, p == [UInt32(FujifilmCapture.changesProperty.rawValue)] else {
            return PTPResponderReply(.operationNotSupported)
        }
        return .dataset(fujifilmChanges)
    }
}

/// The session over an in-memory USB pipe to a ``VendorResponder``.
struct VendorStack {
    let responder: VendorResponder
    let pipe: InMemoryBulkPipe
    let session: PTPSession
    let running: Task<Void, Never>

    init(_ deviceInfo: DeviceInfo) {
        responder = VendorResponder(deviceInfo: deviceInfo)
        pipe = InMemoryBulkPipe()
        let device = USBDeviceSide(pipe: pipe, responder: responder)
        session = PTPSession(
            transport: PTPUSBTransport(
                pipe: pipe, configuration: .init(recoveryTimeout: .milliseconds(500), maxStatusPolls: 1000)),
            configuration: .init(timeout: .seconds(2)))
        running = Task { await device.run() }
    }

    func stop() async {
        running.cancel()
        await pipe.disconnect()
    }
}
