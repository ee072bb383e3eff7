import ArgumentParser
import PTPUSB
import Testing

@testable import RawcapCLI

/// `--camera` and the options every camera command shares.
@Suite struct CameraSpecTests {
    @Test(arguments: [
        ("usb", CameraSpec.usb(.onlyCamera)),
        ("usb:1:2", .usb(.busAndAddress(bus: 1, address: 2))),
        ("usb:003:017", .usb(.busAndAddress(bus: 3, address: 17))),
        ("serial:0123:AB", .usb(.serialNumber("0123:AB"))),
        ("sim", .simulator),
        ("ptpip:192.168.1.20", .ptpip(host: "192.168.1.20", port: 15740)),
        ("ptpip:camera.local:15741", .ptpip(host: "camera.local", port: 15741)),
        ("ptpip:[fe80::1]:15740", .ptpip(host: "fe80::1", port: 15740)),
        ("ptpip:[::1]", .ptpip(host: "::1", port: 15740)),
        ("replay:traces/r5.pcapng", .replay(path: "traces/r5.pcapng")),
    ])
    func parsesEveryForm(text: String, expected: CameraSpec) {
        #expect(CameraSpec(argument: text) == expected)
    }

    @Test(arguments: [
        "", "usb:1", "usb:0:1", "serial:", "ptpip:", "ptpip:host:0", "ptpip:host:99999", "ptpip:a:b:c",
        "ptpip:[::1", "replay:", "camera", "USB",
    ])
    func rejectsMalformedValues(text: String) {
        #expect(CameraSpec(argument: text) == nil)
    }

    @Test func printsTheCanonicalForm() {
        #expect(CameraSpec.usb(.busAndAddress(bus: 1, address: 2)).description == "usb:001:002")
        #expect(CameraSpec.ptpip(host: "fe80::1", port: 15740).description == "ptpip:[fe80::1]:15740")
        #expect(CameraSpec.ptpip(host: "10.0.0.2", port: 1).description == "ptpip:10.0.0.2:1")
    }

    @Test func infoTakesTheConnectionOptions() throws {
        let parsed = try RawcapCommand.parseAsRoot([
            "info", "--camera", "serial:X9", "--timeout", "2.5", "-vv", "--json",
        ])
        let info = try #require(parsed as? RawcapCommand.Info)
        #expect(info.connection.camera == .usb(.serialNumber("X9")))
        #expect(info.connection.timeoutDuration == .milliseconds(2500))
        #expect(info.connection.verbose == 2)
        #expect(info.connection.logger.logLevel == .trace)
        #expect(info.json)
        let defaults = try #require(try RawcapCommand.parseAsRoot(["info"]) as? RawcapCommand.Info)
        #expect(defaults.connection.camera == .usb(.onlyCamera))
        #expect(defaults.connection.logger.logLevel == .warning)
    }

    @Test func badValuesAreUsageErrors() {
        for arguments in [["info", "--camera", "bogus"], ["info", "--timeout", "0"], ["info", "--timeout", "-1"]] {
            #expect(throws: (any Error).self, "\(arguments)") { try RawcapCommand.parseAsRoot(arguments) }
            do {
                _ = try RawcapCommand.parseAsRoot(arguments)
            } catch {
                #expect(RawcapCommand.exitCode(for: error) == ExitCode(64), "\(arguments)")
            }
        }
    }
}
