import PTP
import Testing
import WireFormat

/// PTP/IP through in-memory streams: the real transport against the real device side.
@Suite struct PTPIPTransportTests {
    private func transact(
        _ stack: PTPIPStack, _ code: OperationCode, tid: UInt32, _ parameters: [UInt32] = [], dataOut: [UInt8]? = nil,
        sink: CollectingSink? = nil
    ) async throws -> PTPResponse {
        try await stack.transport.transact(
            PTPRequest(code: code, transactionID: tid, parameters: parameters),
            dataOut: dataOut.map(PTPBytesSource.init),
            dataIn: sink, timeout: .seconds(2))
    }

    @Test func handshakeExchangesIdentities() async throws {
        let guid = try #require(PTPIPGUID(Array(repeating: 0xAB, count: 16)))
        let stack = try await PTPIPStack.connect(
            device: .init(guid: guid, friendlyName: "DSC-RX100M7", connectionNumber: 7))
        #expect(stack.transport.responder.connectionNumber == 7)
        #expect(stack.transport.responder.friendlyName == "DSC-RX100M7")
        #expect(stack.transport.responder.guid == guid)
        #expect(stack.transport.responder.protocolVersion == 0x0001_0000)
        let initiator = await stack.device.initiator
        #expect(initiator?.guid == PTPIPStack.hostGUID && initiator?.friendlyName == "rawcap-test")
        #expect(try await transact(stack, .openSession, tid: 0, [1]).code == .ok)
        await stack.stop()
    }

    @Test func anAckWithoutVersionIsAccepted() async throws {
        let stack = try await PTPIPStack.connect(device: .init(protocolVersion: nil))
        #expect(stack.transport.responder.protocolVersion == nil)
        await stack.stop()
    }

