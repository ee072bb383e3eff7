import PTP
import Testing
import WireFormat

/// The USB framing through the in-memory pipe: the real transport against the real device side.
@Suite struct USBTransportTests {
    private func getObject(_ stack: USBStack, _ handle: ObjectHandle, tid: UInt32 = 0) async throws -> (
        [UInt8], PTPResponse
    ) {
        let sink = CollectingSink()
        let response = try await stack.transport.transact(
            PTPRequest(code: .getObject, transactionID: tid, parameters: [handle.rawValue]), dataOut: nil, dataIn: sink,
            // Generous: the in-memory device shares two cores with the whole parallel suite; no test here waits
            // for this timeout to expire.
            timeout: .seconds(10))
        return (await sink.bytes, response)
    }

    /// Opens a session on the responder directly (the transport tests speak raw transactions).
    private func open(_ stack: USBStack) async throws {
        let response = try await stack.transport.transact(
            PTPRequest(code: .openSession, transactionID: 0, parameters: [1]), dataOut: nil, dataIn: nil,
            timeout: .seconds(2))
        #expect(response.code == .ok)
    }

    @Test(arguments: [
        // Payload sizes around the 512-byte packet: container lengths 12 + n.
        0, 1, 499, 500, 501, 511, 512, 1012, 1024, 4096 - 12, 100_000, (1 << 20) - 12, (1 << 20) + 5,
    ])
    func dataPhasesOfEverySizeArriveIntact(size: Int) async throws {
        for zlp in [true, false] {
            let stack = USBStack(device: .init(sendsZeroLengthPackets: zlp))
            try await open(stack)
            let handle = await stack.responder.add(ObjectInfo(), data: PatternSource(byteCount: UInt64(size)))
            let (bytes, response) = try await getObject(stack, handle, tid: 1)
            #expect(response == PTPResponse(code: .ok, transactionID: 1))
            #expect(bytes == PatternSource.bytes(0..<size), "size \(size), ZLP \(zlp)")
            // The link is clean afterwards: the next transaction works.
            let (again, _) = try await getObject(stack, handle, tid: 2)
            #expect(again.count == size)
            await stack.stop()
        }
    }

    @Test(arguments: [8, 64, 1024])
    func otherPacketSizesWork(packet: Int) async throws {
        let stack = USBStack(maxPacketSize: packet)
        try await open(stack)
        let handle = await stack.responder.add(ObjectInfo(), data: PatternSource(byteCount: 3 * UInt64(packet) - 12))
        let (bytes, _) = try await getObject(stack, handle, tid: 1)
        #expect(bytes == PatternSource.bytes(0..<(3 * packet - 12)))
        await stack.stop()
    }

    @Test func aResponseInsteadOfDataIsReturned() async throws {
        let stack = USBStack()
        try await open(stack)
        let (bytes, response) = try await getObject(stack, ObjectHandle(rawValue: 0xDEAD), tid: 1)
        #expect(bytes.isEmpty)
        #expect(response.code == .invalidObjectHandle)
        await stack.stop()
    }

    @Test func strayZeroLengthPacketAndSplitHeaderAreTolerated() async throws {
        let stack = USBStack()
        try await open(stack)
        let handle = await stack.responder.add(ObjectInfo(), data: PatternSource(byteCount: 2000))
        await stack.device.inject(.strayZeroLengthPacket)
        #expect(try await getObject(stack, handle, tid: 1).0 == PatternSource.bytes(0..<2000))
        await stack.device.inject(.splitHeader)
        #expect(try await getObject(stack, handle, tid: 2).0 == PatternSource.bytes(0..<2000))
        await stack.stop()
    }

    @Test func anOlderDuplicatedResponseIsSkipped() async throws {
        let stack = USBStack()
        try await open(stack)
        let handle = await stack.responder.add(ObjectInfo(), data: PatternSource(byteCount: 10))
        _ = try await getObject(stack, handle, tid: 1)
        await stack.device.inject(.repeatPreviousResponse)
        let (bytes, response) = try await getObject(stack, handle, tid: 2)
        #expect(bytes.count == 10 && response.transactionID == 2)
        await stack.stop()
    }

