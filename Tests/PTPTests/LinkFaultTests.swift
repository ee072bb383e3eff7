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
