import Foundation
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
}
