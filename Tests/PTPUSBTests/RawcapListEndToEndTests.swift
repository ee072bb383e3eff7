import FakeUSB
import Foundation
import PTP
import TestSupport
import Testing

/// The built `rawcap list` and `rawcap config` as child processes (with libumockdev-preload) against fake USB
/// cameras: discovery, the access probe and its hints, and settings by name over real libusb.
@Suite(.serialized, .timeLimit(.minutes(1))) struct RawcapListEndToEndTests {
    static func camera(address: UInt8, port: UInt8, serial: String) -> FakeUSBCamera.Configuration {
        FakeUSBCamera.Configuration(
            busNumber: 1, deviceAddress: address, port: port, vendorID: 0x04A9, productID: 0x32F4,
            manufacturer: "Canon Inc.", product: "Canon EOS R5", serialNumber: serial)
    }

    @Test func listShowsEachCameraWithItsAccessAndHowToFixIt() async throws {
        let rawcap = try RawcapInfoEndToEndTests.rawcap()
        // Root ignores file modes, so as root the child runs without CAP_DAC_OVERRIDE (setpriv), like a user.
        var command = rawcap
        var prefix: [String] = []
        if getuid() == 0 {
            command = try ExternalTool.require("setpriv")
            prefix = ["--bounding-set=-dac_override,-dac_read_search", rawcap]
        }
        let (json, text) = try await FakeUSBTestbed.withTestbed { testbed in
            let free = try testbed.addCamera(
                Self.camera(address: 3, port: 2, serial: "FREE-1"), responder: TestCamera())
            let held = try testbed.addCamera(
                Self.camera(address: 4, port: 3, serial: "HELD-2"), responder: TestCamera())
            let locked = try testbed.addCamera(
                Self.camera(address: 5, port: 4, serial: "LOCKED-3"), responder: TestCamera())
            for camera in [free, held, locked] { camera.start() }
            held.setHeldByAnotherProgram(true)
            try locked.setAccessDenied(true)
            let json = try await testbed.runChild(command, prefix + ["list", "--json"], timeout: .seconds(30))
            let text = try await testbed.runChild(command, prefix + ["list"], timeout: .seconds(30))
            return (json, text)
        }
        #expect(json.status == 0, "\(json.errorOutput)")
        let object = try #require(try JSONSerialization.jsonObject(with: json.standardOutput) as? [String: Any])
        let cameras = try #require(object["cameras"] as? [[String: Any]])
        #expect(
            cameras.compactMap { $0["selector"] as? String } == ["usb:001:003", "usb:001:004", "usb:001:005", "sim"])
        #expect(
            cameras.compactMap { $0["access"] as? String } == ["available", "busy", "permissionDenied", "available"])
        #expect(cameras.compactMap { $0["canOpen"] as? Bool } == [true, false, false, true])
        #expect(cameras[0]["serialNumber"] as? String == "FREE-1")
        #expect(cameras[0]["model"] as? String == "Canon EOS R5")
        #expect(cameras[0]["port"] as? String == "1-2")
        #expect(cameras[0]["usbID"] as? String == "04a9:32f4")
        #expect((cameras[1]["hint"] as? String)?.contains("gvfs-gphoto2-volume-monitor") == true)
        let hint = try #require(cameras[2]["hint"] as? String)
        #expect(hint.contains("60-rawcap.rules") && hint.contains("plugdev"))

        #expect(text.status == 0, "\(text.errorOutput)")
        #expect(text.output.contains("usb:001:003  Canon EOS R5, serial FREE-1, port 1-2 (04a9:32f4)  ok"))
        #expect(
            text.output.contains("usb:001:005  Canon EOS R5, serial LOCKED-3, port 1-4 (04a9:32f4)  permissionDenied"))
    }

    @Test func configGetOverUSB() async throws {
        let rawcap = try RawcapInfoEndToEndTests.rawcap()
        let result = try await FakeUSBTestbed.withTestbed { testbed in
            let camera = try testbed.addCamera(
                Self.camera(address: 3, port: 2, serial: "FREE-1"), responder: TestCamera())
            camera.start()
            return try await camera.runChild(rawcap, ["config", "get", "iso", "battery"], timeout: .seconds(30))
        }
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.hasPrefix("iso=400\nbattery="), "\(result.output)")
    }
}
