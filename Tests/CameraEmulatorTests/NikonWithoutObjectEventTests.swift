import CameraEmulator
import PTP
import Testing

/// `nikon-no-object-event`: a D850 that never names its shot. GetEvent reports only CaptureCompleteRecInSdram; the
/// shot waits at 0xFFFF0001, one object after the other.
@Suite struct NikonWithoutObjectEventTests {
    static func session() async throws -> (PTPSession, EmulatorLink) {
        let camera = try EmulatedCamera(
            model: .nikonWithoutObjectEvents, configuration: .init(sensorWidth: 96, sensorHeight: 64))
        let link = EmulatorLink.usb(camera)
        let session = PTPSession(transport: link.transport)
        try await session.openSession()
        return (session, link)
    }

    /// GetEvent until CaptureCompleteRecInSdram; every event seen on the way.
    static func eventsUntilCaptureComplete(_ session: PTPSession) async throws -> [NikonEventList.Event] {
        var seen: [NikonEventList.Event] = []
        for _ in 0..<500 {
            seen += try await session.nikonGetEvents().events
            if seen.contains(where: { $0.code == EventCode.Nikon.captureCompleteRecInSdram }) { return seen }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("no CaptureCompleteRecInSdram: \(seen)")
        return seen
    }

    @Test func deviceInfoListsNoObjectAddedInSdram() async throws {
        let (session, link) = try await Self.session()
        let info = try await session.getDeviceInfo()
        #expect(info.model == "D850")
        #expect(!info.eventsSupported.contains(EventCode.Nikon.objectAddedInSdram))
        #expect(info.eventsSupported.contains(EventCode.Nikon.captureCompleteRecInSdram))
        await link.close()
    }

    @Test func aRawPlusJPEGShotWaitsAtFFFF0001OneObjectAfterTheOther() async throws {
        let (session, link) = try await Self.session()
        try await session.setDevicePropValue(.compressionSetting, .uint8(12))  // the D850's NEF + JPEG Fine
        #expect(try await session.nikonInitiateCaptureRecInSdram())
        let events = try await Self.eventsUntilCaptureComplete(session)
        #expect(!events.contains { $0.code == EventCode.Nikon.objectAddedInSdram }, "\(events)")
        let first = NikonCaptureSequence.sdramHandle
        let nef = try await session.getObjectInfo(first)
        #expect(nef.filename == "DSC_0001.NEF")
        // Only 0xFFFF0001 answers: the JPEG is not reachable at a handle of its own.
        await #expect(throws: PTPError(response: .invalidObjectHandle, operation: .getObjectInfo)) {
            try await session.getObjectInfo(ObjectHandle(rawValue: first.rawValue + 1))
        }
        // Deleting the NEF brings the JPEG up; deleting that empties SDRAM.
        try await session.deleteObject(first)
        let jpeg = try await session.getObjectInfo(first)
        #expect(jpeg.filename == "DSC_0001.JPG" && jpeg.objectFormat == .exifJPEG)
        try await session.deleteObject(first)
        await #expect(throws: PTPError(response: .invalidObjectHandle, operation: .getObjectInfo)) {
            try await session.getObjectInfo(first)
        }
        await link.close()
    }
}
