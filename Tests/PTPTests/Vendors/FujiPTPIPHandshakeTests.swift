import Testing
import WireFormat

@testable import PTP

/// Fujifilm's Wi-Fi handshake packets (libgphoto2 `fujiptpip.c`), byte for byte, and hostile variants.
@Suite struct FujiPTPIPHandshakeTests {
    // 16 bytes always make a GUID; a random one would fail every byte comparison below.
    static let guid = PTPIPGUID(Array(0x10...0x1F)) ?? .random()

    /// Init Command Request for host "ab": length 34, type 1, Fujifilm's magic, GUID, "ab" in UCS-2 with its NUL.
    static let request: [UInt8] =
        [0x22, 0x00, 0x00, 0x00]  // length 34
        + [0x01, 0x00, 0x00, 0x00]  // type: Init Command Request
        + [0xF2, 0xE4, 0x53, 0x8F]  // protocol version 0x8F53E4F2
        + Array(0x10...0x1F)  // GUID
        + [0x61, 0x00, 0x62, 0x00, 0x00, 0x00]  // "ab", NUL

    @Test func theRequestEncodesAsLibgphoto2SendsIt() throws {
        let request = FujiPTPIPHandshake.Request(guid: Self.guid, name: "ab")
        #expect(request.encoded == Self.request)
        #expect(try FujiPTPIPHandshake.Request(packet: Self.request) == request)
    }

    @Test func theAckAndTheFailRoundTrip() throws {
        let ack = FujiPTPIPHandshake.Answer.ack(connectionNumber: 7, guid: Self.guid, name: "X-T2")
        #expect(try FujiPTPIPHandshake.Answer(packet: ack.encoded) == ack)
        let fail = FujiPTPIPHandshake.Answer.fail(reason: 1)
        #expect(fail.encoded == [0x0C, 0, 0, 0, 0x05, 0, 0, 0, 0x01, 0, 0, 0])
        #expect(try FujiPTPIPHandshake.Answer(packet: fail.encoded) == fail)
    }