    @Test(arguments: [PTPIPInitFailReason.busy, .rejectedInitiator, PTPIPInitFailReason(rawValue: 99)])
    func initFailIsAClearError(reason: PTPIPInitFailReason) async throws {
        let error = await #expect(throws: TransportError(.rejected)) {
            _ = try await PTPIPStack.connect(device: .init(rejection: reason))
        }
        #expect((error?.underlyingError as? PTPIPInitFailure)?.reason == reason)
        #expect(error?.description.contains("\(reason)") == true)
    }

    @Test(arguments: [
        (PTPIPDeviceSide.DataEnding.emptyEndData, 64 * 1024), (.payloadInEndData, 64 * 1024),
        (.payloadInEndData, 1 << 24),
        (.emptyEndData, 7),
    ])
    func bothDataPhaseEndingsAreAccepted(ending: PTPIPDeviceSide.DataEnding, packet: Int) async throws {
        for size in [0, 1, 7, 1000, 200_000] {
            let stack = try await PTPIPStack.connect(device: .init(dataEnding: ending, dataPacketByteCount: packet))
            #expect(try await transact(stack, .openSession, tid: 0, [1]).code == .ok)
            let handle = await stack.responder.add(ObjectInfo(), data: PatternSource(byteCount: UInt64(size)))
            let sink = CollectingSink()
            let response = try await transact(stack, .getObject, tid: 1, [handle.rawValue], sink: sink)
            #expect(response.code == .ok)
            #expect(
                await sink.bytes == PatternSource.bytes(0..<size), "\(ending), \(packet)-byte packets, \(size) bytes")
            #expect(await sink.announced == [UInt64(size)])
            await stack.stop()
        }
    }

    @Test func anUnannouncedLengthIsAccepted() async throws {
        let stack = try await PTPIPStack.connect(device: .init(announcesTotalLength: false))
        _ = try await transact(stack, .openSession, tid: 0, [1])
        let handle = await stack.responder.add(ObjectInfo(), data: PatternSource(byteCount: 300_000))
        let sink = CollectingSink()
        _ = try await transact(stack, .getObject, tid: 1, [handle.rawValue], sink: sink)
        #expect(await sink.announced == [nil])
        #expect(await sink.bytes.count == 300_000)
        await stack.stop()
    }

    @Test(arguments: [0, 1, 64 * 1024, 64 * 1024 + 1, 1 << 20])
    func hostDataPhasesArrive(size: Int) async throws {
        let stack = try await PTPIPStack.connect()
        _ = try await transact(stack, .openSession, tid: 0, [1])
        let bytes = PatternSource.bytes(0..<size)
        #expect(try await transact(stack, .sendObject, tid: 1, dataOut: bytes).code == .ok)
        #expect(await stack.responder.lastDataOut == bytes)
        await stack.stop()
    }

    @Test func aStreamSplitAtEveryByteStillFrames() async throws {
        let stack = try await PTPIPStack.connect()
        _ = try await transact(stack, .openSession, tid: 0, [1])
        let handle = await stack.responder.add(ObjectInfo(), data: PatternSource(byteCount: 300))
        await stack.device.inject(.byteByByte)
        let sink = CollectingSink()
        #expect(try await transact(stack, .getObject, tid: 1, [handle.rawValue], sink: sink).code == .ok)
        #expect(await sink.bytes == PatternSource.bytes(0..<300))
        await stack.stop()
    }

    @Test func olderResponsesAreSkippedAndWrongIDsAreViolations() async throws {
        let stack = try await PTPIPStack.connect()
        _ = try await transact(stack, .openSession, tid: 0, [1])
        await stack.device.inject(.repeatPreviousResponse)
        #expect(try await transact(stack, .getStorageIDs, tid: 1, sink: CollectingSink()).transactionID == 1)
        await stack.device.inject(.transactionID(40))
        let error = await #expect(throws: PTPError(.protocolViolation)) {
            _ = try await transact(stack, .getStorageIDs, tid: 2, sink: CollectingSink())
        }
        #expect(error?.violation == .transactionIDMismatch)
        await stack.stop()
    }

    @Test func moreDataThanAnnouncedIsAViolation() async throws {
        let stack = try await PTPIPStack.connect()
        _ = try await transact(stack, .openSession, tid: 0, [1])
        let handle = await stack.responder.add(ObjectInfo(), data: PatternSource(byteCount: 100))
        await stack.device.inject(.extraDataBytes(5))
        let error = await #expect(throws: PTPError(.protocolViolation)) {
            _ = try await transact(stack, .getObject, tid: 1, [handle.rawValue], sink: CollectingSink())
        }
        #expect(error?.violation == .dataPhaseTooLong)
        await stack.stop()
    }

    @Test func aDisconnectInTheMiddleOfADataPhaseKeepsThePrefix() async throws {
        let stack = try await PTPIPStack.connect()
        _ = try await transact(stack, .openSession, tid: 0, [1])
        let handle = await stack.responder.add(ObjectInfo(), data: PatternSource(byteCount: 500_000))
        await stack.device.inject(.disconnect(afterBytes: 200_000))
        let sink = CollectingSink()
        let error = await #expect(throws: TransportError(.disconnected)) {
            _ = try await transact(stack, .getObject, tid: 1, [handle.rawValue], sink: sink)
        }
        #expect((error?.underlyingError as? ByteStreamError)?.code == .closed)
        #expect(await sink.bytes == PatternSource.bytes(0..<200_000))
        await #expect(throws: TransportError(.disconnected)) { _ = try await transact(stack, .getStorageIDs, tid: 2) }
        await stack.stop()
    }

    @Test func aTimeoutLeavesTheConnectionUsable() async throws {
        let stack = try await PTPIPStack.connect()
        _ = try await transact(stack, .openSession, tid: 0, [1])
        // The device answers 3 s late; the host waits 100 ms. The margin is wide so a loaded machine (a full test
        // run on 2 busy cores) still sees the timeout first; 400 ms against 100 ms failed under load.
        await stack.device.inject(.delay(.seconds(3)))
        await #expect(throws: TransportError(.timeout)) {
            _ = try await stack.transport.transact(
                PTPRequest(code: .getStorageIDs, transactionID: 1), dataOut: nil, dataIn: CollectingSink(),
                timeout: .milliseconds(100))
        }
        // The late answer to transaction 1 arrives first and is skipped (a wait longer than the device's delay).
        let sink = CollectingSink()
        let response = try await stack.transport.transact(
            PTPRequest(code: .getStorageIDs, transactionID: 2), dataOut: nil, dataIn: sink, timeout: .seconds(10))
        #expect(response.code == .ok)
        #expect(await sink.bytes == StorageIDArray([StorageID(rawValue: 0x0001_0001)]).ptpEncoded)
        await stack.stop()
    }

    @Test func eventsArriveAndProbesAreAnswered() async throws {
        let stack = try await PTPIPStack.connect()
        #expect(try await stack.transport.nextEvent(timeout: .milliseconds(50)) == nil)
        try await stack.device.probe()
        try await stack.device.emit(PTPEvent(code: .objectAdded, parameters: [0x105]))
        let event = try await stack.transport.nextEvent(timeout: .seconds(1))
        #expect(event == PTPEvent(code: .objectAdded, parameters: [0x105]))
        // The probe was answered on the way to the event.
        var answered = 0
        for _ in 0..<100 where answered == 0 {
            answered = await stack.device.probeResponseCount
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(answered == 1)
        await stack.responder.emit(PTPEvent(code: .Sony.objectAdded, parameters: [0xFFFF_C001]))
        #expect(try await stack.transport.nextEvent(timeout: .seconds(1))?.code == EventCode(0xC201))
        await stack.stop()
    }

    @Test func cancellingSendsACancelPacket() async throws {
        let stack = try await PTPIPStack.connect()
        _ = try await transact(stack, .openSession, tid: 0, [1])
        await stack.device.inject(.delay(.milliseconds(300)))
        let pending = Task { try await transact(stack, .getStorageIDs, tid: 1, sink: CollectingSink()) }
        try await Task.sleep(for: .milliseconds(50))
        await stack.transport.cancel()
        await #expect(throws: TransportError(.cancelled)) { _ = try await pending.value }
        // Transaction 2 works; the stale answer of 1 is skipped.
        #expect(try await transact(stack, .getStorageIDs, tid: 2, sink: CollectingSink()).code == .ok)
        await stack.stop()
    }

    @Test func aSinkThatRefusesDataLeavesTheConnectionUsable() async throws {
        let stack = try await PTPIPStack.connect()
        _ = try await transact(stack, .openSession, tid: 0, [1])
        let handle = await stack.responder.add(ObjectInfo(), data: PatternSource(byteCount: 400_000))
        await #expect(throws: PTPError(.protocolViolation)) {
            _ = try await stack.transport.transact(
                PTPRequest(code: .getObject, transactionID: 1, parameters: [handle.rawValue]), dataOut: nil,
                dataIn: PTPMemorySink(limit: 1000), timeout: .seconds(2))
        }
        // The rest of transaction 1 is skipped; transaction 2 gets its own answer.
        let sink = CollectingSink()
        #expect(try await transact(stack, .getStorageIDs, tid: 2, sink: sink).code == .ok)
        #expect(await sink.bytes == StorageIDArray([StorageID(rawValue: 0x0001_0001)]).ptpEncoded)
        await stack.stop()
    }

    // MARK: Issue 7: payloads streamed to the sink as they arrive

    /// A data phase written to the socket in pieces that cut packets anywhere (4093 bytes at a time) arrives whole.
    @Test func aDataPhaseCutAcrossManyReceivesReassembles() async throws {
        let (transport, camera) = try await ScriptedCamera.connect()
        let size = 300_000
        let reply = Task {
            guard case .operationRequest(_, .getObject, let id, _) = try await camera.nextPacket() else {
                throw PTPError(.unexpectedContainer, "expected GetObject")
            }
            var bytes = PTPIPPacket.startData(transactionID: id, totalLength: UInt64(size)).ptpipEncoded
            for start in stride(from: 0, to: size, by: 65_536) {
                let payload = PatternSource.bytes(start..<min(size, start + 65_536))
                bytes += PTPIPPacket.data(transactionID: id, payload: payload).ptpipEncoded
            }
            bytes += PTPIPPacket.endData(transactionID: id, payload: []).ptpipEncoded
            bytes += PTPIPPacket.operationResponse(code: .ok, transactionID: id, parameters: []).ptpipEncoded
            for start in stride(from: 0, to: bytes.count, by: 4093) {
                try await camera.send(Array(bytes[start..<min(bytes.count, start + 4093)]))
            }
        }
        let sink = CollectingSink()
        let response = try await transport.transact(
            PTPRequest(code: .getObject, transactionID: 1, parameters: [1]), dataOut: nil, dataIn: sink,
            timeout: .seconds(5))
        try await reply.value
        #expect(response.code == .ok)
        #expect(await sink.bytes == PatternSource.bytes(0..<size))
        await transport.close()
    }

    /// A Data packet whose Length claims more than Start Data announced fails at its header: none of its bytes
    /// reach the sink, and the transport does not wait for the megabytes it claims.
    @Test func issue7_aDataLengthBeyondStartDataFailsAtItsHeader() async throws {
        let (transport, camera) = try await ScriptedCamera.connect()
        let reply = Task {
            guard case .operationRequest(_, _, let id, _) = try await camera.nextPacket() else {
                throw PTPError(.unexpectedContainer, "expected a request")
            }
            var bytes = PTPIPPacket.startData(transactionID: id, totalLength: 100).ptpipEncoded
            bytes += PTPIPPacket.data(transactionID: id, payload: Array(repeating: 1, count: 60)).ptpipEncoded
            // Data, 48 MiB claimed; 20 bytes follow.
            bytes +=
                [0x0C, 0x00, 0x00, 0x03, 0x0A, 0x00, 0x00, 0x00] + withUnsafeBytes(of: id.littleEndian, Array.init)
            bytes += Array(repeating: 2, count: 20)
            try await camera.send(bytes)
        }
        let sink = CollectingSink()
        let start = ContinuousClock.now
        let error = await #expect(throws: PTPError(.protocolViolation)) {
            _ = try await transport.transact(
                PTPRequest(code: .getObject, transactionID: 1, parameters: [1]), dataOut: nil, dataIn: sink,
                timeout: .seconds(20))
        }
        #expect(error?.violation == .dataPhaseTooLong)
        #expect(ContinuousClock.now - start < .seconds(10))
        #expect(await sink.bytes == Array(repeating: 1, count: 60))
        try await reply.value
        await transport.close()
    }

    /// A Data packet over the packet limit is a malformed stream as soon as its header arrives; the connection is
    /// given up.
    @Test func issue7_aDataLengthOverThePacketLimitIsMalformed() async throws {
        let (transport, camera) = try await ScriptedCamera.connect()
        let reply = Task {
            guard case .operationRequest(_, _, let id, _) = try await camera.nextPacket() else {
                throw PTPError(.unexpectedContainer, "expected a request")
            }
            var bytes = PTPIPPacket.startData(transactionID: id, totalLength: PTPIPPacket.unknownTotalLength)
                .ptpipEncoded
            bytes += [0x01, 0x00, 0x00, 0x04, 0x0A, 0x00, 0x00, 0x00]  // Data, 64 MiB + 1
            try await camera.send(bytes)
        }
        let error = await #expect(throws: PTPError(.protocolViolation)) {
            _ = try await transport.transact(
                PTPRequest(code: .getObject, transactionID: 1, parameters: [1]), dataOut: nil,
                dataIn: CollectingSink(), timeout: .seconds(20))
        }
        #expect(error?.violation == .malformedContainer)
        try await reply.value
        await #expect(throws: PTPError(.protocolViolation)) {
            _ = try await transport.transact(
                PTPRequest(code: .getStorageIDs, transactionID: 2), dataOut: nil, dataIn: CollectingSink(),
                timeout: .seconds(1))
        }
        await transport.close()
    }
}

