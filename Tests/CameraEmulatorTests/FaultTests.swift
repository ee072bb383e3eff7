import CameraEmulator
import PTP
import Testing

/// Each fault gives the host a typed error (or a visible gap), and the transcript shows what the camera did.
@Suite struct FaultTests {
    @Test(arguments: Reach.allCases)
    func busyAnswersDeviceBusyThenWorks(reach: Reach) async throws {
        let camera = try smallCamera(faults: try EmulatorFault.parse(["busy=2"]))
        let link = try await reach.connect(camera)
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        for _ in 0..<2 {
            await #expect(throws: PTPError(response: .deviceBusy, operation: .initiateCapture)) {
                try await session.initiateCapture()
            }
        }
        #expect(try await shoot(session).count == 1)
        let captures = await camera.transcript.filter { $0.code == .initiateCapture }
        #expect(captures.map(\.response) == [.deviceBusy, .deviceBusy, .ok])
        #expect(captures.map(\.fault) == ["busy=2:InitiateCapture", "busy=2:InitiateCapture", nil])
        await link.close()
    }

    @Test func aStallOverUSBIsATypedErrorAndTheSessionGoesOn() async throws {
        let camera = try smallCamera(faults: [try EmulatorFault(parsing: "stall=getobject")])
        let link = EmulatorLink.usb(camera, transportConfiguration: .init(recoveryTimeout: .milliseconds(500)))
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        let handle = try #require(try await shoot(session).first)
        let error = await #expect(throws: TransportError(.stalled)) { _ = try await download(session, handle) }
        #expect((error?.underlyingError as? USBPipeError)?.code == .stall)
        // The transport cleared the halt; the next download works.
        #expect(try await download(session, handle).count > 12_000)
        let gets = await camera.transcript.filter { $0.code == .getObject }
        #expect(gets.map(\.fault) == ["stall=GetObject", nil])
        await link.close()
    }

    @Test func aStallOverPTPIPClosesTheConnection() async throws {
        let camera = try smallCamera(faults: [try EmulatorFault(parsing: "stall=GetObjectInfo")])
        let link = try await EmulatorLink.ptpip(camera)
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        await #expect(throws: TransportError(.disconnected)) { _ = try await session.getObjectInfo(ObjectHandle(rawValue: 1)) }
        await link.close()
        #expect(await camera.openSessionID == nil)
        #expect(await camera.transcript.last?.fault == "stall=GetObjectInfo")
    }

    @Test(arguments: Reach.allCases)
    func aDisconnectCutsTheDataPhaseThatCrossesTheMark(reach: Reach) async throws {
        let camera = try smallCamera(faults: [try EmulatorFault(parsing: "disconnect-after=20000")])
        let link = try await reach.connect(camera)
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        let first = try #require(try await shoot(session).first)
        // 12,288 bytes of samples and the tags: the first download fits under the mark, the second crosses it.
        let bytes = try await download(session, first)
        let sink = PTPMemorySink(limit: 1 << 26)
        let error = await #expect(throws: TransportError(.disconnected)) {
            try await session.getObject(first, into: sink)
        }
        #expect(error != nil)
        let transcript = await camera.transcript
        let before = transcript.dropLast().compactMap(\.dataInByteCount).reduce(0, +)
        #expect(await sink.bytes == Array(bytes.prefix(Int(20_000 - before))))
        #expect(transcript.last?.fault == "disconnect-after=20000")
        await link.close()
    }

    @Test func aSlowLinkPacesDownloads() async throws {
        let camera = try smallCamera(faults: [try EmulatorFault(parsing: "slow=100kB/s")])
        let link = EmulatorLink.usb(camera)
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        let handle = try #require(try await shoot(session).first)
        let start = ContinuousClock.now
        let bytes = try await download(session, handle)
        let elapsed = ContinuousClock.now - start
        // About 13 kB at 100 kB/s: at least 0.1 s.
        #expect(elapsed >= .seconds(Double(bytes.count) / 100_000 * 0.9), "\(elapsed) for \(bytes.count) bytes")
        await link.close()
    }

    @Test(arguments: Reach.allCases)
    func aLostObjectAddedLeavesOnlyCaptureComplete(reach: Reach) async throws {
        let camera = try smallCamera(faults: [try EmulatorFault(parsing: "lose-event=ObjectAdded")])
        let link = try await reach.connect(camera)
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        #expect(try await shoot(session).isEmpty)
        // The object is there all the same; the host has to look for it.
        let handles = try await session.getObjectHandles(format: .tiffEP)
        #expect(handles.count == 1)
        #expect(await camera.lostEvents.map(\.code) == [.objectAdded])
        #expect(await camera.lostEvents.first?.parameters == handles.map(\.rawValue))
        // Only once: the next shot is announced.
        #expect(try await shoot(session).count == 1)
        await link.close()
    }

    @Test func aLostCaptureCompleteLeavesTheHostWaiting() async throws {
        let camera = try smallCamera(faults: [try EmulatorFault(parsing: "lose-event=capturecomplete")])
        let link = EmulatorLink.usb(camera)
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        await #expect(throws: CaptureTimeout.self) { _ = try await shoot(session, timeout: .seconds(2)) }
        // Under load the shot may still be developing when the host gives up: the event is lost once it is done.
        await camera.waitForCapture()
        #expect(await camera.lostEvents.map(\.code) == [.captureComplete])
        await link.close()
    }

    @Test(arguments: Reach.allCases)
    func aFullCardAnswersStoreFull(reach: Reach) async throws {
        let camera = try smallCamera(faults: [try EmulatorFault(parsing: "card-full")])
        let link = try await reach.connect(camera)
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        await #expect(throws: PTPError(response: .storeFull, operation: .initiateCapture)) {
            try await session.initiateCapture()
        }
        let card = try await session.getStorageInfo(EmulatedCamera.cardStorageID)
        #expect(card.freeSpaceInBytes == 0 && card.freeSpaceInImages == 0)
        let capture = await camera.transcript.first { $0.code == .initiateCapture }
        #expect(capture?.response == .storeFull && capture?.fault == "card-full")
        await link.close()
    }
}
