import Foundation
import PTP
import PTPIP
import TestSupport
import Testing

@Suite struct PTPIPHostIdentityTests {
    @Test func theGUIDIsCreatedOnceAndThenReused() throws {
        let folder = try TemporaryDirectory("guid")
        let environment = ["XDG_CONFIG_HOME": folder.url.path]
        let first = PTPIPHostIdentity.load(environment: environment, machineIDPaths: [])
        let path = folder.url.path + "/rawcap/ptpip-guid"
        #expect(first.source == .createdSettingsFile(path))
        let second = PTPIPHostIdentity.load(environment: environment, machineIDPaths: [])
        #expect(second.source == .settingsFile(path))
        #expect(second.guid == first.guid)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == first.guid.bytes.map { String(format: "%02x", $0) }.joined() + "\n")
        #expect(!first.friendlyName.isEmpty && first.friendlyName == PTPIPHostIdentity.hostName())
    }

    @Test func homeIsUsedWithoutXDGConfigHome() throws {
        let home = try TemporaryDirectory("home")
        let identity = PTPIPHostIdentity.load(environment: ["HOME": home.url.path], machineIDPaths: [])
        #expect(identity.source == .createdSettingsFile(home.url.path + "/.config/rawcap/ptpip-guid"))
    }

    @Test func anUnwritableFolderFallsBackToTheMachineID() throws {
        let folder = try TemporaryDirectory("readonly")
        // A regular file where the folder should be: creating the folder fails even for root.
        try Data("x".utf8).write(to: folder.file("rawcap"))
        let machineID = folder.file("machine-id")
        try Data("0123456789abcdef0123456789abcdef\n".utf8).write(to: machineID)
        let environment = ["XDG_CONFIG_HOME": folder.url.path]
        let first = PTPIPHostIdentity.load(environment: environment, machineIDPaths: [machineID.path])
        let second = PTPIPHostIdentity.load(environment: environment, machineIDPaths: [machineID.path])
        #expect(first.source == .machineID)
        #expect(first.guid == second.guid)
        #expect(first.guid == PTPIPHostIdentity.derivedGUID(machineID: "0123456789abcdef0123456789abcdef"))
        #expect(first.guid != PTPIPHostIdentity.derivedGUID(machineID: "0123456789abcdef0123456789abcdee"))
        #expect(first.guid.bytes[6] >> 4 == 8, "an RFC 9562 version 8 UUID")
    }

    @Test func noFolderAndNoMachineIDGivesAnEphemeralGUID() {
        let identity = PTPIPHostIdentity.load(environment: [:], machineIDPaths: ["/nonexistent/machine-id"])
        #expect(identity.source == .ephemeral)
    }

    @Test func aCorruptFileIsReplaced() throws {
        let folder = try TemporaryDirectory("corrupt")
        try FileManager.default.createDirectory(at: folder.file("rawcap"), withIntermediateDirectories: true)
        try Data("not a guid".utf8).write(to: folder.file("rawcap/ptpip-guid"))
        let identity = PTPIPHostIdentity.load(environment: ["XDG_CONFIG_HOME": folder.url.path], machineIDPaths: [])
        #expect(identity.source == .createdSettingsFile(folder.url.path + "/rawcap/ptpip-guid"))
    }
}