/// The camera end of a PTP/IP connection written by hand: the handshake, then whatever bytes a test sends, for
/// packets the device side would never produce.
struct ScriptedCamera {
    let command: InMemoryByteStream
    let decoder = DecoderBox()

    final class DecoderBox: @unchecked Sendable {
        var decoder = PTPIPFrameDecoder()
    }

    static func connect() async throws -> (PTPIPTransport, ScriptedCamera) {
        let (hostCommand, deviceCommand) = InMemoryByteStream.pair()
        let (hostEvent, deviceEvent) = InMemoryByteStream.pair()
        let camera = ScriptedCamera(command: deviceCommand)
        let handshake = Task {
            _ = try await camera.nextPacket()
            try await deviceCommand.send(
                PTPIPPacket.initCommandAck(.init(connectionNumber: 1, guid: PTPIPStack.hostGUID, friendlyName: "S"))
                    .ptpipEncoded)
            var events = PTPIPFrameDecoder()
            while try events.decode() == nil {
                events.append(try await deviceEvent.receive(maxLength: 1024, timeout: .seconds(5)))
            }
            try await deviceEvent.send(PTPIPPacket.initEventAck.ptpipEncoded)
        }
        let transport = try await PTPIPTransport.connect(
            command: hostCommand, openEventStream: { hostEvent },
            identity: .init(guid: PTPIPStack.hostGUID, friendlyName: "rawcap-test"), timeout: .seconds(5))
        try await handshake.value
        return (transport, camera)
    }

    /// The host's next packet on the command connection.
    func nextPacket() async throws -> PTPIPPacket {
        while true {
            if let packet = try decoder.decoder.decode() { return packet }
            decoder.decoder.append(try await command.receive(maxLength: 1 << 16, timeout: .seconds(5)))
        }
    }

    func send(_ bytes: [UInt8]) async throws { try await command.send(bytes) }
}
