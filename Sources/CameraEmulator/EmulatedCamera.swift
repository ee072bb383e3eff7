import PTP
import RawImage
import SceneSynthesis

/// rawcap's built-in camera: a strict PTP responder with a synthetic sensor.
///
/// It behaves like a raw-capable camera with one memory card and its own memory: DeviceInfo, stores and objects,
/// device properties with real descriptors (ISO, shutter, aperture, white balance, exposure bias, image quality,
/// raw bit depth, capture target, battery, date and time), and InitiateCapture, which answers at once and then
/// photographs ``RawImage/SyntheticScene`` through the current settings in the background, stores a TIFF/EP raw file
/// (and with RAW+JPEG a JPEG of the same shot), and announces them with ObjectAdded and CaptureComplete events.
///
/// It is stricter than real cameras, so host bugs show: operations outside a session answer SessionNotOpen, a
/// wrong transaction ID InvalidTransactionID, a missing or unexpected data phase InvalidDataset, a property value
/// outside its description InvalidDevicePropValue, unknown handles and stores InvalidObjectHandle and
/// InvalidStorageID. Every operation is recorded in ``transcript``. ``EmulatorFault``s make it misbehave on
/// purpose.
///
/// Serve it over USB with ``PTP/USBDeviceSide`` or over PTP/IP with ``PTP/PTPIPDeviceSide`` (``EmulatorLink`` wires
/// either up in memory):
///
/// ```swift
/// let camera = try EmulatedCamera(configuration: .init(sensorWidth: 96, sensorHeight: 64))
/// let link = EmulatorLink.usb(camera)
/// let session = PTPSession(transport: link.transport)
/// try await session.openSession()
/// try await session.initiateCapture()
/// ```
public actor EmulatedCamera: PTPResponder {
    /// How this camera is built: sensor, stores, scene, faults and test hooks.
    public struct Configuration: Sendable {
        /// Sensor columns (masked margin included); `nil` takes the model's.
        public var sensorWidth: Int?
        /// Sensor rows (masked margin included); `nil` takes the model's.
        public var sensorHeight: Int?
        /// The card's capacity in bytes. The card lives in memory, so this bounds what the camera holds.
        public var cardCapacity: UInt64
        /// The camera memory's capacity in bytes (the capture target "camera memory").
        public var memoryCapacity: UInt64
        /// Faults to commit.
        public var faults: [EmulatorFault]
        /// Selects the sensor noise; shot `n` uses `seed + n`, so a run is reproducible.
        public var seed: UInt64
        /// The light on the scene.
        public var illuminant: SceneIlluminant
        /// The sensor's noise model.
        public var sensor: SensorModel
        /// The camera clock's start, or `nil` for the host's local time.
        public var clockStart: PTPDateTime?
        /// Called with every frame the sensor renders, before it is encoded (tests compare it with what the host
        /// downloads); `nil` for none.
        public var renderedFrameHandler: (@Sendable (RawFrame) -> Void)?
        /// Most entries kept in ``EmulatedCamera/transcript`` (the oldest go first), so a long-running server stays
        /// bounded.
        public var transcriptLimit: Int
        /// The order of a shot's ObjectAdded and CaptureComplete events.
        public var eventOrder: CaptureEventOrder

        /// Creates a configuration.
        public init(
            sensorWidth: Int? = nil, sensorHeight: Int? = nil, cardCapacity: UInt64 = 2 << 30,
            memoryCapacity: UInt64 = 512 << 20, faults: [EmulatorFault] = [], seed: UInt64 = 0,
            illuminant: SceneIlluminant = .d65, sensor: SensorModel = .typical, clockStart: PTPDateTime? = nil,
            renderedFrameHandler: (@Sendable (RawFrame) -> Void)? = nil, transcriptLimit: Int = 10_000,
            eventOrder: CaptureEventOrder = .standard
        ) {
            self.sensorWidth = sensorWidth
            self.sensorHeight = sensorHeight
            self.cardCapacity = cardCapacity
            self.memoryCapacity = memoryCapacity
            self.faults = faults
            self.seed = seed
            self.illuminant = illuminant
            self.sensor = sensor
            self.clockStart = clockStart
            self.renderedFrameHandler = renderedFrameHandler
            self.transcriptLimit = max(1, transcriptLimit)
            self.eventOrder = eventOrder
        }
    }

    /// The card: removable RAM with a DCF file system.
    public static let cardStorageID = StorageID(rawValue: 0x0001_0001)
    /// The camera's own memory: fixed RAM, flat.
    public static let memoryStorageID = StorageID(rawValue: 0x0002_0001)
    /// The Software tag of the raw files.
    public static let software = "rawcap emulator 1.0"

    /// The personality.
    public nonisolated let model: CameraModel
    /// The configuration it was built with.
    public nonisolated let configuration: Configuration
    /// Sensor columns.
    public nonisolated let sensorWidth: Int
    /// Sensor rows.
    public nonisolated let sensorHeight: Int

    let hub = EventHub()
    var store = ObjectStore()
    var properties = PropertyTable()
    var clock: CameraClock
    var sessionID: UInt32?
    var expectedTransactionID: UInt32 = 0

    /// Every operation received, oldest first (at most ``Configuration/transcriptLimit``).
    public private(set) var transcript: [TranscriptEntry] = []
    /// Captures that could not be rendered or stored, oldest first.
    public internal(set) var captureErrors: [EmulatorError] = []
    /// Events a `lose-event` fault swallowed, oldest first.
    public private(set) var lostEvents: [PTPEvent] = []

    var faults: FaultState
    /// Whether the camera is on its link (`EmulatedCamera+Presence.swift`).
    var presence = PresenceState()
    var captureTask: Task<Void, Never>?
    var shotCount: UInt64 = 0
    /// Shots the body's own shutter button took (``pressShutter(timeout:)``).
    public internal(set) var shutterPresses = 0
    var folderNumber = 100
    var fileNumber = 0
    /// The Sony personality's handshake and buffer (`EmulatedCamera+Sony.swift`).
    var sony = SonyState()
    /// The Fujifilm personality's change list (`EmulatedCamera+Fujifilm.swift`).
    var fujifilm = FujifilmState()
    /// The Nikon personality's SDRAM and polled events.
    var nikon = NikonEmulatorState()
    /// The Canon EOS personality's modes, settings, event records and objects held for the host.
    var canon = CanonEmulatorState()
    /// Live view and the lens's focus (`EmulatedCamera+LiveView.swift`).
    var liveView = LiveViewEmulatorState()
    var lens = LensState()
    /// The bulb exposure being held open (`EmulatedCamera+Bulb.swift`).
    var bulb: BulbExposureState?
    /// The exposure time of the bulb shot being developed: its measured open time.
    var bulbExposureTime: Rational?
    /// Every bulb exposure, oldest first: how long the shutter was open between the host's open and close requests.
    public internal(set) var bulbExposures: [BulbExposureRecord] = []

    /// Creates a camera of `model`.
    ///
    /// - Throws: ``EmulatorError/Code-swift.struct/invalidConfiguration`` for a sensor size the synthetic scene
    ///   cannot render (16…65535 pixels a side, up to 400 megapixels), one the model's raw format does not hold
    ///   (``CameraModel/sensorSizeRule``), or an empty store.
    public init(model: CameraModel = .generic, configuration: Configuration = Configuration()) throws(EmulatorError) {
        let width = configuration.sensorWidth ?? model.defaultSensorWidth
        let height = configuration.sensorHeight ?? model.defaultSensorHeight
        guard (16...RawFrame.maxDimension).contains(width), (16...RawFrame.maxDimension).contains(height),
            width * height <= SyntheticScene.maxPixelCount
        else {
            throw EmulatorError(
                .invalidConfiguration,
                "sensor \(width)×\(height): each side 16…\(RawFrame.maxDimension), at most \(SyntheticScene.maxPixelCount) pixels")
        }
        if let rule = model.sensorSizeRule, let refusal = rule.refusal(width: width, height: height, model: model.identifier) {
            throw EmulatorError(.invalidConfiguration, refusal)
        }
        guard configuration.cardCapacity > 0, configuration.memoryCapacity > 0 else {
            throw EmulatorError(.invalidConfiguration, "the card and the camera memory need a capacity")
        }
        if model.personality != .hostile,
            let attack = configuration.faults.first(where: { if case .hostile = $0.kind { true } else { false } })
        {
            throw EmulatorError(.invalidConfiguration, "\(attack) needs the hostile model (--model hostile)")
        }
        // The hostile camera's crafted files are built now: building the deep one takes a while in a debug build,
        // and the first GetObjectInfo must not time out for that.
        for case .hostile(let behaviour) in configuration.faults.map(\.kind) { _ = HostileTIFF.file(for: behaviour) }
        self.model = model
        self.configuration = configuration
        self.sensorWidth = width
        self.sensorHeight = height
        clock = CameraClock(start: configuration.clockStart)
        faults = FaultState(configuration.faults)
        store.addStore(
            Self.cardStorageID,
            StorageInfo(
                storageType: .removableRAM, filesystemType: .dcf, accessCapability: .readWrite,
                maxCapacity: configuration.cardCapacity, storageDescription: "SD card", volumeLabel: "RAWCAP"))
        store.addStore(
            Self.memoryStorageID,
            StorageInfo(
                storageType: .fixedRAM, filesystemType: .genericFlat, accessCapability: .readWrite,
                maxCapacity: configuration.memoryCapacity, storageDescription: "Camera memory", volumeLabel: ""))
        if faults.cardFull { store.setFull(Self.cardStorageID, true) }
        properties = Self.makeProperties(model, width: width, height: height)
        canon.imageFormat = Self.canonImageFormat(model.defaultQuality)
        // The hostile camera's first shot goes on the card now, not on the first request: a host that connects
        // right after must not wait for it.
        if model.personality == .hostile { Task { await self.fillHostileCardIfPending() } }
    }

    /// A generic camera that claims `deviceInfo`: its identity, and only those of its operations that the generic
    /// model implements (the others answer OperationNotSupported). A small sensor keeps tests fast.
    public init(deviceInfo: DeviceInfo, sensorWidth: Int = 64, sensorHeight: Int = 48) {
        var model = CameraModel.generic
        model.manufacturer = deviceInfo.manufacturer
        model.model = deviceInfo.model
        model.deviceVersion = deviceInfo.deviceVersion
        model.serialNumber = deviceInfo.serialNumber
        model.vendorExtensionID = deviceInfo.vendorExtensionID
        model.operationsSupported = deviceInfo.operationsSupported.filter {
            CameraModel.generic.operationsSupported.contains($0)
        }
        do {
            try self.init(model: model, configuration: Configuration(sensorWidth: sensorWidth, sensorHeight: sensorHeight))
        } catch {
            preconditionFailure("EmulatedCamera(deviceInfo:) with a \(sensorWidth)×\(sensorHeight) sensor: \(error)")
        }
    }

    // MARK: PTPResponder

    /// The camera's events; each access makes a new subscription, so device sides may come and go.
    public nonisolated var events: AsyncStream<PTPEvent> { hub.stream }

    /// Answers one operation and records it in ``transcript``.
    public func respond(to request: PTPRequest, dataOut: [UInt8]?) async -> PTPResponderReply {
        var fault: String?
        // Away from the link (asleep, switched off): a request that still reaches the camera over the old link
        // finds it gone (EmulatedCamera+Presence.swift).
        if let leaving = presenceBeforeAnswering(request) {
            record(request, dataOut: dataOut, reply: PTPResponderReply(.ok, linkFault: .drop), fault: leaving)
            return PTPResponderReply(.ok, linkFault: .drop)
        }
        if let milliseconds = faults.delays[request.code] {
            // The camera thinks before answering; events and other tasks go on meanwhile.
            try? await Task.sleep(for: .milliseconds(milliseconds))
            fault = "delay=\(request.code):\(milliseconds)"
        }
        var reply = answer(request, dataOut: dataOut, fault: &fault)
        if reply.code == .ok, var source = reply.dataIn {
            if let rate = faults.bytesPerSecond { source = PacedDataSource(source, bytesPerSecond: rate) }
            reply.dataIn = source
            if source.byteCount > 1, let scheduled = faults.takeScheduledBreak(request.code) {
                reply.linkFault = .disconnect(afterBytes: Int(clamping: source.byteCount / 2))
                switch scheduled {
                case .disconnect: fault = "every: disconnect mid-download"
                case .reboot:
                    fault = "every: reboot mid-download"
                    restart()
                case .powerCycle(let away):
                    fault = "power cycle mid-download: gone for \(away)"
                    restart()
                    leaveLink(for: away, asleep: false)
                }
            } else if case let (cut, reboot)? = faults.takeDisconnect(sending: source.byteCount) {
                reply.linkFault = .disconnect(afterBytes: cut)
                if reboot {
                    fault = "reboot-after=\(faults.firedRebootThreshold ?? 0)"
                    restart()
                } else {
                    fault = "disconnect-after=\(faults.firedDisconnectThreshold ?? 0)"
                }
            }
        }
        record(request, dataOut: dataOut, reply: reply, fault: fault)
        return reply
    }

    /// A USB Device Reset (`transactionID` `nil`) closes the session, as the Still Image class requires; a cancelled
    /// transaction needs nothing undone (downloads have no side effects, and a capture runs to its end).
    public func transactionCancelled(_ transactionID: UInt32?) async {
        if transactionID == nil { closeSessionState() }
    }

    /// The host's link went away (a PTP/IP connection closed, a USB device re-enumerated): the session ends, and
    /// the next host starts with OpenSession. Objects, settings and a capture in progress are kept.
    public func connectionClosed() {
        closeSessionState()
    }

    /// What GetDeviceInfo answers.
    public var deviceInfo: DeviceInfo {
        DeviceInfo(
            standardVersion: model.standardVersion, vendorExtensionID: model.vendorExtensionID,
            vendorExtensionVersion: model.vendorExtensionVersion, vendorExtensionDesc: model.vendorExtensionDesc,
            functionalMode: 0, operationsSupported: model.operationsSupported,
            eventsSupported: model.eventsSupported,
            devicePropertiesSupported: model.deviceInfoProperties
                ?? properties.codes.filter {
                    !personalityAnswersOnlyItsOwnWay($0)
                        && !(listsVendorPropertiesApart && vendorPropertyCodes.contains($0))
                },
            captureFormats: model.captureFormats ?? [model.rawFileFormat.objectFormat, .exifJPEG],
            imageFormats: model.imageFormats ?? [.association, .exifJPEG, model.rawFileFormat.objectFormat],
            manufacturer: model.manufacturer, model: model.model,
            deviceVersion: model.deviceVersion, serialNumber: model.serialNumber)
    }

    /// Whether DeviceInfo leaves out the properties GetVendorPropCodes lists (a Nikon that lists 0x90CA).
    var listsVendorPropertiesApart: Bool {
        model.personality == .nikon && model.operationsSupported.contains(OperationCode.Nikon.getVendorPropCodes)
    }

    /// The open session's ID, or `nil`.
    public var openSessionID: UInt32? { sessionID }

    /// Whether a capture is being rendered.
    public var isCapturing: Bool { captureTask != nil }

    /// Waits until the capture in progress, if any, has stored its objects and sent its events.
    public func waitForCapture() async {
        while let task = captureTask { await task.value }
    }

    // MARK: Dispatch

    /// The most parameters each operation takes; more that are not zero answer ParameterNotSupported.
    private static let parameterCounts: [OperationCode: Int] = [
        .getDeviceInfo: 0, .openSession: 1, .closeSession: 0, .getStorageIDs: 0, .getStorageInfo: 1,
        .getNumObjects: 3, .getObjectHandles: 3, .getObjectInfo: 1, .getObject: 1, .getThumb: 1, .deleteObject: 2,
        .initiateCapture: 2, .getDevicePropDesc: 1, .getDevicePropValue: 1, .setDevicePropValue: 1,
        .getPartialObject: 3, .initiateOpenCapture: 2, .terminateOpenCapture: 1,
    ]

    private func answer(_ request: PTPRequest, dataOut: [UInt8]?, fault: inout String?) -> PTPResponderReply {
        let code = request.code
        guard model.operationsSupported.contains(code) else {
            // An operation the camera does not implement still uses up its transaction ID: hosts count every
            // request of the session (libgphoto2 tries EOS operations a body may lack, then goes on with the next ID).
            if sessionID != nil, request.transactionID == expectedTransactionID {
                expectedTransactionID = expectedTransactionID >= 0xFFFF_FFFE ? 1 : expectedTransactionID + 1
            }
            return PTPResponderReply(.operationNotSupported)
        }
        guard let parameterCount = Self.parameterCounts[code] else {
            // Not a standard operation: the personality's own (vendor operations), under the same session rules
            // and faults as the standard ones.
            if let check = checkSession(request) { return check }
            if let busy = faults.takeBusy(code) {
                fault = busy
                return PTPResponderReply(.deviceBusy)
            }
            if let stall = faults.takeStall(code) {
                fault = stall
                return PTPResponderReply(.generalError, linkFault: .stall)
            }
            return answerVendorOperation(request, dataOut: dataOut, fault: &fault)
                ?? PTPResponderReply(.operationNotSupported)
        }
        if let check = checkSession(request) { return check }
        if request.parameters.dropFirst(parameterCount).contains(where: { $0 != 0 }) {
            return PTPResponderReply(.parameterNotSupported)
        }
        // SetDevicePropValue is the only implemented operation with a host data phase.
        let takesData = code == .setDevicePropValue
        if takesData != (dataOut != nil) { return PTPResponderReply(.invalidDataset) }
        if let busy = faults.takeBusy(code) {
            fault = busy
            return PTPResponderReply(.deviceBusy)
        }
        if let stall = faults.takeStall(code) {
            fault = stall
            return PTPResponderReply(.generalError, linkFault: .stall)
        }
        // A personality may answer a standard operation its own way (a vendor object handle, polled events).
        if let reply = answerVendorOperation(request, dataOut: dataOut, fault: &fault) { return reply }
        let p = request.parameters
        func parameter(_ index: Int) -> UInt32 { index < p.count ? p[index] : 0 }
        switch code {
        case .getDeviceInfo: return .dataset(deviceInfo)
        case .openSession: return openSession(request)
        case .closeSession:
            closeSessionState()
            return PTPResponderReply()
        case .getStorageIDs, .getStorageInfo, .getNumObjects, .getObjectHandles, .getObjectInfo, .getObject,
            .getThumb, .getPartialObject, .deleteObject:
            return answerObjectOperation(code, parameter)
        case .getDevicePropDesc, .getDevicePropValue, .setDevicePropValue:
            return answerPropertyOperation(code, property: parameter(0), dataOut: dataOut)
        case .initiateCapture:
            let reply = initiateCapture(storage: parameter(0), format: parameter(1), transactionID: request.transactionID)
            let target = parameter(0) == 0 ? captureTargetStorage : StorageID(rawValue: parameter(0))
            if reply.code == .storeFull, faults.cardFull, target == Self.cardStorageID {
                fault = "card-full"
            }
            if reply.code == .ok, let scheduled = faults.shotAccepted(shotCount) { fault = scheduled }
            return reply
        case .initiateOpenCapture:
            return initiateOpenCapture(storage: parameter(0), format: parameter(1), transactionID: request.transactionID)
        case .terminateOpenCapture:
            return terminateOpenCapture(parameter(0))
        default:
            return PTPResponderReply(.operationNotSupported)
        }
    }

    /// The session rules: outside a session only GetDeviceInfo and OpenSession, with transaction ID 0; inside,
    /// transaction IDs count up by one from 1 (wrapping past 0xFFFFFFFE to 1). `nil` when the request may go on.
    private func checkSession(_ request: PTPRequest) -> PTPResponderReply? {
        let id = request.transactionID
        guard sessionID != nil else {
            guard request.code == .getDeviceInfo || request.code == .openSession else {
                return PTPResponderReply(.sessionNotOpen)
            }
            return id == 0 ? nil : PTPResponderReply(.invalidTransactionID)
        }
        // A second OpenSession carries transaction ID 0 by definition; it is answered below.
        if request.code == .openSession { return nil }
        guard id == expectedTransactionID else { return PTPResponderReply(.invalidTransactionID) }
        expectedTransactionID = id >= 0xFFFF_FFFE ? 1 : id + 1
        return nil
    }

    private func openSession(_ request: PTPRequest) -> PTPResponderReply {
        let requested = request.parameters.first ?? 0
        guard requested != 0 else { return PTPResponderReply(.invalidParameter) }
        if let sessionID {
            // libgphoto2 takes SessionAlreadyOpened as success and goes on with transaction ID 1 (after a host that
            // died without CloseSession), so the re-open restarts the count.
            guard request.transactionID == 0 else { return PTPResponderReply(.invalidTransactionID) }
            expectedTransactionID = 1
            return PTPResponderReply(.sessionAlreadyOpened, parameters: [sessionID])
        }
        sessionID = requested
        expectedTransactionID = 1
        return PTPResponderReply()
    }

    func closeSessionState() {
        sessionID = nil
        expectedTransactionID = 0
    }

    // MARK: Events and transcript

    /// Sends an event unless a `lose-event` fault swallows it.
    func emit(_ event: PTPEvent) {
        if faults.takeLostEvent(event.code) {
            lostEvents.append(event)
            return
        }
        hub.send(event)
        if faults.takeDuplicatedEvent(event.code) { hub.send(event) }
    }

    private func record(_ request: PTPRequest, dataOut: [UInt8]?, reply: PTPResponderReply, fault: String?) {
        if transcript.count >= configuration.transcriptLimit {
            transcript.removeFirst(max(1, configuration.transcriptLimit / 10))
        }
        transcript.append(
            TranscriptEntry(
                code: request.code, transactionID: request.transactionID, parameters: request.parameters,
                dataOutByteCount: dataOut?.count, response: reply.code, responseParameters: reply.parameters,
                dataInByteCount: reply.dataIn?.byteCount, fault: fault))
    }

    /// Forgets the transcript (tests that look at one phase at a time).
    public func clearTranscript() { transcript.removeAll() }
}
