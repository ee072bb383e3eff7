import ArgumentParser
import Foundation
import TestSupport
import Testing

@testable import RawcapCLI

/// `rawcap sim serve` and `rawcap sim usb`: option parsing in process, and the built binary's exit statuses and
/// listening line. (gphoto2 and rawcap's own client against them: InteropTests.)
@Suite(.serialized) struct SimServeTests {
    @Test(arguments: [
        ("127.0.0.1:15740", "127.0.0.1", UInt16(15740)), ("127.0.0.1:0", "127.0.0.1", 0), ("0.0.0.0", "0.0.0.0", 15740),
        ("[::1]:0", "::1", 0), ("::1", "::1", 15740), (":9000", "127.0.0.1", 9000), ("localhost:1", "localhost", 1),
    ])
    func listenAddressesParse(text: String, host: String, port: UInt16) throws {
        let parsed = try RawcapCommand.Sim.Serve.parseListenAddress(text)
        #expect(parsed.host == host && parsed.port == port)
    }

    @Test(arguments: [
        ["sim", "serve", "--listen", "camera.local:15740"], ["sim", "serve", "--listen", "127.0.0.1:70000"],
        ["sim", "serve", "--listen", "[::1"], ["sim", "serve", "--from", "file.pcapng"],
        ["sim", "serve", "--fault", "explode"], ["sim", "serve", "--from", "replay:x.pcapng", "--fault", "card-full"],
        ["sim", "serve", "--sensor", "10x10"], ["sim", "serve", "--model", "nope"],
        ["sim", "usb"], ["sim", "usb", "--fault", "busy=x", "--", "true"],
    ])
    func badOptionsAreUsageErrors(arguments: [String]) {
        do {
            _ = try RawcapCommand.parseAsRoot(arguments)
            Issue.record("\(arguments) parsed")
        } catch {
            #expect(RawcapCommand.exitCode(for: error) == ExitCode(64), "\(arguments)")
        }
    }

    @Test func goodOptionsParse() throws {
        let serve = try #require(
            try RawcapCommand.parseAsRoot([
                "sim", "serve", "--listen", "127.0.0.1:0", "--fault", "busy=2,slow=5MB/s", "--json", "--sensor",
                "96x64",
            ]) as? RawcapCommand.Sim.Serve)
        #expect(serve.json && serve.listen == "127.0.0.1:0" && serve.emulator.faults == ["busy=2,slow=5MB/s"])
        let usb = try #require(
            try RawcapCommand.parseAsRoot(["sim", "usb", "--sensor", "96x64", "--", "gphoto2", "--auto-detect"])
                as? RawcapCommand.Sim.USB)
        #expect(usb.command == ["gphoto2", "--auto-detect"])
    }

    @Test func aRecordingThatDoesNotLoadExits65() async throws {
        let rawcap = try #require(ChildProcess.builtProduct(named: "rawcap"), "rawcap was not built")
        let folder = try TemporaryDirectory("sim-serve")
        let bogus = folder.file("bogus.pcapng")
        try Data("not a capture".utf8).write(to: bogus)
        let result = try await Subprocess.runDetached(
            rawcap, ["sim", "serve", "--listen", "127.0.0.1:0", "--from", "replay:\(bogus.path)"])
        #expect(result.status == 65)
        #expect(result.errorOutput.hasPrefix("rawcap sim serve: the recording cannot be read"), "\(result.errorOutput)")
        #expect(result.output.isEmpty)
    }
}
