import CameraEmulator
import Capture
import Logging
import PTP
import TestSupport
import Testing

/// The Canon EOS driver against small scripted bodies, for the rules libgphoto2 learnt from real ones: RemoteRelease's
/// result parameter, a body busy while it switches to the host, EOS M remote mode, bodies that keep their session.
@Suite struct CanonEOSBodyRulesTests {
    /// An EOS body that answers the preparation, records every request and releases as scripted.
    actor ScriptedEOS: PTPResponder {
        var info: DeviceInfo
        /// DeviceInfo after SetRemoteMode (an EOS M2 changes what it lists).
        var infoInRemoteMode: DeviceInfo?
        /// RemoteRelease's response parameter 1.
        var releaseResult: UInt32 = 0
        /// PCHDDCapacity requests answered DeviceBusy before one is taken.
        var busyCapacities = 0
        private(set) var requests: [PTPRequest] = []
        private var remote = false

        init(_ info: DeviceInfo) { self.info = info }

        func configure(_ body: @Sendable (isolated ScriptedEOS) -> Void) { body(self) }

        func expectsDataOut(_ request: PTPRequest) async -> Bool {
            request.code == OperationCode.Canon.setDevicePropValueEx
        }

        func respond(to request: PTPRequest, dataOut: [UInt8]?) async -> PTPResponderReply {
            requests.append(request)
            switch request.code {
            case .getDeviceInfo:
                return .dataset(remote ? (infoInRemoteMode ?? info) : info)
            case .openSession, .closeSession, OperationCode.Canon.setEventMode,
                OperationCode.Canon.setDevicePropValueEx:
                return PTPResponderReply()
            case OperationCode.Canon.setRemoteMode:
                remote = request.parameters.first != 0
                return PTPResponderReply()
            case OperationCode.Canon.getEvent:
                return .dataset(CanonEOSEventList([]))
            case OperationCode.Canon.pcHDDCapacity:
                if busyCapacities > 0 {
                    busyCapacities -= 1
                    return PTPResponderReply(.deviceBusy)
                }
                return PTPResponderReply()
            case OperationCode.Canon.remoteRelease:
                return PTPResponderReply(.ok, parameters: [releaseResult])
            default:
                return PTPResponderReply(.operationNotSupported)
            }
        }
    }

    /// An EOS body of the 400D's generation: RemoteRelease (0x910F), no RemoteReleaseOn.
    static func olderEOS(model: String = "Canon EOS 400D DIGITAL", extra: [OperationCode] = []) -> DeviceInfo {
        DeviceInfo(
            vendorExtensionID: .canon, vendorExtensionVersion: 100,
            operationsSupported: [
                .getDeviceInfo, .openSession, .closeSession, .getObjectInfo, .getObject,
                OperationCode.Canon.remoteRelease, OperationCode.Canon.setRemoteMode, OperationCode.Canon.setEventMode,
                OperationCode.Canon.getEvent, OperationCode.Canon.setDevicePropValueEx,
                OperationCode.Canon.pcHDDCapacity, OperationCode.Canon.transferComplete,
            ] + extra,
            manufacturer: "Canon Inc.", model: model, deviceVersion: "1", serialNumber: "1")
    }

    struct Rig {
        let camera: ScriptedEOS
        let pipe: InMemoryBulkPipe
        let session: PTPSession
        let running: Task<Void, Never>

        init(_ camera: ScriptedEOS) {
            self.camera = camera
            pipe = InMemoryBulkPipe()
            let device = USBDeviceSide(pipe: pipe, responder: camera)
            running = Task { await device.run() }
            session = PTPSession(transport: PTPUSBTransport(pipe: pipe), configuration: .init(timeout: .seconds(5)))
        }

        func shoot(timeout: Duration = .seconds(3)) async throws -> [AnnouncedObject] {
            try await session.openSession()
            let profile = CameraProfile.select(for: try await session.deviceInfo())
            try await profile.driver.prepare(session: session, logger: Logger(label: "test"))
            return try await profile.driver.capture(
                session: session, expecting: 1, timing: CaptureTiming(shotTimeout: timeout), announce: { _ in })
        }

        func stop() async {
            running.cancel()
            await pipe.disconnect()
        }
    }

    @Test(arguments: [
        (UInt32(1), CaptureError.Code.captureTimeout, "could not focus"),
        (3, .cameraBusy, "mirror"), (7, .cardFull, "no room"), (8, .captureTimeout, "read-only"),
    ])
    func remoteReleaseSaysWhyItDidNotRelease(result: UInt32, code: CaptureError.Code, words: String) async throws {
        let camera = ScriptedEOS(Self.olderEOS())
        await camera.configure { $0.releaseResult = result }
        let rig = Rig(camera)
        do {
            _ = try await rig.shoot(timeout: .seconds(600))
            Issue.record("a refused release was taken for a shot")
        } catch let error as CaptureError {
            #expect(error.code == code)
            #expect(error.detail.contains(words), "\(error.detail)")
        }
        // The cause comes at once: no GetEvent polling for a shot after the refused release.
        #expect(await camera.requests.last?.code == OperationCode.Canon.remoteRelease)
        await rig.stop()
    }

