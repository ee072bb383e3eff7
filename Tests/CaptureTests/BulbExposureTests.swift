import CameraControl
import CameraEmulator
import Capture
import Foundation
import Logging
import PTP
import RawDecoders
import RawImage
import TestSupport
import Testing

/// `shoot --exposure`: the camera's shutter speed when it has one that long, otherwise bulb held by the host on a
/// monotonic clock with each family's bulb operations, measured by the emulated camera between its open and close
/// requests.
@Suite(.serialized) struct BulbExposureTests {
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The operations that open and close each family's bulb, as the emulator records them.
    static func bulbOperations(_ family: String) -> (open: OperationCode, close: OperationCode) {
        switch family {
        case "nikon": (OperationCode.Nikon.initiateCaptureRecInMedia, OperationCode.Nikon.terminateCapture)
        case "canon": (OperationCode.Canon.remoteReleaseOn, OperationCode.Canon.remoteReleaseOff)
        case "sony": (OperationCode.Sony.setControlDeviceB, OperationCode.Sony.setControlDeviceB)
        case "fuji": (.initiateCapture, .initiateCapture)
        default: (.initiateOpenCapture, .terminateOpenCapture)
        }
    }

    /// Whether `measured` shows the shutter held for `seconds`. The host and the emulated camera share this test
    /// process's two-thread pool with every suite running at once, so here only a hold (not an instant shot, not one
    /// held far too long) is checked; the ±20 ms bound is checked with rawcap in a process of its own
    /// (`BulbCommandTests`), as the architecture's rule for deadlines asks.
    static func held(_ measured: Double, for seconds: Double) -> Bool {
        measured >= seconds * 0.5 && measured <= seconds + 2
    }

    /// One bulb shot of `seconds` on `family`: the journal has the requested and host-measured times, the DNG records
    /// the emulator's measured time as its ExposureTime; returns the emulator's and the host's measured open times.
    static func bulbShot(family: String, seconds: Int) async throws -> (camera: Double, host: Double) {
        let rig = try await CaptureRig(width: 160, height: 120, model: try CameraModel.named(family))
        defer { Task { await rig.close() } }
        var plan = ShootPlan(format: .auto, count: 1)
        plan.exposure = ExposureRequest(duration: .seconds(seconds), forceBulb: true)
        let summary = try await rig.shoot(plan)
        #expect(summary.files.count == 1)
        let records = await rig.camera.bulbExposures
        let record = try #require(records.last)
        #expect(records.count == 1)
        let operations = Self.bulbOperations(family)
        #expect(record.openedBy == operations.open && record.closedBy == operations.close, "\(record)")

        let journal = rig.journal
        let closed = try #require(journal.first { $0.event == JournalEntry.Event.bulbClosed })
        #expect(closed.exposure == Double(seconds))
        let host = try #require(closed.openSeconds)
        let requested = try #require(journal.first { $0.event == JournalEntry.Event.shotRequested })
        #expect(requested.exposure == Double(seconds) && requested.exposureMode == "bulb")

        let frame = try #require(try RawDecoder.decode(contentsOf: summary.files[0].path).frame)
        let recorded = try #require(frame.metadata.exposureTime)
        #expect(abs(recorded.doubleValue - Self.seconds(record.measured)) < 0.002, "EXIF ExposureTime \(recorded)")
        if ["nikon", "canon", "sony"].contains(family) {
            // The body's shutter setting is put back after the run.
            let value =
                family == "sony"
                ? try await rig.session.sonyGetAllDevicePropData()[.exposureTime]?.currentValue
                : try await rig.value(.exposureTime)
            #expect(value != .uint32(0xFFFF_FFFF), "ExposureTime restored")
        }
        return (Self.seconds(record.measured), host)
    }

    @Test(arguments: ["generic", "nikon", "canon", "sony", "fuji"])
    func aBulbShotIsHeldJournaledAndRecorded(family: String) async throws {
        let (camera, host) = try await Self.bulbShot(family: family, seconds: 1)
        #expect(Self.held(camera, for: 1) && Self.held(host, for: 1), "camera \(camera) s, host \(host) s")
    }