    @Test func aWrongTransactionIDIsAProtocolViolation() async throws {
        let stack = USBStack()
        try await open(stack)
        let handle = await stack.responder.add(ObjectInfo(), data: PatternSource(byteCount: 10))
        await stack.device.inject(.transactionID(99))
        let error = await #expect(throws: PTPError(.protocolViolation)) {
            _ = try await getObject(stack, handle, tid: 1)
        }
        #expect(error?.violation == .transactionIDMismatch)
        #expect(error?.operation == .getObject)
        await stack.stop()
    }

    @Test func dataLongerThanAnnouncedIsAProtocolViolation() async throws {
        let stack = USBStack()
        try await open(stack)
        let handle = await stack.responder.add(ObjectInfo(), data: PatternSource(byteCount: 600))
        await stack.device.inject(.extraDataBytes(40))
        let error = await #expect(throws: PTPError(.protocolViolation)) {
            _ = try await getObject(stack, handle, tid: 1)
        }
        #expect(error?.violation == .malformedContainer)
        // Recovery (class Cancel, device status) leaves the link usable.
        #expect(try await getObject(stack, handle, tid: 2).0.count == 600)
        await stack.stop()
    }

    @Test func aDataPhaseNobodyAskedForIsAProtocolViolation() async throws {
        let stack = USBStack()
        try await open(stack)
        let handle = await stack.responder.add(ObjectInfo(), data: PatternSource(byteCount: 10))
        let error = await #expect(throws: PTPError(.protocolViolation)) {
            _ = try await stack.transport.transact(
                PTPRequest(code: .getObject, transactionID: 1, parameters: [handle.rawValue]), dataOut: nil,
                dataIn: nil,
                timeout: .seconds(2))
        }
        #expect(error?.violation == .unexpectedDataPhase)
        await stack.stop()
    }

    @Test func aStallOnBulkInIsClearedAndTheNextTransactionWorks() async throws {
        let stack = USBStack()
        try await open(stack)
        let handle = await stack.responder.add(ObjectInfo(), data: PatternSource(byteCount: 5000))
        await stack.device.inject(.stallBulkIn)
        let error = await #expect(throws: TransportError(.stalled)) { _ = try await getObject(stack, handle, tid: 1) }
        #expect((error?.underlyingError as? USBPipeError)?.code == .stall)
        #expect(error?.detail.contains("GeneralError") == true)
        #expect(try await getObject(stack, handle, tid: 2).0 == PatternSource.bytes(0..<5000))
        await stack.stop()
    }

    @Test func aSilentDeviceTimesOutAndIsCancelled() async throws {
        let stack = USBStack()
        try await open(stack)
        let handle = await stack.responder.add(ObjectInfo(), data: PatternSource(byteCount: 10_000))
        await stack.device.inject(.stopDataIn(afterBytes: 3000))
        let sink = CollectingSink()
        let error = await #expect(throws: TransportError(.timeout)) {
            _ = try await stack.transport.transact(
                PTPRequest(code: .getObject, transactionID: 1, parameters: [handle.rawValue]), dataOut: nil,
                dataIn: sink,
                timeout: .milliseconds(200))
        }
        #expect((error?.underlyingError as? USBPipeError)?.code == .timeout)
        // The sink got the whole packets that arrived (3000 bytes rounded down to 512-byte packets, minus the header).
        #expect(await sink.bytes == PatternSource.bytes(0..<(2560 - 12)))
        // The device heard the class Cancel request for transaction 1.
        #expect(await stack.responder.cancelledTransactions == [1])
        #expect(try await getObject(stack, handle, tid: 2).0.count == 10_000)
        await stack.stop()
    }

    @Test func aDisconnectInTheMiddleOfADataPhaseIsTypedAndKeepsThePrefix() async throws {
        let stack = USBStack()
        try await open(stack)
        let handle = await stack.responder.add(ObjectInfo(), data: PatternSource(byteCount: 50_000))
        await stack.device.inject(.disconnect(afterBytes: 20_000))
        let sink = CollectingSink()
        let error = await #expect(throws: TransportError(.disconnected)) {
            _ = try await stack.transport.transact(
                PTPRequest(code: .getObject, transactionID: 1, parameters: [handle.rawValue]), dataOut: nil,
                dataIn: sink,
                timeout: .seconds(2))
        }
        #expect((error?.underlyingError as? USBPipeError)?.code == .disconnected)
        let received = await sink.bytes
        #expect(received == PatternSource.bytes(0..<received.count))
        #expect(received.count == 20_000)
        // Every later call fails the same way, at once.
        await #expect(throws: TransportError(.disconnected)) {
            _ = try await stack.transport.nextEvent(timeout: .seconds(1))
        }
        await stack.stop()
    }

    @Test(arguments: [0, 1, 500, 512 - 12, 512, 1024 - 12, 1 << 20, (1 << 20) + 7])
    func hostDataPhasesAreFramedWithZeroLengthPackets(size: Int) async throws {
        let stack = USBStack()
        try await open(stack)
        let bytes = PatternSource.bytes(0..<size)
        let response = try await stack.transport.transact(
            PTPRequest(code: .sendObject, transactionID: 1), dataOut: PTPBytesSource(bytes), dataIn: nil,
            timeout: .seconds(2))
        #expect(response.code == .ok)
        #expect(await stack.responder.lastDataOut == bytes)
        // The next transaction finds the link clean: no leftover zero-length packet confuses the device.
        let again = try await stack.transport.transact(
            PTPRequest(code: .sendObject, transactionID: 2), dataOut: PTPBytesSource([1, 2, 3]), dataIn: nil,
            timeout: .seconds(2))
        #expect(again.code == .ok)
        #expect(await stack.responder.lastDataOut == [1, 2, 3])
        await stack.stop()
    }

    @Test func eventsArriveOnTheInterruptEndpointEvenWhenLongerThanAPacket() async throws {
        let stack = USBStack(interruptMaxPacketSize: 8)
        #expect(try await stack.transport.nextEvent(timeout: .milliseconds(50)) == nil)
        let event = PTPEvent(code: .objectAdded, transactionID: 7, parameters: [0x101, 0x202, 0x303])
        try await stack.device.emit(event)
        #expect(try await stack.transport.nextEvent(timeout: .seconds(1)) == event)
        await stack.responder.emit(PTPEvent(code: .Nikon.objectAddedInSdram, parameters: [0xFFFF_0001]))
        let second = try await stack.transport.nextEvent(timeout: .seconds(1))
        #expect(second?.code == EventCode(0xC101) && second?.transactionID == 0xFFFF_FFFF)
        await stack.stop()
    }

    @Test func eventsAndTransactionsRunConcurrently() async throws {
        let stack = USBStack()
        try await open(stack)
        let handle = await stack.responder.add(ObjectInfo(), data: PatternSource(byteCount: 1))
        await stack.device.inject(.delay(.milliseconds(200)))
        async let object = getObject(stack, handle, tid: 1)
        try await Task.sleep(for: .milliseconds(20))
        try await stack.device.emit(PTPEvent(code: .devicePropChanged, parameters: [0x5001]))
        #expect(try await stack.transport.nextEvent(timeout: .seconds(1))?.code == .devicePropChanged)
        #expect(try await object.1.code == .ok)
        await stack.stop()
    }

    @Test func cancellingATransactionSendsTheClassCancelRequest() async throws {
        let stack = USBStack(device: .init(chunkByteCount: 4096))
        try await open(stack)
        let handle = await stack.responder.add(ObjectInfo(), data: BlockPatternSource(byteCount: 64 << 20))
        let sink = MeasuringSink()
        let download = Task {
            try await stack.transport.transact(
                PTPRequest(code: .getObject, transactionID: 1, parameters: [handle.rawValue]), dataOut: nil,
                dataIn: sink,
                timeout: .seconds(2))
        }
        while await sink.byteCount < 1 << 20 { try await Task.sleep(for: .milliseconds(5)) }
        await stack.transport.cancel()
        await #expect(throws: TransportError(.cancelled)) { _ = try await download.value }
        #expect(await stack.responder.cancelledTransactions == [1])
        let small = await stack.responder.add(ObjectInfo(), data: PatternSource(byteCount: 3))
        #expect(try await getObject(stack, small, tid: 2).0 == PatternSource.bytes(0..<3))
        await stack.stop()
    }

    @Test func aSecondConcurrentTransactionIsRefused() async throws {
        let stack = USBStack()
        try await open(stack)
        let handle = await stack.responder.add(ObjectInfo(), data: PatternSource(byteCount: 1))
        await stack.device.inject(.delay(.milliseconds(200)))
        async let first = getObject(stack, handle, tid: 1)
        try await Task.sleep(for: .milliseconds(20))
        await #expect(throws: TransportError(.busy)) { _ = try await getObject(stack, handle, tid: 2) }
        #expect(try await first.1.code == .ok)
        await stack.stop()
    }

    @Test func aClosedTransportRefusesWork() async throws {
        let stack = USBStack()
        await stack.transport.close()
        await #expect(throws: TransportError(.closed)) { try await open(stack) }
        await stack.stop()
    }

    @Test func aSinkThatRefusesDataCancelsTheTransactionAndLeavesTheLinkClean() async throws {
        let stack = USBStack()
        try await open(stack)
        let handle = await stack.responder.add(ObjectInfo(), data: PatternSource(byteCount: 5_000_000))
        let error = await #expect(throws: PTPError(.protocolViolation)) {
            _ = try await stack.transport.transact(
                PTPRequest(code: .getObject, transactionID: 1, parameters: [handle.rawValue]), dataOut: nil,
                dataIn: PTPMemorySink(limit: 100_000), timeout: .seconds(2))
        }
        #expect(error?.violation == .unexpectedDataPhase)
        #expect(await stack.responder.cancelledTransactions == [1])
        let small = await stack.responder.add(ObjectInfo(), data: PatternSource(byteCount: 10))
        #expect(try await getObject(stack, small, tid: 2).0 == PatternSource.bytes(0..<10))
        await stack.stop()
    }

    @Test func aStallOnBulkOutIsClearedAndTheNextTransactionWorks() async throws {
        let stack = USBStack()
        try await open(stack)
        await stack.device.inject(.stallBulkOut, on: .sendObject)
        // More than the pipe buffers, so the host is still writing when the device halts the endpoint.
        let bytes = [UInt8](repeating: 0x42, count: 12 << 20)
        let error = await #expect(throws: TransportError(.stalled)) {
            _ = try await stack.transport.transact(
                PTPRequest(code: .sendObject, transactionID: 1), dataOut: PTPBytesSource(bytes), dataIn: nil,
                timeout: .seconds(2))
        }
        #expect(error?.detail.contains("bulkOut") == true)
        let response = try await stack.transport.transact(
            PTPRequest(code: .sendObject, transactionID: 2), dataOut: PTPBytesSource([7]), dataIn: nil,
            timeout: .seconds(2))
        #expect(response.code == .ok)
        #expect(await stack.responder.lastDataOut == [7])
        await stack.stop()
    }

    /// Drives the host transport against raw bytes on bulk IN (no device side): what a broken camera could send.
    private func answer(_ bytes: [UInt8]) async -> (any Error)? {
        let pipe = InMemoryBulkPipe()
        let transport = PTPUSBTransport(
            pipe: pipe, configuration: .init(recoveryTimeout: .milliseconds(50), maxStatusPolls: 1))
        do {
            try await pipe.device.writeBulkIn(bytes)
            _ = try await transport.transact(
                PTPRequest(code: .getStorageIDs, transactionID: 3), dataOut: nil, dataIn: CollectingSink(),
                timeout: .seconds(1))
            return nil
        } catch {
            return error
        }
    }

    @Test func aContainerOfTheWrongTypeIsAProtocolViolation() async throws {
        let command = USBContainer.command(.getStorageIDs, transactionID: 3, parameters: []).usbEncoded
        let error = await answer(command) as? PTPError
        #expect(error?.violation == .unexpectedContainer)
        let event = USBContainer.event(.objectAdded, transactionID: 3, parameters: [1]).usbEncoded
        #expect((await answer(event) as? PTPError)?.violation == .unexpectedContainer)
        let otherCode = USBContainer.data(.getObject, transactionID: 3, payload: [1]).usbEncoded
        #expect((await answer(otherCode) as? PTPError)?.violation == .unexpectedContainer)
    }

    @Test func aLengthThatDoesNotFitIsAProtocolViolation() async throws {
        // A response claiming 14 bytes: parameters must be whole UInt32s.
        let error = await answer(hexBytes("0e 00 00 00 03 00 01 20 03 00 00 00 00 00")) as? PTPError
        #expect(error?.violation == .malformedContainer)
        // A response shorter than its header.
        #expect(
            (await answer(hexBytes("08 00 00 00 03 00 01 20 03 00 00 00")) as? PTPError)?.violation
                == .malformedContainer)
        // Garbage: an unknown container type.
        #expect(
            (await answer(hexBytes("0c 00 00 00 09 00 01 20 03 00 00 00")) as? PTPError)?.violation
                == .malformedContainer)
    }

    @Test func endlessLeftoversOfOlderTransactionsAreAViolation() async throws {
        let old = USBContainer.response(.ok, transactionID: 2, parameters: []).usbEncoded
        let current = USBContainer.response(.ok, transactionID: 3, parameters: []).usbEncoded
        // A few leftovers are skipped…
        #expect(await answer(Array([[UInt8]](repeating: old, count: 3).joined()) + current) == nil)
        // …an endless stream of them is a broken device.
        let error = await answer(Array([[UInt8]](repeating: old, count: 40).joined()) + current) as? PTPError
        #expect(error?.violation == .transactionIDMismatch)
    }

    /// A source that takes its time, so a cancel finds the device in the middle of producing a chunk.
    /// A device-side read that blocks until the test opens the gate, so "the device is still busy" does not depend
    /// on how fast a loaded machine runs the host's recovery (a fixed sleep made the test flaky under load).
    actor Gate {
        private var isOpen = false
        private var waiters: [CheckedContinuation<Void, Never>] = []
        func wait() async {
            if isOpen { return }
            await withCheckedContinuation { waiters.append($0) }
        }
        func open() {
            isOpen = true
            waiters.forEach { $0.resume() }
            waiters = []
        }
    }

    struct SlowSource: PTPDataSource {
        let byteCount: UInt64 = 8 << 20
        let gate: Gate
        func read(at offset: UInt64, maxByteCount: Int) async throws -> [UInt8] {
            // The first chunk goes out at once (the host's sink refuses it); every later read waits for the gate.
            if offset > 0 { await gate.wait() }
            return [UInt8](repeating: 0xAB, count: Int(min(UInt64(maxByteCount), byteCount - offset)))
        }
    }

    @Test func aDeviceStillBusyAfterACancelIsWaitedForBeforeTheNextTransaction() async throws {
        let stack = USBStack(
            device: .init(chunkByteCount: 64 * 1024),
            transport: .init(
                transferByteCount: 512, recoveryTimeout: .milliseconds(100), statusPollInterval: .milliseconds(5),
                maxStatusPolls: 2))
        try await open(stack)
        let gate = Gate()
        let slow = await stack.responder.add(ObjectInfo(), data: SlowSource(gate: gate))
        // The sink refuses at once; the device stays inside its read (the gate is shut) while the status polls give up.
        await #expect(throws: PTPError(.protocolViolation)) {
            _ = try await stack.transport.transact(
                PTPRequest(code: .getObject, transactionID: 1, parameters: [slow.rawValue]), dataOut: nil,
                dataIn: PTPMemorySink(limit: 10), timeout: .seconds(20))
        }
        let small = await stack.responder.add(ObjectInfo(), data: PatternSource(byteCount: 700))
        // The next transaction first waits for the device to be idle: busy while it still is, clean once it is not.
        var result: ([UInt8], PTPResponse)?
        var sawBusy = false
        for _ in 0..<500 where result == nil {
            do {
                result = try await getObject(stack, small, tid: 2)
            } catch let error as TransportError where error.code == .busy {
                sawBusy = true
                await gate.open()  // now let the device finish its read and go idle
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        #expect(sawBusy)
        #expect(result?.0 == PatternSource.bytes(0..<700))
        await stack.stop()
    }

    /// Found under a loaded test run: when the host cancelled while the device side was blocked writing the last
    /// chunk of a data phase, that chunk (and the response) landed after the cancel's discard and the device reported
    /// idle, so the next transaction read stale bytes. Six transactions at once reproduce the timing.
    @Test(arguments: 0..<6)
    func issue_cancelWhileTheLastChunkWaitsLeavesNoStaleData(run: Int) async throws {
        let stack = USBStack()
        try await open(stack)
        let big = await stack.responder.add(ObjectInfo(), data: BlockPatternSource(byteCount: 5_000_000))
        await #expect(throws: PTPError(.protocolViolation)) {
            _ = try await stack.transport.transact(
                PTPRequest(code: .getObject, transactionID: 1, parameters: [big.rawValue]), dataOut: nil,
                dataIn: PTPMemorySink(limit: 100_000), timeout: .seconds(2))
        }
        let small = await stack.responder.add(ObjectInfo(), data: PatternSource(byteCount: 10))
        #expect(try await getObject(stack, small, tid: 2).0 == PatternSource.bytes(0..<10))
        await stack.stop()
    }
}
