import CameraEmulator
import Capture
import Logging
import PTP
import TestSupport
import Testing

/// The Fujifilm driver and profile against libgphoto2's rules for real X bodies: whole-object downloads (no
/// GetPartialObject, libgphoto2 issue 653), PriorityMode given back at the end, a failed focus cancelled.
@Suite(.serialized) struct FujifilmBodyRulesTests {
    @Test func shotsDownloadWithGetObjectAndTheBodyGetsItsControlsBack() async throws {
        let (summary, camera, folder) = try await FujifilmCaptureTests.shoot(ShootPlan(format: .auto, count: 1))
        defer { withExtendedLifetime(folder) {} }
        #expect(summary.files.count == 1)
        let transcript = await camera.transcript
        // The X-T2 personality lists GetPartialObject, as the generic body does; rawcap does not use it on Fujifilm.
        #expect(camera.model.operationsSupported.contains(.getPartialObject))
        #expect(!transcript.contains { $0.code == .getPartialObject })
        #expect(transcript.contains { $0.code == .getObject })
        let priority = transcript.filter {
            $0.code == .setDevicePropValue && $0.parameters.first == UInt32(FujifilmCapture.priorityModeProperty.rawValue)
        }
        #expect(priority.count == 2, "USB priority in prepare, the camera's back in finish")
        let session = PTPSession(transport: EmulatorLink.usb(camera).transport)
        try await session.openSession()
        let value = try await session.getDevicePropValue(FujifilmCapture.priorityModeProperty, type: .uint16)
        #expect(value == .uint16(FujifilmCapture.priorityCamera))
    }

    @Test func theFujifilmProfileReadsObjectsWhole() {
        let info = DeviceInfo(
            vendorExtensionID: .fujifilm, operationsSupported: [.getDeviceInfo, .initiateCapture, .getPartialObject],
            manufacturer: "FUJIFILM", model: "X-T2")
        #expect(!CameraProfile.select(for: info).partialObjectDownloads)
        #expect(!CameraIdentity(reportedDeviceInfo: info).allowsPartialObject)
        var nikon = info
        nikon.vendorExtensionID = .nikon
        nikon.manufacturer = "Nikon Corporation"
        #expect(CameraIdentity(reportedDeviceInfo: nikon).allowsPartialObject)
    }

    /// A real X-T2 lists none of its exposure properties (libgphoto2 `cameras/fuji-xt2.txt`); rawcap appends the ones
    /// it uses to a Fujifilm's list, as libgphoto2 `fixup_cached_deviceinfo` does, and to no other maker's.
    @Test func aFujifilmsUnlistedExposurePropertiesAreAppended() async throws {
        let camera = try EmulatedCamera(model: .fujifilm, configuration: .init(sensorWidth: 64, sensorHeight: 48))
        let reported = await camera.deviceInfo
        #expect(!reported.devicePropertiesSupported.contains(.exposureTime))
        let listed = CameraIdentity(reportedDeviceInfo: reported).deviceInfo.devicePropertiesSupported
        #expect(Array(listed.prefix(reported.devicePropertiesSupported.count)) == reported.devicePropertiesSupported)
        #expect(Array(listed.suffix(4)) == [.exposureTime, .fNumber, DevicePropertyCode.Fujifilm.pcMode, .exposureBiasCompensation])
        var nikon = reported
        nikon.vendorExtensionID = .nikon
        nikon.manufacturer = "Nikon Corporation"
        #expect(CameraIdentity(reportedDeviceInfo: nikon).deviceInfo.devicePropertiesSupported == reported.devicePropertiesSupported)
    }

    /// A Fujifilm body whose focus fails: AFStatus goes 1 then 3 after the focus request.
    actor UnfocusedFuji: PTPResponder {
        private(set) var requests: [(PTPRequest, [UInt8]?)] = []
        private var afStatus: UInt16 = 0
        private var polls = 0
        let info = DeviceInfo(
            vendorExtensionID: .fujifilm,
            operationsSupported: [
                .getDeviceInfo, .openSession, .initiateCapture, .getDevicePropValue, .setDevicePropValue,
                .getObjectHandles,
            ],
            devicePropertiesSupported: [
                FujifilmCapture.priorityModeProperty, FujifilmCapture.captureControlProperty,
                DevicePropertyCode.Fujifilm.afStatus,
            ],
            manufacturer: "FUJIFILM", model: "X-T2")

        func expectsDataOut(_ request: PTPRequest) async -> Bool { request.code == .setDevicePropValue }

        func respond(to request: PTPRequest, dataOut: [UInt8]?) async -> PTPResponderReply {
            requests.append((request, dataOut))
            switch request.code {
            case .getDeviceInfo: return .dataset(info)
            case .getObjectHandles: return .dataset(ObjectHandleArray([]))
            case .initiateCapture:
                afStatus = 1
                return PTPResponderReply()
            case .getDevicePropValue where request.parameters.first == UInt32(DevicePropertyCode.Fujifilm.afStatus.rawValue):
                polls += 1
                if afStatus == 1, polls >= 2 { afStatus = 3 }
                return .data([UInt8(afStatus), 0])
            case .getDevicePropValue: return PTPResponderReply(.devicePropNotSupported)
            default: return PTPResponderReply()
            }
        }

        /// The CaptureControl (0xD208) values written, in order.
        var captureControls: [UInt16] {
            requests.compactMap { request, data in
                guard request.code == .setDevicePropValue,
                    request.parameters.first == UInt32(FujifilmCapture.captureControlProperty.rawValue),
                    let data, data.count == 2
                else { return nil }
                return UInt16(data[0]) | UInt16(data[1]) << 8
            }
        }
    }

    @Test func aFailedFocusIsCancelledAndTheShotFails() async throws {
        let camera = UnfocusedFuji()
        let pipe = InMemoryBulkPipe()
        let device = USBDeviceSide(pipe: pipe, responder: camera)
        let running = Task { await device.run() }
        defer { running.cancel() }
        let session = PTPSession(transport: PTPUSBTransport(pipe: pipe), configuration: .init(timeout: .seconds(5)))
        try await session.openSession()
        let driver = FujifilmCaptureDriver(pollInterval: .milliseconds(5))
        try await driver.prepare(session: session, logger: Logger(label: "test"))
        do {
            _ = try await driver.capture(
                session: session, expecting: 1, timing: CaptureTiming(shotTimeout: .seconds(5)), announce: { _ in })
            Issue.record("a shot without focus was reported as taken")
        } catch let error as CaptureError {
            #expect(error.code == .captureTimeout)
            #expect(error.detail.contains("could not focus"), "\(error.detail)")
        }
        // Focus, then the cancel of the half press (0x0004) with its InitiateCapture; no release (0x0304).
        #expect(await camera.captureControls == [FujifilmCapture.focusControl, FujifilmCapture.cancelFocusControl])
        #expect(await camera.requests.filter { $0.0.code == .initiateCapture }.count == 2)
        await driver.finish(session: session, logger: Logger(label: "test"))
        let last = try #require(await camera.requests.last)
        #expect(last.0.parameters == [UInt32(FujifilmCapture.priorityModeProperty.rawValue)] && last.1 == [1, 0])
        await pipe.disconnect()
    }
}