    @Test func everyTruncationThrows() {
        for length in 0..<Self.request.count {
            #expect(throws: WireError.self, "prefix of \(length) bytes") {
                try FujiPTPIPHandshake.Request(packet: Array(Self.request.prefix(length)))
            }
        }
    }

    @Test func hostileLengthsAndTypesAreRefused() {
        var huge = Self.request
        huge[0...3] = [0xFF, 0xFF, 0xFF, 0x7F]
        #expect(throws: WireError.self) { try FujiPTPIPHandshake.Request(packet: huge) }
        var wrongType = Self.request
        wrongType[4] = 2
        #expect(throws: WireError.self) { try FujiPTPIPHandshake.Request(packet: wrongType) }
        #expect(throws: WireError.self) { try FujiPTPIPHandshake.Answer(packet: Self.request) }
        var unterminated = Self.request
        unterminated.removeLast(2)
        unterminated[0] = UInt8(unterminated.count)
        #expect(throws: WireError.self) { try FujiPTPIPHandshake.Request(packet: unterminated) }
    }

    /// The transport against the device side in memory: a responder that is not Fujifilm-aware still answers, data
    /// phases flow both ways, and a host speaking plain PTP/IP is turned away.
    @Test func theTransportRunsTransactionsAgainstTheDeviceSide() async throws {
        let responder = EchoResponder()
        let (host, camera) = InMemoryByteStream.pair()
        let device = FujiPTPIPDeviceSide(command: camera, responder: responder)
        let serving = Task { await device.run() }
        let transport = try await FujiPTPIPTransport.connect(
            command: host, identity: .init(guid: Self.guid, friendlyName: "test"), timeout: .seconds(5))
        #expect(transport.cameraName == "X-T2")
        let sink = PTPMemorySink()
        let first = try await transport.transact(
            PTPRequest(code: .getDeviceInfo, transactionID: 0), dataOut: nil, dataIn: sink, timeout: .seconds(5))
        #expect(first.code == .ok)
        #expect(await sink.bytes == Array(0..<200).map { UInt8($0) })
        let second = try await transport.transact(
            PTPRequest(code: .setDevicePropValue, transactionID: 1, parameters: [0x5004]),
            dataOut: PTPBytesSource([9, 8, 7]), dataIn: nil, timeout: .seconds(5))
        #expect(second.code == .ok && second.parameters == [3])
        #expect(await device.initiator?.name == "test")
        await transport.close()
        await host.disconnect()
        await serving.value
    }

    /// A body in tether mode refuses the first Init Command Request and accepts it sent again on the same
    /// connection (libgphoto2 commit 29ee7d740): the device side does, and the transport asks twice.
    @Test func theFirstRequestIsRefusedAndTheSecondAccepted() async throws {
        let (host, camera) = InMemoryByteStream.pair()
        let device = FujiPTPIPDeviceSide(command: camera, responder: EchoResponder())
        let serving = Task { await device.run() }
        let hello = FujiPTPIPHandshake.Request(guid: Self.guid, name: "gphoto2").encoded
        let buffer = ByteStreamBuffer(host)
        func answer() async throws -> FujiPTPIPHandshake.Answer {
            let head = try await buffer.read(exactly: 4, timeout: .seconds(5))
            let length = try FujiPTPIPHandshake.announcedLength(head)
            return try FujiPTPIPHandshake.Answer(packet: head + (try await buffer.read(exactly: length - 4, timeout: .seconds(5))))
        }
        try await host.send(hello)
        #expect(try await answer() == .fail(reason: 0x2019))
        try await host.send(hello)
        guard case .ack(_, _, let name) = try await answer() else {
            Issue.record("the second request was not acknowledged")
            return
        }
        #expect(name == "X-T2")
        await host.disconnect()
        await serving.value
    }

    /// A camera that refuses twice turns the host away with `.rejected`, after exactly two requests.
    @Test func twoRefusalsAreARejection() async throws {
        let (host, camera) = InMemoryByteStream.pair()
        let refusing = Task {
            let buffer = ByteStreamBuffer(camera)
            for _ in 0..<2 {
                let head = try await buffer.read(exactly: 4, timeout: .seconds(5))
                _ = try await buffer.read(exactly: try FujiPTPIPHandshake.announcedLength(head) - 4, timeout: .seconds(5))
                try await camera.send(FujiPTPIPHandshake.Answer.fail(reason: 3).encoded)
            }
        }
        await #expect {
            _ = try await FujiPTPIPTransport.connect(
                command: host, identity: .init(guid: Self.guid, friendlyName: "test"), timeout: .seconds(5),
                retryPause: .milliseconds(1))
        } throws: { error in
            (error as? TransportError)?.code == .rejected
        }
        try await refusing.value
    }

    /// Live view on its own connection: blobs are pushed once it is attached, and the transport reads them.
    @Test func liveViewBlobsFlowFromTheDeviceSideToTheTransport() async throws {
        let (host, _, serving, transport) = try await Self.connectWithLiveView(FrameResponder())
        #expect(await transport.liveViewConnectionIsOpen == false)
        let opened = try await transport.transact(
            PTPRequest(code: .initiateOpenCapture, transactionID: 1, parameters: [0, 0]), dataOut: nil, dataIn: nil,
            timeout: .seconds(5))
        #expect(opened.code == .ok)
        #expect(await transport.liveViewConnectionIsOpen)
        for _ in 0..<3 {
            let blob = try await transport.nextLiveViewBlob(timeout: .seconds(5))
            #expect(blob.count == FujifilmPTPIP.liveViewHeaderByteCount + FrameResponder.jpeg.count)
            #expect(Array(blob.dropFirst(FujifilmPTPIP.liveViewHeaderByteCount)) == FrameResponder.jpeg)
        }
        await transport.close()
        await host.disconnect()
        await serving.value
    }

    /// A blob length out of bounds ends the live-view connection with a protocol error, not an allocation.
    @Test func aHostileBlobLengthIsRefused() async throws {
        #expect(throws: WireError.self) { try FujifilmPTPIP.liveViewBlobLength([0, 0, 0, 0]) }
        #expect(throws: WireError.self) { try FujifilmPTPIP.liveViewBlobLength([0xFF, 0xFF, 0xFF, 0xFF]) }
        #expect(try FujifilmPTPIP.liveViewBlobLength([18, 0, 0, 0]) == 18)
        let blob = FujifilmPTPIP.liveViewBlob(jpeg: [0xFF, 0xD8, 0xFF, 0xD9])
        #expect(blob.count == 4 + 14 + 4)
        #expect(try FujifilmPTPIP.liveViewBlobLength(Array(blob.prefix(4))) == blob.count)
    }

    /// After OpenSession over Fujifilm's Wi-Fi variant the session runs libgphoto2's Wi-Fi start: InitSequence 5,
    /// AppVersion read and written back, InitiateOpenCapture (which opens the event and live-view connections).
    @Test func openingASessionRunsTheWiFiStart() async throws {
        let (host, device, serving, transport) = try await Self.connectWithLiveView(WiFiStartResponder())
        let session = PTPSession(transport: transport)
        try await session.openSession()
        let requests = await device.transcript
        #expect(requests.map(\.code) == [.openSession, .setDevicePropValue, .getDevicePropValue, .setDevicePropValue, .initiateOpenCapture])
        #expect(requests[1].parameters == [0xDF01] && requests[2].parameters == [0xDF24])
        #expect(await WiFiStartResponder.written.values == [[5, 0], [4, 0, 2, 0]])
        #expect(await transport.liveViewConnectionIsOpen)
        await transport.close()
        await host.disconnect()
        await serving.value
    }

    /// The transport against the device side in memory, with a live-view connection the device side serves.
    static func connectWithLiveView(_ responder: any PTPResponder) async throws -> (
        InMemoryByteStream, FujiPTPIPDeviceSide, Task<Void, Never>, FujiPTPIPTransport
    ) {
        let (host, camera) = InMemoryByteStream.pair()
        let (hostLive, cameraLive) = InMemoryByteStream.pair()
        let device = FujiPTPIPDeviceSide(command: camera, responder: responder)
        let serving = Task { await device.run() }
        let transport = try await FujiPTPIPTransport.connect(
            command: host,
            openLiveViewStream: {
                await device.attachLiveViewConnection(cameraLive)
                return hostLive
            }, identity: .init(guid: Self.guid, friendlyName: "test"), timeout: .seconds(5),
            retryPause: .milliseconds(1))
        return (host, device, serving, transport)
    }

    @Test func aPlainPTPIPHostIsTurnedAway() async throws {
        let (host, camera) = InMemoryByteStream.pair()
        let device = FujiPTPIPDeviceSide(command: camera, responder: EchoResponder())
        let serving = Task { await device.run() }
        let plain = FujiPTPIPHandshake.Request(guid: Self.guid, name: "gphoto2", protocolVersion: 0x0001_0000)
        try await host.send(plain.encoded)
        let answer = try await host.receive(maxLength: 64, timeout: .seconds(5))
        #expect(try FujiPTPIPHandshake.Answer(packet: answer) == .fail(reason: 1))
        await serving.value
    }
}

