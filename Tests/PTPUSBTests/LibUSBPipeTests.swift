import FakeUSB
import PTP
import PTPUSB
import Testing

/// PTPSession → PTPUSBTransport → LibUSBPipe → libusb → umockdev → the fake camera's USBDeviceSide.
@Suite(.serialized) struct LibUSBPipeTests {
    @Test func getDeviceInfoRoundTrip() async throws {
        try await FakeCameraStack.run { stack in
            let session = stack.session()
            let info = try await session.getDeviceInfo()
            #expect(info.model == "Test Camera")
            #expect(info.manufacturer == "rawcap")
            try await session.openSession()
            let storages = try await session.getStorageIDs()
            #expect(storages == [TestCamera.storage])
            try await session.closeSession()
            #expect(await stack.responder.requests.map(\.code) == [.getDeviceInfo, .openSession, .getStorageIDs, .closeSession])
        }
    }
}
