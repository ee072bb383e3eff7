import Logging
import WireFormat

/// A PTP session with one device over any ``PTPTransport``: transaction IDs, session state, typed operations, and
/// the rule that every response other than OK becomes a ``PTPError`` naming the operation and the response.
///
/// ```swift
/// let session = PTPSession(transport: transport, logger: logger)
/// let info = try await session.getDeviceInfo()        // legal outside a session (transaction ID 0)
/// try await session.openSession()                     // OpenSession(1) with transaction ID 0
/// let handles = try await session.getObjectHandles()  // transaction ID 1, then 2, 3, …
/// try await session.getObject(handles[0], into: fileSink)
/// ```
///
/// Transactions run one at a time in call order, even when several tasks call the session at once. Events are
/// independent of transactions: ``nextEvent(timeout:)`` may wait while a download runs. Errors come in three
/// layers: ``PTPError`` (the device said no, or broke the protocol), ``TransportError`` (the link failed), and
/// ``WireFormat/WireError`` (a dataset's bytes did not decode).
public actor PTPSession {
    /// Tuning and quirks, chosen once per camera.
    public struct Configuration: Sendable {
        /// Timeout of each wait for the device (see ``PTPTransport``).
        public var timeout: Duration
        /// Deviations from the spec to accept when decoding datasets.
        public var quirks: PTPQuirks
        /// Bytes asked for per GetPartialObject in ``downloadObject(_:byteCount:into:chunkByteCount:maxAttempts:reconnect:)``
        /// (libgphoto2 uses 1 MiB).
        public var partialObjectChunkByteCount: UInt32
        /// Attempts per download before a transport failure is passed on.
        public var maxDownloadAttempts: Int

        /// Creates a configuration.
        public init(
            timeout: Duration = .seconds(5), quirks: PTPQuirks = [], partialObjectChunkByteCount: UInt32 = 1 << 20,
            maxDownloadAttempts: Int = 3
        ) {
            self.timeout = timeout
            self.quirks = quirks
            self.partialObjectChunkByteCount = max(1, partialObjectChunkByteCount)
            self.maxDownloadAttempts = max(1, maxDownloadAttempts)
        }
    }

    /// The result of a raw operation that may carry a data phase.
    public struct ExecuteResult: Sendable {
        /// The response (always OK: other codes throw).
        public var response: PTPResponse
        /// The device's data phase, when one was expected.
        public var data: [UInt8]?
    }

    private var transport: any PTPTransport
    let logger: Logger
    /// The camera's identity once ``cameraIdentity(usbVendorID:usbProductID:)`` has established it.
    public internal(set) var identity: CameraIdentity?
    /// The configuration in use.
    public var configuration: Configuration
    /// The open session's ID, or `nil` outside a session.
    public private(set) var sessionID: UInt32?
    /// The vendor whose names describe vendor codes in errors and logs; set by ``getDeviceInfo()`` from
    /// ``DeviceInfo/cameraVendor`` unless the caller chose one.
    public private(set) var vendor: VendorExtensionID?
    private var vendorChosen = false
    private var nextTransactionID: UInt32 = 0
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Creates a session object; nothing is sent until the first operation.
    public init(
        transport: any PTPTransport, configuration: Configuration = Configuration(),
        logger: Logger = Logger(label: "rawcap.ptp")
    ) {
        self.transport = transport
        self.configuration = configuration
        self.logger = logger
    }

    /// Chooses the vendor context for code names (``getDeviceInfo()`` no longer overrides it).
    public func setVendor(_ vendor: VendorExtensionID?) {
        self.vendor = vendor
        vendorChosen = true
    }

    /// Replaces the transport after the old one failed (a reconnect); the session is closed and must be opened
    /// again.
    public func attach(_ transport: any PTPTransport) async {
        await self.transport.close()
        self.transport = transport
        sessionID = nil
        nextTransactionID = 0
        identity = nil
    }

    /// Takes over `other`'s transport (a reconnect: the camera came back on a link opened by the same code that
    /// opened the first one), as ``attach(_:)`` does; `other` must not be used afterwards.
    public func adoptTransport(of other: PTPSession) async {
        await attach(await other.transport)
    }

    // MARK: Sessions

    /// OpenSession (0x1002) with `id`, sent with transaction ID 0; later transactions use 1, 2, …
    ///
    /// SessionAlreadyOpened (0x201E) counts as success, as in libgphoto2. A session ID of 0 is a programmer
    /// error (the spec reserves it).
    public func openSession(id: UInt32 = 1) async throws {
        precondition(id != 0, "PTP session ID 0 is reserved")
        let response = try await run(.openSession, parameters: [id], dataOut: nil, dataIn: nil)
        guard response.code == .ok || response.code == .sessionAlreadyOpened else {
            throw PTPError(response: response.code, operation: .openSession, vendor: vendor)
        }
        sessionID = id
        nextTransactionID = 1
        if transport is FujiPTPIPTransport { try await startFujifilmWiFiSession() }
    }

    /// What a host on Fujifilm's Wi-Fi variant does right after OpenSession (libgphoto2 `library.c` `camera_init`,
    /// "Special fuji wlan init code"; fuji-cam-wifi-tool `init_control_connection` from captures of Fujifilm's
    /// app): InitSequence (0xDF01) to 5, AppVersion (0xDF24) read and written back, then InitiateOpenCapture, after
    /// which the body listens on its event and live-view ports (the transport connects both). A step the camera
    /// refuses is logged and the session goes on (libgphoto2 gives up instead); a failing link throws.
    private func startFujifilmWiFiSession() async throws {
        func step(_ what: String, _ body: () async throws -> Void) async throws {
            do {
                try await body()
            } catch let error as PTPError where error.response != nil {
                logger.warning("Fujifilm Wi-Fi start: \(what): \(error)")
            }
        }
        try await step("InitSequence 5") {
            try await setDevicePropValue(DevicePropertyCode.Fujifilm.initSequence, .uint16(5))
        }
        try await step("AppVersion") {
            let version = try await getDevicePropValue(DevicePropertyCode.Fujifilm.appVersion, type: .uint32)
            try await setDevicePropValue(DevicePropertyCode.Fujifilm.appVersion, version)
        }
        try await step("InitiateOpenCapture") { _ = try await execute(.initiateOpenCapture, parameters: [0, 0]) }
    }

    /// CloseSession (0x1003). The session counts as closed afterwards even if the device objects.
    public func closeSession() async throws {
        let response = try await run(.closeSession, parameters: [], dataOut: nil, dataIn: nil)
        sessionID = nil
        nextTransactionID = 0
        try check(response, .closeSession)
    }

    // MARK: Datasets

    /// GetDeviceInfo (0x1001); legal outside a session. Sets ``vendor`` from the answer.
    public func getDeviceInfo() async throws -> DeviceInfo {
        let info = try DeviceInfo(ptpEncoded: try await fetch(.getDeviceInfo), quirks: configuration.quirks)
        if !vendorChosen { vendor = info.cameraVendor }
        return info
    }

    /// GetStorageIDs (0x1004).
    public func getStorageIDs() async throws -> [StorageID] {
        try StorageIDArray(ptpEncoded: try await fetch(.getStorageIDs), quirks: configuration.quirks).storageIDs
    }

    /// GetStorageInfo (0x1005).
    public func getStorageInfo(_ storage: StorageID) async throws -> StorageInfo {
        try StorageInfo(ptpEncoded: try await fetch(.getStorageInfo, [storage.rawValue]), quirks: configuration.quirks)
    }

    /// GetNumObjects (0x1006): how many objects match; `nil` format means all formats.
    public func getNumObjects(
        storage: StorageID = .all, format: ObjectFormatCode? = nil, parent: ObjectHandleArray.ParentFilter = .any
    ) async throws -> Int {
        let response = try await execute(
            .getNumObjects, parameters: [storage.rawValue, UInt32(format?.rawValue ?? 0), parent.parameter])
        guard let count = response.parameters.first else {
            throw PTPError(.inconsistentResponse, operation: .getNumObjects, "no count in the response")
        }
        return Int(count)
    }

    /// GetObjectHandles (0x1007): the objects that match; `nil` format means all formats.
    public func getObjectHandles(
        storage: StorageID = .all, format: ObjectFormatCode? = nil, parent: ObjectHandleArray.ParentFilter = .any
    ) async throws -> [ObjectHandle] {
        let bytes = try await fetch(
            .getObjectHandles, [storage.rawValue, UInt32(format?.rawValue ?? 0), parent.parameter])
        return try ObjectHandleArray(ptpEncoded: bytes, quirks: configuration.quirks).handles
    }

    /// GetObjectInfo (0x1008).
    public func getObjectInfo(_ handle: ObjectHandle) async throws -> ObjectInfo {
        try ObjectInfo(ptpEncoded: try await fetch(.getObjectInfo, [handle.rawValue]), quirks: configuration.quirks)
    }

    /// GetDevicePropDesc (0x1014).
    ///
    /// A UINT8 or INT8 enumeration sent with 16-bit entries (a real Canon EOS 60D's BatteryLevel, in a debug log
    /// committed to libgphoto2) leaves bytes over when read as the standard says: such a description is read again
    /// with ``PTPQuirks/wideEightBitEnumerations`` and taken when it then decodes.
    public func getDevicePropDesc(_ property: DevicePropertyCode) async throws -> DevicePropDesc {
        let bytes = try await fetch(.getDevicePropDesc, [UInt32(property.rawValue)])
        if let described = try? DevicePropDesc(ptpEncoded: bytes, quirks: configuration.quirks) { return described }
        if !configuration.quirks.contains(.wideEightBitEnumerations),
            let wide = try? DevicePropDesc(ptpEncoded: bytes, quirks: configuration.quirks.union(.wideEightBitEnumerations))
        {
            logger.debug("\(property): an 8-bit enumeration with 16-bit entries, read as such")
            return wide
        }
        // Neither reading accounts for the bytes: the standard reading's error.
        return try DevicePropDesc(ptpEncoded: bytes, quirks: configuration.quirks)
    }

    /// GetDevicePropValue (0x1015): the value, decoded as `type` (from the property's description).
    public func getDevicePropValue(_ property: DevicePropertyCode, type: DataTypeCode) async throws -> PTPValue {
        let bytes = try await fetch(.getDevicePropValue, [UInt32(property.rawValue)])
        return try PTPValue(ptpEncoded: bytes, type: type, quirks: configuration.quirks)
    }

    /// SetDevicePropValue (0x1016).
    public func setDevicePropValue(_ property: DevicePropertyCode, _ value: PTPValue) async throws {
        try await execute(
            .setDevicePropValue, parameters: [UInt32(property.rawValue)], dataOut: PTPBytesSource(value.ptpEncoded))
    }

    // MARK: Objects

    /// GetObject (0x1009), streamed into `sink` as it arrives; returns the number of bytes received.
    @discardableResult
    public func getObject(_ handle: ObjectHandle, into sink: any PTPDataSink) async throws -> UInt64 {
        let counter = CountingSink(sink)
        try await execute(.getObject, parameters: [handle.rawValue], dataIn: counter)
        return await counter.byteCount
    }

    /// GetThumb (0x100A): the thumbnail's bytes.
    public func getThumb(_ handle: ObjectHandle) async throws -> [UInt8] {
        try await fetch(.getThumb, [handle.rawValue])
    }

    /// GetPartialObject (0x101B): up to `maxByteCount` bytes from `offset`, streamed into `sink`; returns the
    /// count the device reports sending (response parameter 1), checked against the bytes that arrived.
    @discardableResult
    public func getPartialObject(
        _ handle: ObjectHandle, offset: UInt32, maxByteCount: UInt32, into sink: any PTPDataSink
    ) async throws -> UInt32 {
        let counter = CountingSink(sink)
        let response = try await execute(
            .getPartialObject, parameters: [handle.rawValue, offset, maxByteCount], dataIn: counter)
        let received = await counter.byteCount
        guard received <= UInt64(maxByteCount) else {
            throw PTPError(
                .dataPhaseTooLong, operation: .getPartialObject, "\(received) bytes for at most \(maxByteCount)")
        }
        if let reported = response.parameters.first, UInt64(reported) != received {
            throw PTPError(
                .inconsistentResponse, operation: .getPartialObject, "reported \(reported) bytes, sent \(received)")
        }
        return UInt32(received)
    }

    /// Downloads a whole object with GetPartialObject in chunks, resuming from the last byte received after an
    /// interruption.
    ///
    /// A timeout, stall or I/O failure retries on the same link (the transport has already brought it back to
    /// idle); a disconnect calls `reconnect`, which must ``attach(_:)`` a new transport and open the session again,
    /// and fails when there is none. The sink sees every byte exactly once, in order. After `maxAttempts`
    /// consecutive failures the last error is passed on.
    ///
    /// A camera that lists GetPartialObject can still refuse it for some objects (those in its memory rather than
    /// on a card: a real Nikon's SDRAM shot is fetched with GetObject by libgphoto2 `camera_nikon_capture` and by
    /// the Windows client of a recorded D5500 session). When the device refuses the first chunk, before any byte has
    /// arrived, the whole object is read with GetObject instead (logged once per object); a refusal later in the
    /// object is passed on, since the sink has already seen part of it.
    ///
    /// - Throws: ``WireFormat/WireError/Code/doesNotFit`` when the object is larger than GetPartialObject's 32-bit
    ///   offset can address.
    public func downloadObject(
        _ handle: ObjectHandle, byteCount: UInt64, into sink: any PTPDataSink, chunkByteCount: UInt32? = nil,
        maxAttempts: Int? = nil, reconnect: (@Sendable (PTPSession) async throws -> Void)? = nil
    ) async throws {
        guard byteCount <= UInt64(UInt32.max) + 1 else {
            throw WireError(.doesNotFit, "object of \(byteCount) bytes is beyond GetPartialObject's 32-bit offsets")
        }
        let chunk = UInt64(chunkByteCount ?? configuration.partialObjectChunkByteCount)
        let attempts = max(1, maxAttempts ?? configuration.maxDownloadAttempts)
        try await sink.dataPhaseWillStart(byteCount: byteCount)
        let forward = ForwardingSink(sink)
        var offset: UInt64 = 0
        var failures = 0
        var lastFailure: TransportError?
        while offset < byteCount {
            let want = UInt32(min(chunk, byteCount - offset))
            let counter = CountingSink(forward)
            do {
                let sent: UInt32
                do {
                    sent = try await getPartialObject(handle, offset: UInt32(offset), maxByteCount: want, into: counter)
                } catch let error as PTPError where error.code == .deviceResponse && offset == 0 && failures == 0 {
                    guard await counter.byteCount == 0 else { throw error }
                    logger.notice("the camera refused GetPartialObject for \(handle) (\(error)); reading it with GetObject")
                    // The caller checks the size against what the camera announced, as for GetObject itself.
                    _ = try await getObject(handle, into: forward)
                    return
                }
                guard sent > 0 else {
                    throw PTPError(
                        .dataPhaseTooShort, operation: .getPartialObject, "no bytes at offset \(offset) of \(byteCount)"
                    )
                }
                offset += UInt64(sent)
                failures = 0
            } catch let error as TransportError where error.code == .busy && lastFailure != nil {
                // The retry found the camera still busy with the chunk it was told to cancel (a camera that
                // stopped answering): the failure that started it is the one to report, not "busy" (exit 75,
                // another program holding the camera).
                throw lastFailure ?? error
            } catch let error as TransportError
                where [.timeout, .stalled, .ioError, .disconnected].contains(error.code)
            {
                lastFailure = error
                offset += await counter.byteCount
                failures += 1
                guard failures < attempts else { throw error }
                if error.code == .disconnected {
                    guard let reconnect else { throw error }
                    logger.info("reconnecting to resume \(handle) at byte \(offset) of \(byteCount)")
                    try await reconnect(self)
                } else {
                    logger.info("resuming \(handle) at byte \(offset) of \(byteCount) after \(error)")
                }
            }
        }
    }

    /// DeleteObject (0x100B); `format` narrows a deletion of all objects (handle 0xFFFFFFFF).
    public func deleteObject(_ handle: ObjectHandle, format: ObjectFormatCode? = nil) async throws {
        try await execute(.deleteObject, parameters: [handle.rawValue, UInt32(format?.rawValue ?? 0)])
    }

    /// InitiateCapture (0x100E): storage 0 and format 0 let the device choose. Completion arrives as events
    /// (ObjectAdded, CaptureComplete).
    public func initiateCapture(storage: StorageID = StorageID(rawValue: 0), format: ObjectFormatCode? = nil)
        async throws
    {
        try await execute(.initiateCapture, parameters: [storage.rawValue, UInt32(format?.rawValue ?? 0)])
    }

    // MARK: Raw operations

    /// Runs any operation (vendor operations included) with an optional host data phase and an optional data
    /// sink; throws ``PTPError`` unless the response is OK.
    @discardableResult
    public func execute(
        _ code: OperationCode, parameters: [UInt32] = [], dataOut: (any PTPDataSource)? = nil,
        dataIn: (any PTPDataSink)? = nil
    ) async throws -> PTPResponse {
        let response = try await run(code, parameters: parameters, dataOut: dataOut, dataIn: dataIn)
        try check(response, code)
        return response
    }

    /// Runs any operation with its data phases in memory: `dataOut` is sent when given; with `expectDataIn` the
    /// device's data phase (up to ``WireFormat/WireLimits/maxInMemoryDataPhase``) is returned.
    public func execute(
        _ code: OperationCode, parameters: [UInt32] = [], dataOut: [UInt8]?, expectDataIn: Bool
    ) async throws -> ExecuteResult {
        let sink = expectDataIn ? PTPMemorySink(timeout: configuration.timeout) : nil
        let response = try await execute(
            code, parameters: parameters, dataOut: dataOut.map(PTPBytesSource.init), dataIn: sink)
        return ExecuteResult(response: response, data: await sink?.bytes)
    }

    // MARK: Events

    /// The next event, or `nil` when none arrives within `timeout`.
    public func nextEvent(timeout: Duration) async throws -> PTPEvent? {
        let event = try await transport.nextEvent(timeout: timeout)
        if let event { logger.debug("event \(event.code.description(vendor: vendor)) \(event.parameters.map(hex))") }
        return event
    }

    /// Events as an asynchronous sequence, polling with `pollTimeout`; it ends when iteration is cancelled and
    /// throws the first transport failure.
    public nonisolated func events(pollTimeout: Duration = .milliseconds(500)) -> AsyncThrowingStream<
        PTPEvent, any Error
    > {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    while !Task.isCancelled {
                        if let event = try await self.nextEvent(timeout: pollTimeout) { continuation.yield(event) }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    // MARK: Plumbing

    private func fetch(_ code: OperationCode, _ parameters: [UInt32] = []) async throws -> [UInt8] {
        // Datasets get a deadline: the session's timeout, then a rate floor (a trickle never ends otherwise).
        let sink = PTPMemorySink(timeout: configuration.timeout)
        try await execute(code, parameters: parameters, dataIn: sink)
        return await sink.bytes
    }

    private func check(_ response: PTPResponse, _ code: OperationCode) throws {
        guard response.code == .ok else { throw PTPError(response: response.code, operation: code, vendor: vendor) }
    }

    /// Runs one transaction with the next transaction ID, one at a time.
    private func run(
        _ code: OperationCode, parameters: [UInt32], dataOut: (any PTPDataSource)?, dataIn: (any PTPDataSink)?
    ) async throws -> PTPResponse {
        await acquire()
        defer { release() }
        let request = PTPRequest(code: code, transactionID: takeTransactionID(for: code), parameters: parameters)
        logger.debug(
            "→ \(request.code.description(vendor: vendor)) \(request.parameters.map(hex)) tid \(request.transactionID)")
        do {
            let response = try await transport.transact(
                request, dataOut: dataOut, dataIn: dataIn, timeout: configuration.timeout)
            logger.debug(
                "← \(response.code.description(vendor: vendor)) \(response.parameters.map(hex)) tid \(response.transactionID)"
            )
            return response
        } catch let error as PTPError {
            throw error.describing(vendor: vendor)
        }
    }

    /// OpenSession and everything outside a session use 0; inside, 1, 2, … wrapping past 0xFFFFFFFE to 1
    /// (0xFFFFFFFF is reserved for events without a transaction).
    private func takeTransactionID(for code: OperationCode) -> UInt32 {
        guard code != .openSession, sessionID != nil else { return 0 }
        let id = nextTransactionID
        nextTransactionID = id >= 0xFFFF_FFFE ? 1 : id + 1
        return id
    }

    private func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func release() {
        if waiters.isEmpty {
            busy = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}

/// Counts the bytes passing through to another sink (downloads resume from this count).
actor CountingSink: PTPDataSink {
    private let base: any PTPDataSink
    /// Bytes written so far.
    private(set) var byteCount: UInt64 = 0

    init(_ base: any PTPDataSink) { self.base = base }

    func dataPhaseWillStart(byteCount: UInt64?) async throws { try await base.dataPhaseWillStart(byteCount: byteCount) }

    func write(_ bytes: ArraySlice<UInt8>) async throws {
        try await base.write(bytes)
        byteCount += UInt64(bytes.count)
    }
}

/// Passes bytes on but hides the per-chunk data phase starts of a download from the caller's sink, which saw
/// one start for the whole object.
struct ForwardingSink: PTPDataSink {
    let base: any PTPDataSink

    init(_ base: any PTPDataSink) { self.base = base }

    func dataPhaseWillStart(byteCount: UInt64?) async throws {}

    func write(_ bytes: ArraySlice<UInt8>) async throws { try await base.write(bytes) }
}

// MARK: Live view on a connection of its own

extension PTPSession {
    /// Whether the camera sends live view on a connection of its own (``LiveViewStreamingTransport``: Fujifilm on
    /// Wi-Fi) and that connection is open.
    public var liveViewStreamIsOpen: Bool {
        get async {
            guard let streaming = transport as? any LiveViewStreamingTransport else { return false }
            return await streaming.liveViewConnectionIsOpen
        }
    }

    /// Whether the transport is one on which live view comes on a connection of its own.
    public var transportStreamsLiveView: Bool { transport is any LiveViewStreamingTransport }

    /// The next blob from the camera's live-view connection (see ``LiveViewStreamingTransport``).
    ///
    /// - Throws: ``TransportError`` `.closed` when the transport has no such connection.
    public func nextLiveViewBlob(timeout: Duration) async throws -> [UInt8] {
        guard let streaming = transport as? any LiveViewStreamingTransport else {
            throw TransportError(.closed, "the transport has no live-view connection")
        }
        return try await streaming.nextLiveViewBlob(timeout: timeout)
    }
}
