import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The built `rawcap sim usb`: it starts without umockdev linked in, passes the program's exit status on, and
/// reports a program it cannot run in one line.
@Suite(.serialized, .timeLimit(.minutes(2))) struct SimUSBBinaryTests {
    @Test func rawcapDoesNotLinkUmockdev() async throws {
        let ldd = try ExternalTool.require("ldd")
        let result = try await Subprocess.runDetached(ldd, [try RawcapBinary.path()])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.contains("libc.so.6"), "\(result.output)")
        #expect(!result.output.contains("umockdev"), "libumockdev is loaded only by rawcap sim usb: \(result.output)")
    }

    @Test func theProgramsExitStatusIsPassedOn() async throws {
        try Umockdev.require()
        let result = try await Subprocess.runDetached(
            try RawcapBinary.path(),
            ["sim", "usb", "--sensor", "96x64", "--", "/bin/sh", "-c", "test -n \"$UMOCKDEV_DIR\" && exit 3"])
        #expect(result.status == 3, "the program ran under the fake bus: \(result.errorOutput)")
    }

    @Test func aProgramThatDoesNotExistExits69() async throws {
        try Umockdev.require()
        let result = try await Subprocess.runDetached(
            try RawcapBinary.path(), ["sim", "usb", "--", "rawcap-no-such-program"])
        #expect(result.status == 69)
        #expect(result.errorOutput == "rawcap sim usb: cannot run the program: rawcap-no-such-program not found\n")
    }

    /// Ctrl-C on `rawcap sim usb` reaches the program; rawcap ends with its status, 130 for a program SIGINT
    /// ended.
    @Test func sigintIsPassedOnToTheProgram() async throws {
        try Umockdev.require()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try RawcapBinary.path())
        process.arguments = ["sim", "usb", "--sensor", "96x64", "--", "/bin/sh", "-c", "echo started; exec sleep 60"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let started = await withCheckedContinuation { continuation in
            DispatchQueue(label: "rawcap.test.sim-usb").async {
                continuation.resume(returning: output.fileHandleForReading.readData(ofLength: 8))
            }
        }
        #expect(String(decoding: started, as: UTF8.self) == "started\n")
        kill(process.processIdentifier, SIGINT)
        let finished = await withCheckedContinuation { continuation in
            DispatchQueue(label: "rawcap.test.sim-usb.wait").async {
                let deadline = Date().addingTimeInterval(20)
                while process.isRunning && Date() < deadline { usleep(20_000) }
                let running = process.isRunning
                if running { process.terminate() }
                continuation.resume(returning: !running)
            }
        }
        #expect(finished, "rawcap sim usb ended after SIGINT")
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 130)
    }
}
