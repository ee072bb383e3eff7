import CameraControl
import CameraEmulator
import PTP
import Testing

/// Settings by name against the emulated camera, in process through the real USB framing (EmulatorLink).
@Suite struct CameraSettingsTests {
    /// Runs `body` with settings over an open session to a fresh emulated camera.
    static func withCamera<T: Sendable>(
        faults: [EmulatorFault] = [], _ body: (CameraSettings, EmulatedCamera) async throws -> T
    ) async throws -> T {
        let camera = try EmulatedCamera(configuration: .init(sensorWidth: 64, sensorHeight: 48, faults: faults))
        let link = EmulatorLink.usb(camera)
        let session = PTPSession(transport: link.transport, configuration: .init(timeout: .seconds(10)))
        do {
            try await session.openSession()
            let settings = try await CameraSettings.load(session: session)
            let result = try await body(settings, camera)
            await link.close()
            return result
        } catch {
            await link.close()
            throw error
        }
    }

    /// The camera's own value of `code`, read with a plain GetDevicePropDesc.
    static func raw(_ settings: CameraSettings, _ code: DevicePropertyCode) async throws -> PTPValue {
        try await settings.session.getDevicePropDesc(code).currentValue
    }

    @Test func listNamesEveryPropertyWithValuesAndAllowedValues() async throws {
        let states = try await Self.withCamera { settings, _ in try await settings.list() }
        let byName = Dictionary(states.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byName["iso"]?.value == "100")
        #expect(byName["iso"]?.allowed.first == "100")
        #expect(byName["iso"]?.allowed.last == "25600")
        #expect(byName["shutter"]?.value == "1/125")
        #expect(byName["shutter"]?.allowed.contains("1/2000") == true)
        #expect(byName["shutter"]?.allowed.contains("30") == true)
        #expect(byName["aperture"]?.value == "f/8")
        #expect(byName["wb"]?.allowed == ["auto", "daylight", "tungsten"])
        #expect(byName["ev"]?.value == "0")
        #expect(byName["ev"]?.allowed.first == "-3")
        #expect(byName["ev"]?.allowed.contains("-1/3") == true)
        #expect(byName["quality"]?.allowed == ["jpeg", "raw", "raw+jpeg"])
        #expect(byName["quality"]?.value == "raw")
        #expect(byName["bitdepth"]?.allowed == ["12", "14", "16"])
        #expect(byName["target"]?.allowed == ["card", "sdram"])
        #expect(byName["battery"]?.writable == false)
        #expect(byName["battery"]?.range == "0…100 in steps of 1")
        #expect(byName["focallength"]?.value == "50mm")
        #expect(byName["bitdepth"]?.code == "0xD001")
        #expect(states.allSatisfy { $0.error == nil })
    }

    @Test func setTheIssueExampleAndReadItBack() async throws {
        try await Self.withCamera { settings, _ in
            let assignments = try PropertyAssignment.parse([
                "iso=400", "shutter=1/125", "aperture=f/5.6", "wb=daylight", "ev=-1/3", "quality=raw+jpeg",
                "bitdepth=12", "target=sdram",
            ])
            let states = try await settings.set(assignments)
            #expect(states.map(\.value) == ["400", "1/125", "f/5.6", "daylight", "-1/3", "raw+jpeg", "12", "sdram"])
            #expect(try await Self.raw(settings, .exposureIndex) == .uint16(400))
            #expect(try await Self.raw(settings, .exposureTime) == .uint32(80))
            #expect(try await Self.raw(settings, .fNumber) == .uint16(560))
            #expect(try await Self.raw(settings, .whiteBalance) == .uint16(4))
            #expect(try await Self.raw(settings, .exposureBiasCompensation) == .int16(-333))
            #expect(try await Self.raw(settings, .compressionSetting) == .uint8(5))
            #expect(try await Self.raw(settings, CameraModel.rawBitDepthCode) == .uint8(12))
            #expect(try await Self.raw(settings, CameraModel.captureTargetCode) == .uint8(1))
            let got = try await settings.get(["ISO", "0x5005", "target"])
            #expect(got.map(\.value) == ["400", "4", "sdram"])
        }
    }