/// Answers GetDeviceInfo with 200 counting bytes and SetDevicePropValue with the data's length as a parameter.
private struct EchoResponder: PTPResponder {
    func respond(to request: PTPRequest, dataOut: [UInt8]?) async -> PTPResponderReply {
        switch request.code {
        case .getDeviceInfo: .data(Array(0..<200).map { UInt8($0) })
        case .setDevicePropValue: PTPResponderReply(.ok, parameters: [UInt32(dataOut?.count ?? 0)])
        default: PTPResponderReply(.operationNotSupported)
        }
    }
}

/// A Fujifilm-like responder whose live view always has a frame: InitiateOpenCapture answers OK.
private struct FrameResponder: StreamedLiveViewResponder {
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDB, 1, 2, 3, 0xFF, 0xD9]
    func respond(to request: PTPRequest, dataOut: [UInt8]?) async -> PTPResponderReply {
        request.code == .initiateOpenCapture ? PTPResponderReply() : PTPResponderReply(.operationNotSupported)
    }
    func streamedLiveViewFrame() async -> [UInt8]? {
        try? await Task.sleep(for: .milliseconds(2))
        return Self.jpeg
    }
}

/// Answers the Wi-Fi start as a body does: AppVersion 0x00020004, every write accepted and kept.
private struct WiFiStartResponder: PTPResponder {
    actor Written {
        var values: [[UInt8]] = []
        func add(_ bytes: [UInt8]) { values.append(bytes) }
    }
    static let written = Written()
    func respond(to request: PTPRequest, dataOut: [UInt8]?) async -> PTPResponderReply {
        switch request.code {
        case .getDevicePropValue: return .data([4, 0, 2, 0])
        case .setDevicePropValue:
            await Self.written.add(dataOut ?? [])
            return PTPResponderReply()
        default: return PTPResponderReply()
        }
    }
}