    @Test func aResponseCodeInTheReleaseResultIsThatPTPError() async throws {
        let camera = ScriptedEOS(Self.olderEOS())
        await camera.configure { $0.releaseResult = 0x2013 }  // StoreNotAvailable
        let rig = Rig(camera)
        await #expect(throws: PTPError(response: .storeNotAvailable, operation: OperationCode.Canon.remoteRelease)) {
            _ = try await rig.shoot(timeout: .seconds(20))
        }
        await rig.stop()
    }

    @Test func aBodyBusyWithPCHDDCapacityIsAskedAgain() async throws {
        let camera = ScriptedEOS(Self.olderEOS())
        await camera.configure {
            $0.busyCapacities = 2
            $0.releaseResult = 1
        }
        let rig = Rig(camera)
        // The run gets as far as the release (which this body refuses for focus), not stopped by DeviceBusy.
        await #expect(throws: CaptureError(.captureTimeout)) { _ = try await rig.shoot() }
        let capacities = await camera.requests.filter { $0.code == OperationCode.Canon.pcHDDCapacity }
        #expect(capacities.count == 3)
        #expect(await camera.requests.contains { $0.code == OperationCode.Canon.remoteRelease })
        await rig.stop()
    }

    @Test func anEOSMGetsRemoteMode0x15AndItsDeviceInfoIsReadAgain() async throws {
        var info = Self.olderEOS(model: "Canon EOS M50", extra: [OperationCode.Canon.remoteReleaseOn])
        let camera = ScriptedEOS(info)
        info.operationsSupported.append(OperationCode.Canon.keepDeviceOn)
        await camera.configure { [info] in
            $0.infoInRemoteMode = info
            $0.releaseResult = 1
        }
        let rig = Rig(camera)
        _ = try? await rig.shoot()
        let requests = await camera.requests
        let remote = try #require(requests.firstIndex { $0.code == OperationCode.Canon.setRemoteMode })
        #expect(requests[remote].parameters == [0x15])
        #expect(requests[(remote + 1)...].first?.code == .getDeviceInfo, "DeviceInfo is read again after it")
        #expect(try await rig.session.deviceInfo().supports(OperationCode.Canon.keepDeviceOn))
        await rig.stop()
    }

    @Test func remoteModeFollowsLibgphoto2sTable() {
        func mode(_ model: String, releaseOn: Bool = true) -> UInt32? {
            CanonEOSCapture.remoteMode(
                for: Self.olderEOS(model: model, extra: releaseOn ? [OperationCode.Canon.remoteReleaseOn] : []))
        }
        #expect(mode("Canon EOS 5D Mark IV") == 1)
        #expect(mode("Canon EOS R") == 1)
        #expect(mode("Canon EOS M6") == 0x15)
        #expect(mode("Canon EOS M6 Mark II") == 1)
        #expect(mode("Canon PowerShot SX740 HS") == 0x15)
        #expect(mode("Canon PowerShot SX740 HS", releaseOn: false) == 1, "a PowerShot without 0x9128 is not an EOS M")
        #expect(mode("Canon PowerShot SX540 HS") == 0x11)
        #expect(mode("Canon PowerShot G5 X") == 0x11)
        #expect(mode("Canon PowerShot SX600 HS") == nil)
    }

    @Test func bodiesLibgphoto2KeepsOpenGetNoCloseSession() async throws {
        for (model, closes) in [("Canon EOS 5D Mark IV", false), ("Canon EOS 400D DIGITAL", true)] {
            let camera = ScriptedEOS(Self.olderEOS(model: model))
            let rig = Rig(camera)
            try await rig.session.openSession()
            _ = try await rig.session.cameraIdentity()
            try await rig.session.endSession()
            #expect(await camera.requests.contains { $0.code == .closeSession } == closes, "\(model)")
            await rig.stop()
        }
        // On USB the product ID decides, as in libgphoto2's models[]: 04A9:32DA is the EOS R.
        let identity = CameraIdentity(
            reportedDeviceInfo: Self.olderEOS(model: "Canon EOS R"), usbVendorID: .canon, usbProductID: 0x32DA)
        #expect(SessionEndPolicy.keepsSessionOpen(identity))
        let other = CameraIdentity(
            reportedDeviceInfo: Self.olderEOS(model: "Canon EOS R"), usbVendorID: .canon, usbProductID: 0x3299)
        #expect(!SessionEndPolicy.keepsSessionOpen(other))
    }

    @Test func theEmulated5DMarkIVListsItsCardThroughTheEOSStorageOperations() async throws {
        let camera = try EmulatedCamera(model: .canon, configuration: .init(sensorWidth: 64, sensorHeight: 48))
        let link = EmulatorLink.usb(camera)
        let session = PTPSession(transport: link.transport, configuration: .init(timeout: .seconds(5)))
        try await session.openSession()
        let listing = try await session.listStorages()
        #expect(listing.operations == .canonEOS)
        let standard = try await session.getStorageIDs()
        #expect(listing.stores.map(\.id) == standard)
        let eos = try #require(try listing.stores.first?.info.get())
        #expect(eos == (try await session.getStorageInfo(standard[0])))
        await link.close()
    }
}
