import FakeUSB
import Foundation
import PTP
import TestSupport
import Testing

/// The built `rawcap info` binary as a child process (with libumockdev-preload), while this process plays the
/// camera: discovery, libusb, the transport, the report and the exit codes, end to end.
@Suite(.serialized, .timeLimit(.minutes(1))) struct RawcapInfoEndToEndTests {
    static let canon = FakeUSBCamera.Configuration(
        busNumber: 1, deviceAddress: 3, port: 2, vendorID: 0x04A9, productID: 0x32F4, manufacturer: "Canon Inc.",
        product: "Canon EOS R5", serialNumber: "083024001234")

    /// The `rawcap` executable built beside the test bundle (`swift test` builds every product).
    static func rawcap() throws -> String {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("rawcap").path
        let candidates = [beside, ExternalTool.packageRoot.appendingPathComponent(".build/debug/rawcap").path]
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
        return try #require(found, "the rawcap binary was not built (looked in \(candidates))")
    }

    /// Runs `rawcap info` with one started camera.
    static func info(
        _ arguments: [String], configuration: FakeUSBCamera.Configuration = canon,
        prepare: (FakeUSBCamera) async throws -> Void = { _ in }
    ) async throws -> FakeUSBChildResult {
        let rawcap = try rawcap()
        return try await FakeUSBTestbed.withTestbed { testbed in
            let camera = try testbed.addCamera(configuration, responder: TestCamera(serialNumber: "PTP-0001"))
            camera.start()
            try await prepare(camera)
            return try await camera.runChild(rawcap, ["info"] + arguments, timeout: .seconds(30))
        }
    }

    @Test func infoDescribesTheCamera() async throws {
        let result = try await Self.info(["--camera", "usb"])
        #expect(result.status == 0, "\(result.errorOutput)")
        let text = result.output
        #expect(text.contains("Camera        usb:001:003, 04a9:32f4, port 1-2, still image (6/1/1) interface"))
        #expect(text.contains("Manufacturer  rawcap"))
        #expect(text.contains("Model         Test Camera"))
        #expect(text.contains("Serial        PTP-0001"))
        #expect(text.contains("PTP           1.10, vendor extension Microsoft (0x00000006) 1.00"))
        #expect(text.contains("0x00010001  SD \"EOS_DIGITAL\"  RemovableRAM, DCF, ReadWrite  12.5 GB free of 64.0 GB"))
        #expect(text.contains("GetDeviceInfo, OpenSession, CloseSession, GetStorageIDs"))
        #expect(text.contains("  capture  EXIF_JPEG\n  images   EXIF_JPEG, DNG"))
        // Properties as `config` names and writes them, the camera's names and codes after them.
        #expect(text.contains(#/battery\s+75\s+read-only\s+0…100 in steps of 25\s+BatteryLevel 0x5001/#))
        #expect(text.contains(#/iso\s+ISO 400\s+read/write\s+one of ISO 100, ISO 200, ISO 400, ISO 800\s+ExposureIndex 0x500F/#))
        #expect(text.contains(#/FNumber\s+—\s+refused by the camera: DevicePropNotSupported\s+0x5007/#))
        #expect(result.errorOutput.isEmpty)
    }

    @Test func verboseInfoShowsTheWireValues() async throws {
        let result = try await Self.info(["--camera", "usb", "-v"])
        #expect(result.status == 0, "\(result.errorOutput)")
        let text = result.output
        #expect(text.contains(#/BatteryLevel\s+0x5001\s+75\s+read-only\s+range 0…100, step 25/#))
        #expect(text.contains(#/ExposureIndex\s+0x500F\s+400\s+read/write\s+one of 100, 200, 400, 800/#))
        #expect(text.contains(#/FNumber\s+0x5007\s+—\s+refused by the camera: DevicePropNotSupported/#))
    }

    @Test func infoJSONHasStableKeys() async throws {
        let result = try await Self.info(["--json"])
        #expect(result.status == 0, "\(result.errorOutput)")
        let json = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        #expect(
            Set(json.keys) == [
                "camera", "device", "storages", "operations", "events", "properties", "captureFormats", "imageFormats",
                "notes", "rawFormats", "rawFormatAuto",
            ])
        let camera = try #require(json["camera"] as? [String: Any])
        #expect(camera["selector"] as? String == "usb:001:003")
        #expect(camera["vendorID"] as? String == "04a9")
        #expect(camera["serialNumber"] as? String == "083024001234")
        let device = try #require(json["device"] as? [String: Any])
        #expect(device["model"] as? String == "Test Camera")
        #expect(device["ptpVersion"] as? String == "1.10")
        let storages = try #require(json["storages"] as? [[String: Any]])
        #expect(storages.first?["freeBytes"] as? Int == 12_500_000_000)
        #expect(storages.first?["label"] as? String == "EOS_DIGITAL")
        let properties = try #require(json["properties"] as? [[String: Any]])
        #expect(properties.map { $0["name"] as? String } == ["BatteryLevel", "ExposureIndex", "FNumber"])
        let iso = try #require(properties.first { $0["name"] as? String == "ExposureIndex" })
        #expect(iso["current"] as? Int == 400)
        #expect((iso["allowed"] as? [String: Any])?["values"] as? [Int] == [100, 200, 400, 800])
        #expect(iso["writable"] as? Bool == true)
        let fNumber = try #require(properties.first { $0["name"] as? String == "FNumber" })
        #expect(fNumber["error"] as? String == "refused by the camera: DevicePropNotSupported")
        let operations = try #require(json["operations"] as? [[String: String]])
        #expect(operations.first == ["code": "0x1001", "name": "GetDeviceInfo"])
    }

    @Test func noCameraExits69() async throws {
        let rawcap = try Self.rawcap()
        let result = try await FakeUSBTestbed.withTestbed { testbed in
            try await testbed.runChild(rawcap, ["info"], timeout: .seconds(30))
        }
        #expect(result.status == 69)
        #expect(result.errorOutput.contains("rawcap info: No camera found on USB"))
        #expect(result.output.isEmpty)
    }

    @Test func twoCamerasNeedAChoice() async throws {
        let rawcap = try Self.rawcap()
        try await FakeUSBTestbed.withTestbed { testbed in
            let first = try testbed.addCamera(Self.canon, responder: TestCamera(serialNumber: "A"))
            var nikonConfiguration = Self.canon
            nikonConfiguration.deviceAddress = 4
            nikonConfiguration.port = 3
            nikonConfiguration.serialNumber = "NIKON-77"
            let second = try testbed.addCamera(nikonConfiguration, responder: TestCamera(serialNumber: "B"))
            first.start()
            second.start()
            let ambiguous = try await testbed.runChild(rawcap, ["info"], timeout: .seconds(30))
            #expect(ambiguous.status == 64)
            #expect(ambiguous.errorOutput.contains("2 cameras found"))
            #expect(ambiguous.errorOutput.contains("usb:001:003  Canon EOS R5 (04a9:32f4), serial 083024001234"))
            #expect(ambiguous.errorOutput.contains("usb:001:004  Canon EOS R5 (04a9:32f4), serial NIKON-77"))

            let byAddress = try await testbed.runChild(rawcap, ["info", "--camera", "usb:1:4"], timeout: .seconds(30))
            #expect(byAddress.status == 0, "\(byAddress.errorOutput)")
            #expect(byAddress.output.contains("Serial        B"))
            let bySerial = try await testbed.runChild(
                rawcap, ["info", "--camera", "serial:083024001234", "--json"], timeout: .seconds(30))
            #expect(bySerial.status == 0, "\(bySerial.errorOutput)")
            #expect(bySerial.output.contains("\"serialNumber\":\"A\""))
            let missing = try await testbed.runChild(rawcap, ["info", "--camera", "usb:1:9"], timeout: .seconds(30))
            #expect(missing.status == 69)
            #expect(missing.errorOutput.contains("No camera matches usb:001:009"))
        }
    }

    @Test func aCameraHeldByAnotherProgramExits75NamingGVFS() async throws {
        let result = try await Self.info([]) { camera in camera.setHeldByAnotherProgram(true) }
        #expect(result.status == 75)
        #expect(result.errorOutput.contains("is in use by another program"))
        #expect(result.errorOutput.contains("gvfs-gphoto2-volume-monitor"))
    }

    /// Opening a node the user may not write fails with EACCES. Root ignores file modes, so as root the child runs
    /// without CAP_DAC_OVERRIDE (setpriv), like an ordinary user.
    @Test func permissionDeniedExits77WithTheUdevRule() async throws {
        let rawcap = try Self.rawcap()
        let (command, arguments): (String, [String])
        if getuid() == 0 {
            let setpriv = try ExternalTool.require("setpriv")
            (command, arguments) = (setpriv, ["--bounding-set=-dac_override,-dac_read_search", rawcap, "info"])
        } else {
            (command, arguments) = (rawcap, ["info"])
        }
        let result = try await FakeUSBTestbed.withTestbed { testbed in
            let camera = try testbed.addCamera(Self.canon, responder: TestCamera())
            camera.start()
            try camera.setAccessDenied(true)
            return try await testbed.runChild(command, arguments, timeout: .seconds(30))
        }
        #expect(result.status == 77, "\(result.errorOutput)")
        #expect(result.errorOutput.contains("Permission denied opening Canon EOS R5 at usb:001:003"))
        #expect(result.errorOutput.contains("60-rawcap.rules"))
        #expect(result.errorOutput.contains("plugdev"))
    }

    @Test func aCablePulledDuringInfoExits74() async throws {
        let result = try await Self.info([]) { camera in
            await camera.inject(.disconnect(afterBytes: 0), on: .getStorageInfo)
        }
        #expect(result.status == 74)
        #expect(result.errorOutput.contains("The camera disconnected"))
        #expect(result.output.isEmpty)
    }

    @Test func aCameraThatBreaksPTPExits76() async throws {
        let result = try await Self.info([]) { camera in
            await camera.inject(.transactionID(99), on: .getStorageIDs)
        }
        #expect(result.status == 76)
        #expect(result.errorOutput.contains("The camera broke the PTP protocol"))
        #expect(result.errorOutput.contains("transactionIDMismatch during GetStorageIDs"))
    }

    @Test func theEmulatedCameraAnswersInfo() async throws {
        // Every reach is built in now: `sim` is the emulated camera in process, through USB framing.
        let result = try await Subprocess.runDetached(try Self.rawcap(), ["info", "--camera", "sim"])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.contains("Emulated Camera"))
    }
}
