import CameraEmulator
import PTP
import Testing

/// The `duplicate-event` and `reboot-after` faults, seen from a host session.
@Suite struct DuplicateAndRebootFaultTests {
    @Test func faultsParseAndRoundTrip() throws {
        let faults = try EmulatorFault.parse([
            "duplicate-event=ObjectAdded:2", "reboot-after=5000", "duplicate-event=capturecomplete",
        ])
        #expect(
            faults.map(\.kind) == [
                .duplicateEvent(.objectAdded, count: 2), .rebootAfter(bytes: 5000),
                .duplicateEvent(.captureComplete, count: 1),
            ])
        for fault in faults { #expect(try EmulatorFault(parsing: fault.description) == fault) }
        let delay = try EmulatorFault(parsing: "delay=setdevicepropvalue:3000")
        #expect(delay.kind == .delay(operation: .setDevicePropValue, milliseconds: 3000))
        #expect(delay.description == "delay=SetDevicePropValue:3000")
        for bad in [
            "delay=SetDevicePropValue", "delay=SetDevicePropValue:0", "delay=fly:10", "duplicate-event=sunset",
            "duplicate-event=objectadded:0", "reboot-after=x", "reboot-after",
        ] {
            #expect(throws: EmulatorError(.invalidFault), "\(bad)") { _ = try EmulatorFault(parsing: bad) }
        }
    }

    @Test func aDelayedOperationIsAnsweredLate() async throws {
        let camera = try smallCamera(faults: [try EmulatorFault(parsing: "delay=GetStorageIDs:600")])
        let link = EmulatorLink.usb(camera)
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        let start = ContinuousClock.now
        _ = try await session.getStorageIDs()
        #expect(ContinuousClock.now - start >= .milliseconds(600))
        #expect(await camera.transcript.last?.fault == "delay=GetStorageIDs:600")
        await link.close()
    }

    @Test(arguments: [Reach.usb, .ptpip])
    func aDuplicatedObjectAddedArrivesTwice(reach: Reach) async throws {
        let camera = try smallCamera(faults: [try EmulatorFault(parsing: "duplicate-event=ObjectAdded")])
        let link = try await reach.connect(camera)
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        let handles = try await shoot(session)
        #expect(handles.count == 2 && handles[0] == handles[1], "\(handles)")
        // Only once: the next shot is announced once.
        #expect(try await shoot(session).count == 1)
        await link.close()
    }

    @Test(arguments: [Reach.usb, .ptpip])
    func aRebootBreaksTheLinkAndClosesTheSessionButKeepsTheCard(reach: Reach) async throws {
        let camera = try smallCamera(faults: [try EmulatorFault(parsing: "reboot-after=4000")])
        let link = try await reach.connect(camera)
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        let handle = try #require(try await shoot(session).first)
        await #expect(throws: TransportError.self) { _ = try await download(session, handle) }
        await link.close()
        #expect(await camera.rebootCount == 1)
        #expect(await camera.openSessionID == nil)
        #expect(await camera.transcript.last?.fault == "reboot-after=4000")

        // The camera comes back: a new host opens a session and finds the shot on the card.
        let again = try await reach.connect(camera)
        let next = PTPSession(transport: again.transport)
        try await next.openSession()
        #expect(try await next.getObjectHandles(format: .tiffEP) == [handle])
        #expect(try await download(next, handle).count > 4000)
        await again.close()
    }
}
