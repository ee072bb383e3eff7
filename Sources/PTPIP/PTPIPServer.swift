import Logging
import PTP

/// The camera side of PTP/IP above the sockets: it takes each new connection, tells a command connection from an
/// event connection by its first packet, pairs them by connection number, and serves one client at a time with a
/// ``PTP/PTPIPDeviceSide`` and a fresh ``PTP/PTPResponder``.
///
/// ``PTPIPListener`` feeds it accepted TCP connections; tests feed it ``PTP/InMemoryByteStream``s. A client is:
///
/// 1. a connection whose first packet is Init Command Request: it gets the next connection number and a device
///    side, which answers with Init Command Ack;
/// 2. then a connection whose first packet is Init Event Request with that number: it becomes that client's event
///    connection (within ``Configuration/handshakeTimeout``).
///
/// While a client is being served, another Init Command Request is refused with Init Fail "Busy" (after
/// ``Configuration/busyGrace``, in case the first client was just leaving), as a camera
/// does; the next client is served once the first disconnects. A connection that says nothing within
/// ``Configuration/handshakeTimeout`` is dropped, in its own task, so a silent client never delays anyone else.
public actor PTPIPServer {
    /// Makes the responder for a new client: the same camera for all (an emulator keeps its state), or a fresh
    /// one each time (a replay starts from the top).
    public typealias ResponderFactory = @Sendable (PTPIPPacket.InitCommandRequest) async throws -> any PTPResponder

    /// Tuning.
    public struct Configuration: Sendable {
        /// The device side's identity and framing; its connection number is replaced per client.
        public var device: PTPIPDeviceSide.Configuration
        /// Longest wait for a new connection's first packet, and for a client's event connection after its Ack.
        public var handshakeTimeout: Duration
        /// The connection number of the first client; each later client gets the next one.
        public var firstConnectionNumber: UInt32
        /// How long a new client waits for the one being served to finish before it is told Busy: a client that
        /// has just closed its sockets (a script running gphoto2 twice in a row) is not noticed at once. Under
        /// gphoto2's 2.5 s read timeout.
        public var busyGrace: Duration

        /// Creates a configuration.
        public init(
            device: PTPIPDeviceSide.Configuration = .init(), handshakeTimeout: Duration = .seconds(10),
            firstConnectionNumber: UInt32 = 1, busyGrace: Duration = .seconds(1)
        ) {
            self.device = device
            self.handshakeTimeout = handshakeTimeout
            self.firstConnectionNumber = max(1, firstConnectionNumber)
            self.busyGrace = busyGrace
        }
    }

    /// One client served from start to end.
    public struct ClientRecord: Sendable, Hashable {
        /// Its connection number.
        public var connectionNumber: UInt32
        /// Its name from Init Command Request.
        public var friendlyName: String
        /// The requests it sent, in order.
        public var requests: [PTPRequest]
    }

    private let configuration: Configuration
    private let makeResponder: ResponderFactory
    private let logger: Logger
    private var nextConnectionNumber: UInt32
    private var active: (number: UInt32, task: Task<Void, Never>)?
    private var eventWaiter: (number: UInt32, continuation: CheckedContinuation<any ByteStream, any Error>)?
    private var parkedEvent: (number: UInt32, stream: any ByteStream)?
    private var activeEvent: (any ByteStream)?
    private var handshakes: [Int: Task<Void, Never>] = [:]
    private var nextHandshakeID = 0
    private var finishedWaiters: [CheckedContinuation<Void, Never>] = []
    private var stopped = false
    private var starting = false

    /// Clients served to the end, oldest first.
    public private(set) var finishedClients: [ClientRecord] = []
    /// Init Command Requests refused because a client was being served.
    public private(set) var refusedBusyCount = 0

    /// Creates a server; `makeResponder` is called once per client.
    public init(
        configuration: Configuration = Configuration(), logger: Logger = Logger(label: "rawcap.ptpip.server"),
        makeResponder: @escaping ResponderFactory
    ) {
        self.configuration = configuration
        self.makeResponder = makeResponder
        self.logger = logger
        nextConnectionNumber = configuration.firstConnectionNumber
    }

    /// Creates a server whose clients all talk to the same responder.
    public init(
        responder: any PTPResponder, configuration: Configuration = Configuration(),
        logger: Logger = Logger(label: "rawcap.ptpip.server")
    ) {
        self.init(configuration: configuration, logger: logger) { _ in responder }
    }

    /// Whether a client is being served.
    public var isServing: Bool { active != nil }

    /// Takes a new connection of either kind; returns at once (the first packet is read in a task of its own).
    public func accept(_ connection: any ByteStream) async {
        guard !stopped else { return await connection.close() }
        let id = nextHandshakeID
        nextHandshakeID += 1
        handshakes[id] = Task { [weak self] in
            await self?.classify(connection)
            await self?.handshakeEnded(id)
        }
    }

    /// Waits until `count` clients have been served to the end.
    public func waitForFinishedClients(_ count: Int) async {
        while finishedClients.count < count && !stopped {
            await withCheckedContinuation { finishedWaiters.append($0) }
        }
    }

    /// Ends the client being served and every pending handshake; later connections are closed at once.
    public func stop() async {
        stopped = true
        for task in handshakes.values { task.cancel() }
        handshakes = [:]
        active?.task.cancel()
        await activeEvent?.close()
        eventWaiter?.continuation.resume(throwing: CancellationError())
        eventWaiter = nil
        if let parked = parkedEvent { await parked.stream.close() }
        parkedEvent = nil
        for waiter in finishedWaiters { waiter.resume() }
        finishedWaiters = []
    }

    // MARK: Handshake

    private func handshakeEnded(_ id: Int) { handshakes[id] = nil }

    private func classify(_ connection: any ByteStream) async {
        let first: (packet: PTPIPPacket, bytes: [UInt8])
        do {
            first = try await Self.readFirstPacket(connection, timeout: configuration.handshakeTimeout)
        } catch {
            logger.debug("dropping a connection before its first packet: \(error)")
            return await connection.close()
        }
        let stream = PrefixedByteStream(prefix: first.bytes, base: connection)
        switch first.packet {
        case .initCommandRequest(let hello):
            await startClient(stream, hello: hello)
        case .initEventRequest(let number):
            await attachEvent(stream, number: number)
        default:
            logger.notice("closing a connection that opened with \(first.packet)")
            await connection.close()
        }
    }

    // Unoptimised on purpose: Swift 6.3.1's optimizer crashes on this function (signal 11 while splitting the
    // coroutine, in `emitSetAndGetSwiftErrorValueAround`), which broke every `-c release` build.
    @_optimize(none)
    private static func readFirstPacket(_ connection: any ByteStream, timeout: Duration) async throws -> (
        PTPIPPacket, [UInt8]
    ) {
        let deadline = ContinuousClock.now + timeout
        var decoder = PTPIPFrameDecoder()
        var bytes: [UInt8] = []
        while true {
            if let packet = try decoder.decode() { return (packet, bytes) }
            let remaining = deadline - .now
            guard remaining > .zero else { throw ByteStreamError(.timeout, "no packet within \(timeout)") }
            let chunk = try await connection.receive(maxLength: 4096, timeout: remaining)
            bytes.append(contentsOf: chunk)
            decoder.append(chunk)
        }
    }

    private func startClient(_ command: PrefixedByteStream, hello: PTPIPPacket.InitCommandRequest) async {
        let deadline = ContinuousClock.now + configuration.busyGrace
        while (active != nil || starting) && !stopped && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        if active != nil || starting || stopped {
            refusedBusyCount += 1
            logger.notice("refusing \"\(hello.friendlyName)\": another client is connected")
            try? await command.send(PTPIPPacket.initFail(reason: .busy).ptpipEncoded)
            return await command.close()
        }
        let number = nextConnectionNumber
        nextConnectionNumber = nextConnectionNumber == .max ? 1 : nextConnectionNumber + 1
        // The actor is re-entered while the responder is made: no other client may start meanwhile.
        starting = true
        defer { starting = false }
        let responder: any PTPResponder
        do {
            responder = try await makeResponder(hello)
        } catch {
            logger.error("no responder for \"\(hello.friendlyName)\": \(error)")
            try? await command.send(PTPIPPacket.initFail(reason: .unspecified).ptpipEncoded)
            return await command.close()
        }
        var device = configuration.device
        device.connectionNumber = number
        let side = PTPIPDeviceSide(command: command, responder: responder, configuration: device)
        logger.info("serving \"\(hello.friendlyName)\" as connection \(number)")
        let task = Task { [weak self] in
            await side.run(eventStream: { [weak self] in
                guard let self else { throw CancellationError() }
                return try await self.eventConnection(for: number)
            })
            await self?.clientEnded(number, name: hello.friendlyName, requests: await side.transcript)
        }
        active = (number, task)
    }

    private func attachEvent(_ stream: PrefixedByteStream, number: UInt32) async {
        if let waiter = eventWaiter, waiter.number == number {
            eventWaiter = nil
            activeEvent = stream
            waiter.continuation.resume(returning: stream)
        } else if active?.number == number && activeEvent == nil && parkedEvent == nil {
            // The event connection overtook the device side, which has not asked for it yet.
            parkedEvent = (number, stream)
        } else {
            logger.notice("refusing an event connection for unknown connection number \(number)")
            try? await stream.send(PTPIPPacket.initFail(reason: .unspecified).ptpipEncoded)
            await stream.close()
        }
    }

    /// The device side's `eventStream` closure: the client's event connection, once it arrives.
    private func eventConnection(for number: UInt32) async throws -> any ByteStream {
        if let parked = parkedEvent, parked.number == number {
            parkedEvent = nil
            activeEvent = parked.stream
            return parked.stream
        }
        let timeout = configuration.handshakeTimeout
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            await self?.eventTimedOut(number)
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            eventWaiter = (number, continuation)
        }
    }

    private func eventTimedOut(_ number: UInt32) {
        guard let waiter = eventWaiter, waiter.number == number else { return }
        eventWaiter = nil
        logger.notice("connection \(number) opened no event connection in time")
        waiter.continuation.resume(throwing: ByteStreamError(.timeout, "no event connection for \(number)"))
    }

    private func clientEnded(_ number: UInt32, name: String, requests: [PTPRequest]) async {
        guard active?.number == number else { return }
        active = nil
        await activeEvent?.close()
        activeEvent = nil
        if let parked = parkedEvent, parked.number == number {
            await parked.stream.close()
            parkedEvent = nil
        }
        logger.info("connection \(number) (\"\(name)\") ended after \(requests.count) operations")
        finishedClients.append(ClientRecord(connectionNumber: number, friendlyName: name, requests: requests))
        for waiter in finishedWaiters { waiter.resume() }
        finishedWaiters = []
    }
}
