import CameraEmulator
import PTP
import Testing

/// `sleep-after=` and `disappear-after=`: the camera leaves its link and comes back with the same serial number,
/// its card kept; the `every=` schedule's power cycle and sleep.
@Suite struct PresenceFaultTests {
    @Test func faultsParseAndRoundTrip() throws {
        let faults = try EmulatorFault.parse(["sleep-after=30s", "sleep-after=500ms:5s", "disappear-after=3:1.5s"])
        #expect(
            faults.map(\.kind) == [
                .sleepAfter(idle: .seconds(30), wake: .seconds(2)),
                .sleepAfter(idle: .milliseconds(500), wake: .seconds(5)),
                .disappearAfter(shots: 3, duration: .milliseconds(1500)),
            ])
        for fault in faults { #expect(try EmulatorFault(parsing: fault.description) == fault) }
        #expect(try EmulatorFault(parsing: "disappear-after=2").kind == .disappearAfter(shots: 2, duration: .seconds(2)))
        for bad in ["sleep-after", "sleep-after=0", "sleep-after=soon", "sleep-after=1s:x", "disappear-after=0",
            "disappear-after=2:forever"]
        {
            #expect(throws: EmulatorError(.invalidFault), "\(bad)") { _ = try EmulatorFault(parsing: bad) }
        }
    }

    @Test(arguments: [Reach.usb, .ptpip])
    func aPowerCycleDropsTheLinkRefusesHostsAndComesBackWithTheCard(reach: Reach) async throws {
        let camera = try smallCamera(faults: [try EmulatorFault(parsing: "disappear-after=1:600ms")])
        let link = try await reach.connect(camera)
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        let serial = try await session.getDeviceInfo().serialNumber
        let handle = try #require(try await shoot(session).first)
        await #expect(throws: TransportError.self) { _ = try await download(session, handle) }
        await link.close()
        #expect(await camera.departures == 1)
        #expect(await camera.openSessionID == nil)
        guard case .gone = await camera.linkPresence() else {
            Issue.record("the camera should be away")
            return
        }
        // Switched off, not asleep: a knock does not wake it.
        #expect(await camera.acceptsConnection() == false)
        try await Task.sleep(for: .milliseconds(700))
        #expect(await camera.linkPresence() == .present)
        #expect(await camera.acceptsConnection())
        let again = try await reach.connect(camera)
        let next = PTPSession(transport: again.transport)
        try await next.openSession()
        #expect(try await next.getDeviceInfo().serialNumber == serial)
        #expect(try await download(next, handle).count > 4000)
        await again.close()
    }

    @Test func anIdleCameraSleepsAndAKnockWakesIt() async throws {
        // An idle time with room for a loaded machine: the test's own short pauses must not reach it.
        let camera = try smallCamera(faults: [try EmulatorFault(parsing: "sleep-after=4s:30s")])
        let link = EmulatorLink.usb(camera)
        let session = PTPSession(transport: link.transport, configuration: .init(timeout: .seconds(5)))
        try await session.openSession()
        _ = try await session.getStorageIDs()
        try await Task.sleep(for: .milliseconds(150))
        // Activity keeps it awake.
        _ = try await session.getStorageIDs()
        try await Task.sleep(for: .milliseconds(150))
        _ = try await session.getStorageIDs()
        #expect(await camera.departures == 0)
        try await Task.sleep(for: .milliseconds(4500))
        // The next request finds it asleep: the link drops.
        await #expect(throws: (any Error).self) { _ = try await session.getStorageIDs() }
        await link.close()
        #expect(await camera.departures == 1)
        #expect(await camera.acceptsConnection() == false)
        try await Task.sleep(for: .milliseconds(400))
        #expect(await camera.acceptsConnection(), "a knock wakes a sleeping camera within a moment")
        #expect(await camera.linkPresence() == .present)
    }
}