    /// The same over PTP/IP framing (in memory and over TCP on loopback).
    @Test(arguments: [CaptureRig.Reach.ptpipInMemory, .ptpipLoopback])
    func aBulbOverPTPIPIsHeld(reach: CaptureRig.Reach) async throws {
        let rig = try await CaptureRig(width: 160, height: 120, reach: reach)
        defer { Task { await rig.close() } }
        var plan = ShootPlan(format: .auto, count: 1)
        plan.exposure = ExposureRequest(duration: .seconds(1), forceBulb: true)
        let summary = try await rig.shoot(plan)
        #expect(summary.files.count == 1)
        let record = try #require(await rig.camera.bulbExposures.last)
        #expect(Self.held(Self.seconds(record.measured), for: 1), "\(reach): \(record.measured)")
    }

    /// A duration the camera has as a shutter speed is set (snapped to the descriptor), not held in bulb; one longer
    /// than its longest speed is bulb.
    @Test func aShutterSpeedTheCameraHasIsSetAndALongerOneIsBulb() async throws {
        let rig = try await CaptureRig(width: 160, height: 120)
        defer { Task { await rig.close() } }
        let info = try await rig.session.deviceInfo()
        let control = CameraControl.CameraSettings(session: rig.session, deviceInfo: info)
        let driver = StandardCaptureDriver()
        func resolve(_ text: String) async throws -> ExposureSetting {
            try await ExposureSetting.resolve(
                ExposureRequest(duration: try ExposureRequest.parse(text)), control: control, deviceInfo: info,
                driver: driver)
        }
        #expect(try await resolve("1/250").mode == .shutter(value: .uint32(40), seconds: 0.004))
        #expect(try await resolve("2.5s").mode == .shutter(value: .uint32(25_000), seconds: 2.5))
        #expect(try await resolve("30").mode == .shutter(value: .uint32(300_000), seconds: 30))
        #expect(try await resolve("1m30s").mode == .bulb(bulbValue: nil))
        #expect(try await resolve("240s").mode == .bulb(bulbValue: nil))
        await #expect(throws: CaptureError(.exposureUnavailable)) { try await resolve("1/100000") }

        // A shutter-speed run sets the value, journals it, and puts the old one back.
        let before = try await rig.value(.exposureTime)
        var plan = ShootPlan(format: .auto, count: 1)
        plan.exposure = ExposureRequest(duration: try ExposureRequest.parse("1/250"))
        let summary = try await rig.shoot(plan)
        let frame = try #require(try RawDecoder.decode(contentsOf: summary.files[0].path).frame)
        #expect(frame.metadata.exposureTime == Rational(1, 250))
        let requested = try #require(rig.journal.first { $0.event == JournalEntry.Event.shotRequested })
        #expect(requested.exposureMode == "shutter" && requested.shutterSeconds == 0.004)
        #expect(try await rig.value(.exposureTime) == before)
        #expect(await rig.camera.bulbExposures.isEmpty)
    }