    @Test func theClockIsSetFromTheHost() async throws {
        try await Self.withCamera { settings, _ in
            let states = try await settings.set([PropertyAssignment(name: "datetime", value: "2031-01-02T03:04:05")])
            #expect(states.first?.value?.hasPrefix("20310102T0304") == true)
        }
    }

    @Test func rawCodesSetPlainNumbers() async throws {
        try await Self.withCamera { settings, _ in
            try await settings.set([PropertyAssignment(name: "0x5005", value: "6")])
            #expect(try await settings.get(["wb"]).first?.value == "tungsten")
            try await settings.set([PropertyAssignment(name: "0xd001", value: "16")])
            #expect(try await Self.raw(settings, CameraModel.rawBitDepthCode) == .uint8(16))
        }
    }

    @Test func errorsNameThePropertyAndListTheAllowedValues() async throws {
        try await Self.withCamera { settings, _ in
            let bad = await #expect(throws: CameraControlError.self) {
                try await settings.set([PropertyAssignment(name: "iso", value: "450")])
            }
            #expect(bad?.code == .invalidValue)
            #expect(bad?.property == "iso")
            #expect(bad?.allowed.contains("400") == true)
            #expect(bad?.description.hasPrefix("iso: 450 is not a value the camera allows; allowed: 100, 125") == true)

            let unknown = await #expect(throws: CameraControlError.self) { try await settings.get(["isp"]) }
            #expect(unknown?.code == .unknownProperty)
            #expect(unknown?.allowed.contains("iso") == true)

            let missing = await #expect(throws: CameraControlError.self) { try await settings.get(["focus"]) }
            #expect(missing?.code == .notSupported)

            let readOnly = await #expect(throws: CameraControlError.self) {
                try await settings.set([PropertyAssignment(name: "battery", value: "50")])
            }
            #expect(readOnly?.code == .readOnly)
        }
    }

    @Test func aBadValueLaterInTheListChangesNothing() async throws {
        try await Self.withCamera { settings, _ in
            await #expect(throws: CameraControlError.self) {
                try await settings.set(try PropertyAssignment.parse(["iso=800", "wb=cloudy"]))
            }
            let iso = try await Self.raw(settings, .exposureIndex)
            #expect(iso == .uint16(100))
        }
    }

    @Test func aCameraRefusalBecomesARefusedError() async throws {
        try await Self.withCamera(faults: [EmulatorFault(.busy(count: 1, operation: .setDevicePropValue))]) {
            settings, _ in
            let error = await #expect(throws: CameraControlError.self) {
                try await settings.set([PropertyAssignment(name: "iso", value: "800")])
            }
            #expect(error?.code == .refused)
            #expect(error?.detail.contains("DeviceBusy") == true)
        }
    }

    @Test func snapshotRestoresAfterSuccessAndAfterAnError() async throws {
        struct BracketFailed: Error {}
        try await Self.withCamera { settings, _ in
            try await settings.set(try PropertyAssignment.parse(["ev=+1/3", "shutter=1/250"]))
            let saved = try await settings.snapshot(["ev", "shutter", "iso"])
            #expect(saved.value(of: .exposureBiasCompensation) == .int16(333))

            let frames = try await settings.preserving(saved) {
                for bias in ["-1", "0", "+1"] {
                    try await settings.set([PropertyAssignment(name: "ev", value: bias)])
                }
                try await settings.set([PropertyAssignment(name: "shutter", value: "1/30")])
                return 3
            }
            #expect(frames == 3)
            #expect(try await Self.raw(settings, .exposureBiasCompensation) == .int16(333))
            #expect(try await Self.raw(settings, .exposureTime) == .uint32(40))

            await #expect(throws: BracketFailed.self) {
                try await settings.preserving(saved) {
                    try await settings.set(try PropertyAssignment.parse(["ev=-2", "iso=3200"]))
                    throw BracketFailed()
                }
            }
            #expect(try await Self.raw(settings, .exposureBiasCompensation) == .int16(333))
            #expect(try await Self.raw(settings, .exposureIndex) == .uint16(100))
        }
    }

    @Test func aCancelledBracketStillRestores() async throws {
        try await Self.withCamera { settings, _ in
            let saved = try await settings.snapshot(["ev"])
            let started = AsyncStream<Void>.makeStream()
            let bracket = Task {
                try await settings.preserving(saved) {
                    try await settings.set([PropertyAssignment(name: "ev", value: "+2")])
                    started.continuation.yield()
                    // Stands for a long exposure: ends only by cancellation.
                    try await Task.sleep(for: .seconds(60))
                }
            }
            for await _ in started.stream { break }
            bracket.cancel()
            await #expect(throws: CancellationError.self) { try await bracket.value }
            let bias = try await Self.raw(settings, .exposureBiasCompensation)
            #expect(bias == .int16(0))
        }
    }

    @Test func aRestoreTheCameraRefusesSaysWhichPropertiesWereLeft() async throws {
        try await Self.withCamera(faults: [EmulatorFault(.busy(count: 1, operation: .setDevicePropValue))]) {
            settings, _ in
            let saved = try await settings.snapshot(["iso", "wb"])
            // The first SetDevicePropValue is refused (busy); this assignment is refused, so set through raw PTP.
            try? await settings.session.setDevicePropValue(.exposureIndex, .uint16(800))
            try await settings.session.setDevicePropValue(.exposureIndex, .uint16(800))
            try await settings.session.setDevicePropValue(.whiteBalance, .uint16(6))
            try await settings.restore(saved)
            #expect(try await Self.raw(settings, .exposureIndex) == .uint16(100))
            #expect(try await Self.raw(settings, .whiteBalance) == .uint16(2))
        }
        try await Self.withCamera(faults: [EmulatorFault(.busy(count: 1, operation: .setDevicePropValue))]) {
            settings, _ in
            let saved = SettingsSnapshot(entries: [
                .init(definition: try settings.definition(named: "iso"), value: .uint16(800)),
                .init(definition: try settings.definition(named: "wb"), value: .uint16(6)),
            ])
            let error = await #expect(throws: CameraControlError.self) { try await settings.restore(saved) }
            #expect(error?.code == .restoreIncomplete)
            #expect(error?.detail.contains("iso") == true)
            // The second property was still restored.
            #expect(try await Self.raw(settings, .whiteBalance) == .uint16(6))
        }
    }

    @Test func rawFormatsOfTheEmulatedCamera() async throws {
        try await Self.withCamera { settings, _ in
            let catalog = try await RawFormatCatalog.load(settings)
            #expect(catalog.formats == [.bayer16, .bayer14, .bayer12, .linear, .jpeg])
            let auto = try catalog.choose(.auto)
            #expect(auto.offer.format == .bayer16)
            #expect(auto.offer.objectFormat == ObjectFormatCode.tiffEP.rawValue)
            #expect(auto.offer.settings.map(\.assignment) == [PropertyAssignment(name: "bitdepth", value: "16")])
            #expect(auto.reason.contains("highest"))
            #expect(try catalog.choose(.format(.linear)).offer.isDerived)
            let error = #expect(throws: CameraControlError.self) { try catalog.choose(.format(.tiff)) }
            #expect(error?.allowed == ["bayer16", "bayer14", "bayer12", "linear", "jpeg"])
            // The choice's settings work on the camera.
            try await settings.set(try catalog.choose(.format(.bayer12)).offer.settings.map(\.assignment))
            #expect(try await Self.raw(settings, CameraModel.rawBitDepthCode) == .uint8(12))
        }
    }
}
