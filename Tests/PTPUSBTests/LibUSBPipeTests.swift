import FakeUSB
import Foundation
import PTP
import PTPUSB
import Testing

/// PTPSession → PTPUSBTransport → LibUSBPipe → libusb → umockdev → the fake camera's USBDeviceSide, all real code,
/// with the faults the in-memory tests cover now going through libusb's own timeout, stall and disconnect paths.
@Suite(.serialized, .timeLimit(.minutes(1))) struct LibUSBPipeTests {
    @Test func getDeviceInfoRoundTrip() async throws {
        try await FakeCameraStack.run { stack in
            let session = stack.session()
            let info = try await session.getDeviceInfo()
            #expect(info.model == "Test Camera")
            #expect(info.manufacturer == "rawcap")
            try await session.openSession()
            #expect(try await session.getStorageIDs() == [TestCamera.storage])
            try await session.closeSession()
            let codes = await stack.responder.requests.map(\.code)
            #expect(codes == [.getDeviceInfo, .openSession, .getStorageIDs, .closeSession])
            // Once by discovery's probe (claim and release), once by the pipe.
            #expect(stack.camera.statistics.claims == 2)
        }
    }

    /// Data phases whose container is a whole number of 512-byte packets: the spec's zero-length packet ends the
    /// transfer; without it, the camera glues the response to the data and the container length tells the end.
    @Test(arguments: [1024 - 12, 512 * 2048 - 12, 512 * 5000 - 12])
    func wholePacketDataPhasesWithAndWithoutZeroLengthPackets(byteCount: Int) async throws {
        for zeroLengthPackets in [true, false] {
            let configuration = FakeUSBCamera.Configuration(
                deviceSide: .init(sendsZeroLengthPackets: zeroLengthPackets))
            try await FakeCameraStack.run(configuration) { stack in
                let handle = await stack.responder.addObject(byteCount: byteCount)
                let expected = try #require(await stack.responder.object(handle))
                let session = stack.session()
                try await session.openSession()
                let before = stack.camera.statistics
                let sink = CollectingSink()
                try await session.getObject(handle, into: sink)
                #expect(await sink.bytes == expected, "\(byteCount) bytes, ZLP \(zeroLengthPackets)")
                let after = stack.camera.statistics
                let endedByZLP = after.bulkInEndedByZeroLengthPacket - before.bulkInEndedByZeroLengthPacket
                #expect(endedByZLP == (zeroLengthPackets ? 1 : 0), "ZLP \(zeroLengthPackets)")
                #expect(after.largestBulkInTransfer >= 1 << 20, "reads are large transfers")
                // The link is clean afterwards.
                #expect(try await session.getStorageIDs() == [TestCamera.storage])
            }
        }
    }

    /// A host data phase of exactly one packet (12 + 500 bytes) must be followed by a zero-length packet, or the
    /// camera would wait for more.
    @Test func hostDataPhaseOfWholePacketsEndsWithZeroLengthPacket() async throws {
        try await FakeCameraStack.run { stack in
            let session = stack.session()
            try await session.openSession()
            let value = PTPValue.string(String(repeating: "x", count: 248))  // 1 + 249 × 2 = 499 bytes
            let payload = value.ptpEncoded + [0]
            try await session.execute(
                .setDevicePropValue, parameters: [0x5011], dataOut: PTPBytesSource(payload))
            #expect(await stack.responder.lastDataOut == payload)
            #expect(stack.camera.statistics.bulkOutZeroLengthPackets == 1)
        }
    }

    @Test func eventsArriveOnTheInterruptEndpointWhileIdle() async throws {
        try await FakeCameraStack.run { stack in
            let session = stack.session()
            let nothing = try await session.nextEvent(timeout: .milliseconds(100))
            #expect(nothing == nil)
            let event = PTPEvent(code: .objectAdded, transactionID: 0xFFFF_FFFF, parameters: [0x101, 2, 3])
            await stack.responder.emit(event)
            let received = try await session.nextEvent(timeout: .seconds(2))
            #expect(received == event)
            // 24 bytes in 8-byte interrupt packets: the transport reassembled three transfers.
            #expect(stack.camera.statistics.interruptTransfers >= 3)
        }
    }

    @Test func eventsDoNotWaitBehindALongBulkRead() async throws {
        try await FakeCameraStack.run { stack in
            let session = stack.session()
            try await session.openSession()
            let handle = await stack.responder.addObject(byteCount: 1000)
            await stack.camera.inject(.delay(.milliseconds(800)), on: .getObject)
            let started = ContinuousClock.now
            let download = Task { () -> Duration in
                try await session.getObject(handle, into: CollectingSink())
                return ContinuousClock.now - started
            }
            try await Task.sleep(for: .milliseconds(100))
            await stack.responder.emit(PTPEvent(code: .captureComplete, transactionID: 7))
            let event = try await session.nextEvent(timeout: .seconds(2))
            let eventTime = ContinuousClock.now - started
            let downloadTime = try await download.value
            #expect(event?.code == .captureComplete)
            #expect(eventTime < downloadTime, "event after \(eventTime), download after \(downloadTime)")
        }
    }

    @Test func aCameraThatNeverAnswersTimesOutAndTheNextTransactionWorks() async throws {
        try await FakeCameraStack.run { stack in
            let session = stack.session(timeout: .milliseconds(300))
            try await session.openSession()
            await stack.camera.inject(.stopDataIn(afterBytes: 0), on: .getStorageIDs)
            await #expect(throws: TransportError(.timeout)) { try await session.getStorageIDs() }
            #expect(stack.camera.statistics.discardedTransfers >= 1, "libusb discarded the timed-out transfer")
            #expect(try await session.getStorageIDs() == [TestCamera.storage])
        }
    }

    @Test func aTimeoutKeepsTheBytesThatArrived() async throws {
        try await FakeCameraStack.run { stack in
            let session = stack.session(timeout: .milliseconds(300))
            try await session.openSession()
            let handle = await stack.responder.addObject(byteCount: 100_000)
            let expected = try #require(await stack.responder.object(handle))
            await stack.camera.inject(.stopDataIn(afterBytes: 20_000), on: .getObject)
            let sink = CollectingSink()
            await #expect(throws: TransportError(.timeout)) { try await session.getObject(handle, into: sink) }
            let received = await sink.bytes
            // Whole packets up to 20,000 payload bytes: 39 × 512 − 12 header bytes.
            #expect(received.count == 39 * 512 - 12)
            #expect(received == Array(expected.prefix(received.count)))
            let again = CollectingSink()
            try await session.getObject(handle, into: again)
            #expect(await again.bytes == expected)
        }
    }

    @Test func aStallIsClearedAndTheNextTransactionWorks() async throws {
        try await FakeCameraStack.run { stack in
            let session = stack.session()
            try await session.openSession()
            let handle = await stack.responder.addObject(byteCount: 5000)
            let expected = try #require(await stack.responder.object(handle))
            await stack.camera.inject(.stallBulkIn, on: .getObject)
            await #expect(throws: TransportError(.stalled)) {
                try await session.getObject(handle, into: CollectingSink())
            }
            #expect(stack.camera.statistics.clearedHalts >= 1)
            #expect(await !stack.camera.device.isStalled(.bulkIn))
            let sink = CollectingSink()
            try await session.getObject(handle, into: sink)
            #expect(await sink.bytes == expected)
        }
    }

    @Test func aPulledCableMidDataPhaseFailsWithDisconnected() async throws {
        try await FakeCameraStack.run { stack in
            // A timeout far above what the failure takes even on a loaded machine: ending well before it shows the
            // transfer failed on the disconnect, not on the timeout.
            let session = stack.session(timeout: .seconds(30))
            try await session.openSession()
            let handle = await stack.responder.addObject(byteCount: 3 << 20)
            await stack.camera.inject(.disconnect(afterBytes: 1_500_000), on: .getObject)
            let started = ContinuousClock.now
            let error = await #expect(throws: TransportError.self) {
                try await session.getObject(handle, into: CollectingSink())
            }
            #expect(error?.code == .disconnected)
            #expect((error?.underlyingError as? USBPipeError)?.code == .disconnected)
            #expect(ContinuousClock.now - started < .seconds(15), "the transfer failed at once, not at a timeout")
            // Every later call fails the same way, at once.
            await #expect(throws: TransportError(.disconnected)) { try await session.getStorageIDs() }
            await #expect(throws: USBPipeError(.disconnected)) {
                try await stack.pipe.readInterrupt(maxLength: 8, timeout: .seconds(1))
            }
        }
    }

    @Test func aPartialTransferReportsItsBytesOnTimeout() async throws {
        try await FakeCameraStack.run { stack in
            // The device side is bypassed: two whole packets, then silence, so the transfer cannot end.
            await stack.camera.stop()
            try await stack.camera.device.writeBulkIn([UInt8](repeating: 0xA5, count: 1024))
            let error = await #expect(throws: USBPipeError.self) {
                try await stack.pipe.readBulkIn(maxLength: 1 << 20, timeout: .milliseconds(200))
            }
            #expect(error?.code == .timeout)
            #expect(error?.partialData == [UInt8](repeating: 0xA5, count: 1024))
            #expect((error?.underlyingError as? LibUSBError)?.code == .timeout)
        }
    }

    @Test func cancellingTheTaskCancelsTheTransfer() async throws {
        try await FakeCameraStack.run { stack in
            let pipe = stack.pipe
            let started = ContinuousClock.now
            let read = Task { try await pipe.readBulkIn(maxLength: 512, timeout: .seconds(20)) }
            try await Task.sleep(for: .milliseconds(150))
            read.cancel()
            let result = await read.result
            #expect(throws: USBPipeError(.cancelled)) { try result.get() }
            // Well before the read's 20 s timeout: the cancel ended it, not the timeout.
            #expect(ContinuousClock.now - started < .seconds(15))
        }
    }

    @Test func classRequestsReachTheCamera() async throws {
        try await FakeCameraStack.run { stack in
            let status = try await stack.transport.deviceStatus(timeout: .seconds(1))
            #expect(status.code == .ok)
            await stack.camera.stall(.bulkIn)
            let stalled = try await stack.transport.deviceStatus(timeout: .seconds(1))
            #expect(stalled.stalledEndpointAddresses == [0x81])
            try await stack.pipe.clearHalt(.bulkIn)
            #expect(await !stack.camera.device.isStalled(.bulkIn))
            #expect(stack.camera.statistics.classRequests == 2)
        }
    }
}
