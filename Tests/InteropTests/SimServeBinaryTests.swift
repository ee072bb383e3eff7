import Foundation
import PTP
import PTPIP
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The built `rawcap sim serve`: its listening line, refusing a taken port, stopping on a signal, and a card that
/// stays from one client to the next.
@Suite(.serialized, .timeLimit(.minutes(2))) struct SimServeBinaryTests {
    @Test(arguments: [SIGINT, SIGTERM])
    func listensReportsItsPortAndStopsCleanly(signal: Int32) async throws {
        let server = try await SimServeProcess.start(["--sensor", "96x64"])
        let line = server.listeningLine
        #expect(line["address"] as? String == "127.0.0.1:\(server.port)")
        #expect(line["host"] as? String == "127.0.0.1")
        #expect(line["camera"] as? String == "Emulated Camera")
        #expect(line["source"] as? String == "emulator")

        let second = try await Subprocess.runDetached(
            try RawcapBinary.path(), ["sim", "serve", "--listen", "127.0.0.1:\(server.port)"])
        #expect(second.status == 69)
        #expect(
            second.errorOutput.hasPrefix("rawcap sim serve: cannot listen on 127.0.0.1:\(server.port)"),
            "\(second.errorOutput)")
        #expect(second.errorOutput.split(separator: "\n").count == 1, "one line")
        #expect(second.output.isEmpty)

        let stopped = await server.stop(signal: signal)
        #expect(stopped.status == 0, "\(stopped.errorOutput)")
        #expect(stopped.output.isEmpty, "one line on standard output, no more")
    }

    @Test func theTextLineNamesTheRealAddress() async throws {
        let server = try await SimServeProcess.start(["--sensor", "96x64"], json: false)
        #expect(
            server.listeningText
                == "rawcap sim serve: listening on 127.0.0.1:\(server.port) (PTP/IP, Emulated Camera, emulator)")
        let stopped = await server.stop()
        #expect(stopped.status == 0, "\(stopped.errorOutput)")
    }

    /// SIGTERM while a client holds a session: the server closes the connections and exits 0; the client sees the
    /// camera go.
    @Test func stoppingWithAClientConnectedClosesItsConnections() async throws {
        let server = try await SimServeProcess.start(["--sensor", "96x64"])
        let transport = try await PTPIPConnector.connect(to: PTPIPAddress(host: "127.0.0.1", port: server.port))
        let session = PTPSession(transport: transport, configuration: .init(timeout: .seconds(30)))
        try await session.openSession()
        #expect(try await session.getStorageIDs().count == 2)
        let stopped = await server.stop()
        #expect(stopped.status == 0, "\(stopped.errorOutput)")
        await #expect(throws: (any Error).self) { try await session.getStorageIDs() }
        await transport.close()
    }

    /// A fault breaks one client's connection; the server goes on, and the next client is served.
    @Test func aFaultEndsOneClientAndTheNextIsServed() async throws {
        let server = try await SimServeProcess.start(["--sensor", "96x64", "--fault", "stall=getstorageinfo"])
        let rawcap = try RawcapBinary.path()
        let first = try await Subprocess.runDetached(rawcap, ["info", "--camera", "ptpip:127.0.0.1:\(server.port)"])
        #expect(first.status == 74, "\(first.errorOutput)")
        #expect(first.errorOutput.hasPrefix("rawcap info: The camera disconnected"), "\(first.errorOutput)")
        let second = try await Subprocess.runDetached(rawcap, ["info", "--camera", "ptpip:127.0.0.1:\(server.port)"])
        #expect(second.status == 0, "\(second.errorOutput)")
        #expect(second.output.contains("Model         Emulated Camera"), "\(second.output)")
        let stopped = await server.stop()
        #expect(stopped.status == 0, "\(stopped.errorOutput)")
    }

    /// Latency guard: the median of 200 small transactions with data phases stays far under the 40 ms that Nagle's
    /// algorithm and delayed ACKs would add to each on a server without TCP_NODELAY. (The median, not the total:
    /// a loaded test process stalls now and then, which Nagle never explains.)
    @Test func smallTransactionsAreAnsweredPromptly() async throws {
        let server = try await SimServeProcess.start(["--sensor", "96x64"])
        let transport = try await PTPIPConnector.connect(to: PTPIPAddress(host: "127.0.0.1", port: server.port))
        let session = PTPSession(transport: transport, configuration: .init(timeout: .seconds(30)))
        try await session.openSession()
        let clock = ContinuousClock()
        var durations: [Duration] = []
        for _ in 0..<200 {
            durations.append(try await clock.measure { _ = try await session.getDevicePropDesc(.exposureIndex) })
        }
        try await session.closeSession()
        await transport.close()
        let stopped = await server.stop()
        #expect(stopped.status == 0, "\(stopped.errorOutput)")
        let median = durations.sorted()[durations.count / 2]
        // Nagle plus delayed ACKs would put nearly every transaction at 40 ms or more; without them the median is a
        // millisecond or two on a quiet machine and ~20 ms when the suite loads both cores.
        #expect(median < .milliseconds(38), "median GetDevicePropDesc \(median)")
        print("sim serve: median GetDevicePropDesc over loopback \(median), total \(durations.reduce(.zero, +))")
    }

    /// Hostile clients: garbage, a packet claiming 4 GB, a bare Init Event Request, a connection that says nothing,
    /// and an Init Command Request cut short. The server drops each, stays up, and serves the next real client.
    @Test func hostileConnectionsDoNotHurtTheServer() async throws {
        let server = try await SimServeProcess.start(["--sensor", "96x64"])
        let address = try #require(SocketAddress(numericHost: "127.0.0.1", port: server.port))
        var garbage = SystemRandomNumberGenerator()
        let payloads: [[UInt8]] = [
            (0..<4096).map { _ in UInt8.random(in: 0...255, using: &garbage) },
            [0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x00, 0x00, 0x00],  // length 4 GB, Init Command Request
            [0x0C, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00],  // Init Event Request for 7
            [],
            [0x22, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x02],  // Init Command Request, truncated
        ]
        for payload in payloads {
            let connection = try await TCPByteStream.connect(to: address, timeout: .seconds(5))
            try await connection.send(payload)
            await connection.close()
        }
        let info = try await Subprocess.runDetached(
            try RawcapBinary.path(), ["info", "--camera", "ptpip:127.0.0.1:\(server.port)"])
        #expect(info.status == 0, "\(info.errorOutput)")
        #expect(info.output.contains("Model         Emulated Camera"))
        let stopped = await server.stop()
        #expect(stopped.status == 0, "\(stopped.errorOutput)")
    }

    /// Clients back to back, each leaving without CloseSession: the next one never finds the camera busy, and each
    /// opens its session afresh.
    @Test func clientsBackToBackAreNeverTurnedAway() async throws {
        let server = try await SimServeProcess.start(["--sensor", "96x64"])
        for client in 0..<10 {
            let transport = try await PTPIPConnector.connect(
                to: PTPIPAddress(host: "127.0.0.1", port: server.port))
            let session = PTPSession(transport: transport, configuration: .init(timeout: .seconds(30)))
            try await session.openSession()
            #expect(try await session.getStorageIDs().count == 2, "client \(client)")
            await transport.close()
        }
        let stopped = await server.stop()
        #expect(stopped.status == 0, "\(stopped.errorOutput)")
    }

    /// InitiateCapture is answered at once, before the shot has developed (the card is still empty right after),
    /// other requests are answered meanwhile, and the shot is announced by events.
    @Test func initiateCaptureIsAnsweredBeforeTheShotDevelops() async throws {
        let server = try await SimServeProcess.start(["--sensor", "3000x2000"])
        let transport = try await PTPIPConnector.connect(to: PTPIPAddress(host: "127.0.0.1", port: server.port))
        let session = PTPSession(transport: transport, configuration: .init(timeout: .seconds(10)))
        try await session.openSession()
        let clock = ContinuousClock()
        let answer = try await clock.measure { try await session.initiateCapture() }
        // The proof that nothing waited for the shot is the empty card just after; the time is only reported (a
        // loaded machine can stretch any wall-clock figure).
        print("sim serve: InitiateCapture answered in \(answer)")
        #expect(try await session.getNumObjects(format: .tiffEP) == 0, "answered before the shot was stored")
        var announced: [EventCode] = []
        let deadline = clock.now + .seconds(90)
        while clock.now < deadline, !announced.contains(.captureComplete) {
            // Answered while the shot develops.
            _ = try await session.getStorageIDs()
            if let event = try await session.nextEvent(timeout: .milliseconds(200)) { announced.append(event.code) }
        }
        #expect(announced == [.objectAdded, .captureComplete])
        #expect(try await session.getNumObjects(format: .tiffEP) == 1)
        await transport.close()
        let stopped = await server.stop()
        #expect(stopped.status == 0, "\(stopped.errorOutput)")
        print("sim serve: InitiateCapture answered in \(answer) for a 3000×2000 shot")
    }
}