    /// Canon EOS and Sony bodies keep their shutter speed in their own property (EOS Tv 0xD102, bulb 0x0C; Sony
    /// ShutterSpeed 0xD20D, bulb 0): `--exposure` picks the body's speed there, or bulb through it, and puts the
    /// body's value back after the run.
    @Test(arguments: ["canon", "sony"])
    func theFamilysOwnShutterPropertyIsUsed(family: String) async throws {
        let rig = try await CaptureRig(width: 160, height: 120, model: try CameraModel.named(family))
        defer { Task { await rig.close() } }
        let identity = try await rig.session.cameraIdentity()
        let info = identity.deviceInfo
        let driver = CameraProfile.select(for: identity).driver
        try await driver.prepare(session: rig.session, logger: Logger(label: "test"))
        let control = CameraControl.CameraSettings(session: rig.session, deviceInfo: info)
        func resolve(_ text: String, bulb: Bool = false) async throws -> ExposureSetting {
            try await ExposureSetting.resolve(
                ExposureRequest(duration: try ExposureRequest.parse(text), forceBulb: bulb), control: control,
                deviceInfo: info, driver: driver)
        }
        let property = family == "canon" ? CanonEOSShutterSpeed.property : SonyShutterSpeed.property
        // 1/250 s: EOS Tv 0x78 (`canon_shutterspeed`), Sony 1/250; 30 s: EOS 0x10, Sony 300/10.
        let fast = try await resolve("1/250")
        let slow = try await resolve("30s")
        let long = try await resolve("240s")
        #expect(fast.vendorProperty == property && slow.vendorProperty == property && long.vendorProperty == property)
        if family == "canon" {
            #expect(fast.mode == .shutter(value: .uint16(0x78), seconds: 1.0 / 250))
            #expect(slow.mode == .shutter(value: .uint16(0x10), seconds: 30))
            #expect(long.mode == .bulb(bulbValue: .uint16(0x0C)))
        } else {
            #expect(fast.mode == .shutter(value: .uint32(1 << 16 | 250), seconds: 1.0 / 250))
            #expect(slow.mode == .shutter(value: .uint32(300 << 16 | 10), seconds: 30))
            #expect(long.mode == .bulb(bulbValue: .uint32(0)))
        }
        await #expect(throws: CaptureError(.exposureUnavailable)) { try await resolve("1/100000") }
        await driver.finish(session: rig.session, logger: Logger(label: "test"))

        // A run at 1/250 s sets the family's property (the emulated body exposes at it) and puts it back.
        let before = await rig.camera.currentExposureTimeValue
        var plan = ShootPlan(format: .auto, count: 1)
        plan.exposure = ExposureRequest(duration: try ExposureRequest.parse("1/250"))
        let summary = try await rig.shoot(plan)
        let frame = try #require(try RawDecoder.decode(contentsOf: summary.files[0].path).frame)
        #expect(frame.metadata.exposureTime == Rational(1, 250))
        let transcript = await rig.camera.transcript
        let setOperation = family == "canon" ? OperationCode.Canon.setDevicePropValueEx : OperationCode.Sony.setControlDeviceA
        #expect(transcript.contains { $0.code == setOperation && (family == "canon" || $0.parameters.first == UInt32(property.rawValue)) })
        #expect(!transcript.contains { $0.code == .setDevicePropValue && $0.parameters.first == UInt32(DevicePropertyCode.exposureTime.rawValue) })
        #expect(await rig.camera.currentExposureTimeValue == before, "the body's shutter speed put back")
        #expect(await rig.camera.bulbExposures.isEmpty)
    }

