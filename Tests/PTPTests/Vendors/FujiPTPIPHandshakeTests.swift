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
