import WireFormat

/// The camera side of Fujifilm's Wi-Fi PTP/IP variant: serves any ``PTPResponder`` on a command connection the way
/// an X body does (see ``FujiPTPIPTransport`` for the wire format), so the real host transport runs against it.
///
/// ``run()`` answers the handshake, then serves USB-style containers until the connection closes. As a body in
/// tether mode does (``FujifilmPTPIP``), the first Init Command Request on a connection gets Init Fail and the
/// connection stays open for the request sent again, which gets Init Command Ack
/// (``Configuration/refusesFirstInit``); a host that does not send Fujifilm's protocol word gets Init Fail and the
/// connection closes. A command is followed by a data
/// container exactly when the responder expects data-out for it (``PTPResponder/expectsDataOut(_:)``), since the
/// host's command says nothing about it. Events go out on the event connection once one is attached
/// (``attachEventConnection(_:)``; the camera accepts it after InitiateOpenCapture). Once a live-view connection is
/// attached (``attachLiveViewConnection(_:)``), a responder that is a ``StreamedLiveViewResponder`` has its frames
/// pushed on it as ``FujifilmPTPIP/liveViewBlob(jpeg:header:)`` blobs. Every length from the host is bounded before
/// anything is allocated.
public actor FujiPTPIPDeviceSide {
    /// How the camera presents itself.
    public struct Configuration: Sendable {
        /// The camera's GUID in the Ack.
        public var guid: PTPIPGUID
        /// The camera's name in the Ack (libgphoto2 shows it; X bodies send their model name).
        public var friendlyName: String
        /// The connection number in the Ack.
        public var connectionNumber: UInt32
        /// The largest host data phase accepted.
        public var maxDataOutByteCount: Int
        /// Bytes per write of a data-in phase.
        public var chunkByteCount: Int
        /// Whether the first Init Command Request on a connection is answered with Init Fail (a body in tether
        /// mode; see ``FujifilmPTPIP``).
        public var refusesFirstInit: Bool

        /// Creates a configuration.
        public init(
            guid: PTPIPGUID = .random(), friendlyName: String = "X-T2", connectionNumber: UInt32 = 1,
            maxDataOutByteCount: Int = WireLimits.maxInMemoryDataPhase, chunkByteCount: Int = 1 << 20,
            refusesFirstInit: Bool = true
        ) {
            self.refusesFirstInit = refusesFirstInit
            self.guid = guid
            self.friendlyName = friendlyName
            self.connectionNumber = connectionNumber
            self.maxDataOutByteCount = maxDataOutByteCount
            self.chunkByteCount = max(1, chunkByteCount)
        }
    }

    private let command: ByteStreamBuffer
    private let responder: any PTPResponder
    private let configuration: Configuration
    private var event: (any ByteStream)?
    private var eventTask: Task<Void, Never>?
    private var liveView: (any ByteStream)?
    private var liveViewTask: Task<Void, Never>?
    /// Live view blobs pushed so far.
    public private(set) var liveViewBlobsSent = 0

    /// The host's hello, once received.
    public private(set) var initiator: FujiPTPIPHandshake.Request?
    /// Every request served, oldest first.
    public private(set) var transcript: [PTPRequest] = []

    /// Serves `responder` on `command`.
    public init(command: any ByteStream, responder: any PTPResponder, configuration: Configuration = Configuration()) {
        self.command = ByteStreamBuffer(command)
        self.responder = responder
        self.configuration = configuration
    }

    /// Sends the responder's events on `connection` from now on (the camera's event port, 55741).
    public func attachEventConnection(_ connection: any ByteStream) {
        eventTask?.cancel()
        event = connection
        let events = responder.events
        eventTask = Task { [weak self] in
            for await value in events {
                guard let self else { return }
                do { try await self.send(event: value) } catch { return }
            }
        }
    }

    /// Pushes the responder's live view frames on `connection` from now on (the camera's live-view port, 55742),
    /// when the responder has them (``StreamedLiveViewResponder``); otherwise the connection stays silent.
    public func attachLiveViewConnection(_ connection: any ByteStream) {
        liveViewTask?.cancel()
        liveView = connection
        guard let source = responder as? any StreamedLiveViewResponder else { return }
        liveViewTask = Task { [weak self] in
            while !Task.isCancelled {
                guard let jpeg = await source.streamedLiveViewFrame() else {
                    try? await Task.sleep(for: .milliseconds(5))
                    continue
                }
                do {
                    try await connection.send(FujifilmPTPIP.liveViewBlob(jpeg: jpeg))
                } catch {
                    return
                }
                guard let self else { return }
                await self.countLiveViewBlob()
            }
        }
    }

    private func countLiveViewBlob() { liveViewBlobsSent += 1 }

    private func send(event value: PTPEvent) async throws {
        guard let event else { return }
        var writer = WireWriter(byteOrder: .little)
        USBContainerHeader(
            length: UInt32(USBContainerHeader.byteCount + 4 * value.parameters.count), type: .event,
            code: value.code.rawValue, transactionID: value.transactionID
        ).encode(into: &writer)
        for parameter in value.parameters { writer.write(parameter) }
        try await event.send(writer.bytes)
    }

    /// Serves one host until its command connection closes or breaks the protocol; closes both connections then.
    public func run() async {
        defer {
            eventTask?.cancel()
            liveViewTask?.cancel()
        }
        do {
            let timeout = Duration.seconds(3600)
            var requests = 0
            while true {
                let head = try await command.read(exactly: 4, timeout: timeout)
                let length = try FujiPTPIPHandshake.announcedLength(head)
                let hello = try FujiPTPIPHandshake.Request(
                    packet: head + (try await command.read(exactly: length - 4, timeout: timeout)))
                initiator = hello
                requests += 1
                guard hello.protocolVersion == FujiPTPIPHandshake.protocolVersion else {
                    // Not a Fujifilm host (plain PTP/IP sends 0x00010000): Init Fail, "rejected initiator".
                    try await command.stream.send(FujiPTPIPHandshake.Answer.fail(reason: 1).encoded)
                    return await closeAll()
                }
                guard configuration.refusesFirstInit, requests == 1 else { break }
                // The body's refusal, as fuji-cam-wifi-tool `init_control_connection` quotes it from captures of
                // Fujifilm's app: type 5 (Init Fail) with 0x2019 (DeviceBusy) as the reason.
                try await command.stream.send(FujiPTPIPHandshake.Answer.fail(reason: 0x2019).encoded)
            }
            try await command.stream.send(
                FujiPTPIPHandshake.Answer.ack(
                    connectionNumber: configuration.connectionNumber, guid: configuration.guid,
                    name: configuration.friendlyName
                ).encoded)
            while !Task.isCancelled {
                let header = try await readHeader(timeout: timeout)
                let body = try await command.read(
                    exactly: Int(header.length) - USBContainerHeader.byteCount, timeout: timeout)
                guard header.type == .command, body.count % 4 == 0, body.count / 4 <= USBContainer.maxParameters else {
                    return await closeAll()
                }
                try await serve(
                    PTPRequest(
                        code: OperationCode(rawValue: header.code), transactionID: header.transactionID,
                        parameters: Self.words(body)))
            }
        } catch {
            await closeAll()
        }
    }

    private func closeAll() async {
        await command.stream.close()
        await event?.close()
        await liveView?.close()
    }

    private func readHeader(timeout: Duration) async throws -> USBContainerHeader {
        var reader = WireReader(
            try await command.read(exactly: USBContainerHeader.byteCount, timeout: timeout)[...], byteOrder: .little)
        let header = try USBContainerHeader(from: &reader)
        guard header.length >= UInt32(USBContainerHeader.byteCount) else {
            throw WireError(.invalidValue, at: 0, "container length \(header.length)")
        }
        return header
    }

    private func serve(_ request: PTPRequest) async throws {
        transcript.append(request)
        var dataOut: [UInt8]?
        if await responder.expectsDataOut(request) {
            let header = try await readHeader(timeout: .seconds(60))
            let count = Int(header.length) - USBContainerHeader.byteCount
            guard header.type == .data, header.transactionID == request.transactionID,
                count <= configuration.maxDataOutByteCount
            else {
                throw WireError(.invalidValue, at: 0, "expected the data of \(request.code), got \(header.type)")
            }
            dataOut = try await command.read(exactly: count, timeout: .seconds(60))
        }
        let reply = await responder.respond(to: request, dataOut: dataOut)
        if reply.linkFault != nil {
            // A stall or a cut cable: Wi-Fi's nearest failure is a connection that closes without an answer.
            throw ByteStreamError(.closed, "fault during \(request.code)")
        }
        if reply.code == .ok, let source = reply.dataIn {
            let total = source.byteCount
            try await command.stream.send(
                USBContainerHeader.data(
                    code: request.code.rawValue, transactionID: request.transactionID, payloadByteCount: total
                ).usbEncoded)
            var offset: UInt64 = 0
            while offset < total {
                let chunk = try await source.read(at: offset, maxByteCount: configuration.chunkByteCount)
                guard !chunk.isEmpty else { throw ByteStreamError(.ioError, "data source ended early") }
                try await command.stream.send(chunk)
                offset += UInt64(chunk.count)
            }
        }
        var writer = WireWriter(byteOrder: .little)
        USBContainerHeader(
            length: UInt32(USBContainerHeader.byteCount + 4 * reply.parameters.count), type: .response,
            code: reply.code.rawValue, transactionID: request.transactionID
        ).encode(into: &writer)
        for parameter in reply.parameters { writer.write(parameter) }
        try await command.stream.send(writer.bytes)
    }

    private static func words(_ bytes: [UInt8]) -> [UInt32] {
        var reader = WireReader(bytes[...], byteOrder: .little)
        var words: [UInt32] = []
        while reader.remainingCount >= 4, let word = try? reader.read(UInt32.self) { words.append(word) }
        return words
    }
}
