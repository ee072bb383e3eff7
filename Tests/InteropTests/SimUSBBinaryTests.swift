import Foundation
import TestSupport
import Testing

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
        let result = try await Subprocess.runDetached(
            try RawcapBinary.path(), ["sim", "usb", "--sensor", "96x64", "--", "/bin/sh", "-c", "test -n \"$UMOCKDEV_DIR\" && exit 3"])
        #expect(result.status == 3, "the program ran under the fake bus: \(result.errorOutput)")
    }

    @Test func aProgramThatDoesNotExistExits69() async throws {
        let result = try await Subprocess.runDetached(
            try RawcapBinary.path(), ["sim", "usb", "--", "rawcap-no-such-program"])
        #expect(result.status == 69)
        #expect(result.errorOutput == "rawcap sim usb: cannot run the program: rawcap-no-such-program not found\n")
    }
}
