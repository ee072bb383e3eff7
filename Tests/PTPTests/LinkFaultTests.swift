import PTP
import Testing

/// A responder can ask its device side for a link failure in one reply (``PTPLinkFault``): the emulated camera's
/// `--fault stall=…` and `disconnect-after=…` rely on it.
@Suite struct LinkFaultTests {
    private func getObject(_ transport: any PTPTransport, tid: UInt32, sink: CollectingSink) async throws -> PTPResponse {
        try await transport.transact(
            PTPRequest(code: .getObject, transactionID: tid, parameters: [1]), dataOut: nil, dataIn: sink,
            timeout: .seconds(2))
    }

    private func open(_ transport: any PTPTransport) async throws {
        let response = try await transport.transact(
            PTPRequest(code: .openSession, transactionID: 0, parameters: [1]), dataOut: nil, dataIn: nil,
            timeout: .seconds(2))
        #expect(response.code == .ok)
    }

    @Test func aRequestedStallOverUSBIsClearedAndTheNextTransactionWorks() async throws {
        let stack = USBStack()
        try await open(stack.transport)
        await stack.responder.script(
            .getObject, PTPResponderReply(dataIn: PatternSource(byteCount: 3000), linkFault: .stall))
        await stack.responder.script(.getObject, PTPResponderReply(dataIn: PatternSource(byteCount: 3000)))
        await #expect(throws: TransportError(.stalled)) {
            _ = try await getObject(stack.transport, tid: 1, sink: CollectingSink())
        }
        let sink = CollectingSink()
        #expect(try await getObject(stack.transport, tid: 2, sink: sink).code == .ok)
        #expect(await sink.bytes == PatternSource.bytes(0..<3000))
        await stack.stop()
    }

    @Test func aRequestedDisconnectOverUSBDeliversExactlyThePrefix() async throws {
        let stack = USBStack()
        try await open(stack.transport)
        await stack.responder.script(
            .getObject, PTPResponderReply(dataIn: PatternSource(byteCount: 9000), linkFault: .disconnect(afterBytes: 4321)))
        let sink = CollectingSink()
        await #expect(throws: TransportError(.disconnected)) { _ = try await getObject(stack.transport, tid: 1, sink: sink) }
        #expect(await sink.bytes == PatternSource.bytes(0..<4321))
        await stack.stop()
    }

    @Test func anInjectedFaultTakesPrecedenceOverTheRequestedOne() async throws {
        let stack = USBStack()
        try await open(stack.transport)
        await stack.device.inject(.delay(.milliseconds(1)))
        await stack.responder.script(
            .getObject, PTPResponderReply(dataIn: PatternSource(byteCount: 100), linkFault: .stall))
        let sink = CollectingSink()
        #expect(try await getObject(stack.transport, tid: 1, sink: sink).code == .ok)
        #expect(await sink.bytes.count == 100)
        await stack.stop()
    }

    @Test func aRequestedStallOverPTPIPClosesTheConnection() async throws {
        let stack = try await PTPIPStack.connect()
        try await open(stack.transport)
        await stack.responder.script(
            .getObject, PTPResponderReply(dataIn: PatternSource(byteCount: 3000), linkFault: .stall))
        await #expect(throws: TransportError(.disconnected)) {
            _ = try await getObject(stack.transport, tid: 1, sink: CollectingSink())
        }
        await stack.stop()
    }

    @Test func aRequestedDisconnectOverPTPIPDeliversExactlyThePrefix() async throws {
        let stack = try await PTPIPStack.connect()
        try await open(stack.transport)
        await stack.responder.script(
            .getObject,
            PTPResponderReply(dataIn: PatternSource(byteCount: 200_000), linkFault: .disconnect(afterBytes: 70_001)))
        let sink = CollectingSink()
        await #expect(throws: TransportError(.disconnected)) { _ = try await getObject(stack.transport, tid: 1, sink: sink) }
        #expect(await sink.bytes == PatternSource.bytes(0..<70_001))
        await stack.stop()
    }
}

/// Events on an interrupt endpoint whose packets the event fills exactly.
@Suite struct InterruptEventTests {
    @Test(arguments: [8, 16, 64])
    func anEventOfWholePacketsEndsItsTransfer(packet: Int) async throws {
        // ObjectAdded with one parameter is 16 bytes: two 8-byte packets, one 16-byte packet, or a short 64-byte one.
        let stack = USBStack(interruptMaxPacketSize: packet)
        try await stack.device.emit(PTPEvent(code: .objectAdded, parameters: [5]))
        // libgphoto2 asks for 24 bytes at a time: the transfer must end after the event, not wait for more.
        let bytes = try await stack.pipe.readInterrupt(maxLength: max(24, packet), timeout: .seconds(1))
        #expect(bytes.count == 16)
        // rawcap's transport, reading a packet at a time, skips the zero-length packet and gets the next event.
        try await stack.device.emit(PTPEvent(code: .captureComplete, parameters: [9]))
        let event = try await stack.transport.nextEvent(timeout: .seconds(1))
        #expect(event == PTPEvent(code: .captureComplete, parameters: [9]))
        await stack.stop()
    }
}