    @Test func durationsParseAsPhotographersWriteThem() throws {
        let cases: [(String, Duration)] = [
            ("240s", .seconds(240)), ("1/250", .nanoseconds(4_000_000)), ("2.5s", .milliseconds(2500)),
            ("1m30s", .seconds(90)), ("500ms", .milliseconds(500)), ("1h", .seconds(3600)), ("30", .seconds(30)),
            ("1/4s", .milliseconds(250)),
        ]
        for (text, expected) in cases { #expect(try ExposureRequest.parse(text) == expected, "\(text)") }
        for bad in ["", "0", "-1s", "1/0", "2x", "1s1s", "25h", "1/", "s"] {
            #expect(throws: CaptureError(.invalidPlan), "\(bad)") { try ExposureRequest.parse(bad) }
        }
    }

    /// A body without bulb operations (a plain PTP camera without InitiateOpenCapture): a clear error before
    /// anything is fired.
    @Test func aBodyWithoutBulbIsRefusedBeforeFiring() async throws {
        let rig = try await CaptureRig(width: 160, height: 120, model: .genericWithoutBulb)
        defer { Task { await rig.close() } }
        var plan = ShootPlan(format: .auto, count: 1)
        plan.exposure = ExposureRequest(duration: .seconds(240))
        await #expect(throws: CaptureError(.exposureUnavailable)) { try await rig.shoot(plan) }
        let codes = await rig.camera.transcript.map(\.code)
        #expect(!codes.contains(.initiateCapture) && !codes.contains(.initiateOpenCapture), "nothing fired: \(codes)")
        #expect(rig.journal.allSatisfy { $0.event != JournalEntry.Event.shotRequested })
    }

    /// A Nikon whose ExposureTime does not offer bulb (a body outside M) is refused before anything is fired.
    @Test func aNikonWithoutBulbInItsExposureTimeIsRefused() async throws {
        var model = CameraModel.nikon
        model.bulbExposureTimeValue = nil
        let rig = try await CaptureRig(width: 160, height: 120, model: model)
        defer { Task { await rig.close() } }
        var plan = ShootPlan(format: .auto, count: 1)
        plan.exposure = ExposureRequest(duration: .seconds(60))
        await #expect(throws: CaptureError(.exposureUnavailable)) { try await rig.shoot(plan) }
        let codes = await rig.camera.transcript.map(\.code)
        #expect(!codes.contains(OperationCode.Nikon.initiateCaptureRecInMedia))
        #expect(!codes.contains(OperationCode.Nikon.initiateCaptureRecInSdram))
    }

    /// A Nikon outside M (its ExposureTime offers no bulb there) is put in M for the bulb, as libgphoto2's
    /// `_put_Nikon_Bulb` does, and its own program and shutter speed are put back after the run.
    @Test func aNikonOutsideManualIsPutInManualForBulbAndBack() async throws {
        let rig = try await CaptureRig(width: 160, height: 120, model: .nikon)
        defer { Task { await rig.close() } }
        try await rig.session.setDevicePropValue(.exposureProgramMode, .uint16(3))
        let shutterBefore = try await rig.value(.exposureTime)
        // Outside M the body shows no bulb and refuses it.
        guard case .enumeration(let offered) = try await rig.session.getDevicePropDesc(.exposureTime).form else {
            Issue.record("ExposureTime is not an enumeration")
            return
        }
        #expect(!offered.contains(.uint32(0xFFFF_FFFF)))
        await #expect(throws: PTPError.self) {
            try await rig.session.setDevicePropValue(.exposureTime, .uint32(0xFFFF_FFFF))
        }
        var plan = ShootPlan(format: .auto, count: 1)
        plan.exposure = ExposureRequest(duration: .seconds(1), forceBulb: true)
        let summary = try await rig.shoot(plan)
        #expect(summary.files.count == 1)
        let record = try #require(await rig.camera.bulbExposures.last)
        #expect(record.openedBy == OperationCode.Nikon.initiateCaptureRecInMedia)
        // M was set before bulb, and both were put back, the exposure time first.
        let program = UInt32(DevicePropertyCode.exposureProgramMode.rawValue)
        let time = UInt32(DevicePropertyCode.exposureTime.rawValue)
        let sets = await rig.camera.transcript.filter { $0.code == .setDevicePropValue }.compactMap(\.parameters.first)
            .filter { $0 == program || $0 == time }
        // (the test's own: the program to A, bulb refused; the run's: M, bulb; restored: the time, the program)
        #expect(sets == [program, time, program, time, time, program], "\(sets)")
        #expect(try await rig.value(.exposureProgramMode) == .uint16(3))
        #expect(try await rig.value(.exposureTime) == shutterBefore)
        let started = try #require(rig.journal.first { $0.event == JournalEntry.Event.runStarted })
        #expect(started.detail?.contains("(bulb), program ") == true, "\(started.detail ?? "")")
    }

    /// A stop request during a bulb exposure closes the shutter at once, the shot is still saved, and the run ends
    /// interrupted.
    @Test(arguments: ["generic", "nikon", "canon", "sony", "fuji"])
    func aStopClosesTheShutterFirstAndKeepsTheShot(family: String) async throws {
        let rig = try await CaptureRig(width: 160, height: 120, model: try CameraModel.named(family))
        defer { Task { await rig.close() } }
        var plan = ShootPlan(format: .auto, count: 1)
        plan.exposure = ExposureRequest(duration: .seconds(20), forceBulb: true)
        let stop = StopSignal()
        let camera = rig.camera
        Task {
            while await !camera.isBulbOpen { try await Task.sleep(for: .milliseconds(10)) }
            try await Task.sleep(for: .milliseconds(500))
            stop.request()
        }
        await #expect(throws: CaptureError(.interrupted)) { try await rig.runner(plan, stop: stop).run() }
        let record = try #require(await rig.camera.bulbExposures.last)
        #expect(Self.seconds(record.measured) < 3, "closed early: \(record.measured)")
        #expect(await !rig.camera.isBulbOpen)
        let journal = rig.journal
        let closed = try #require(journal.first { $0.event == JournalEntry.Event.bulbClosed })
        #expect(closed.detail?.hasPrefix("interrupted") == true)
        #expect(journal.contains { $0.event == JournalEntry.Event.fileWritten }, "the shot was saved")
        #expect(journal.last?.event == JournalEntry.Event.runFinished && journal.last?.detail == "interrupted")
    }
}
