import FakeUSB
import Logging
import PTP
import PTPUSB

/// A fake camera on umockdev's bus with libusb's side opened on it: the production pipe and transport in this
/// process, the camera served from the same process.
struct FakeCameraStack {
    let testbed: FakeUSBTestbed
    let camera: FakeUSBCamera
    let responder: TestCamera
    let context: LibUSBContext
    let info: USBCameraInfo
    let pipe: LibUSBPipe
    let transport: PTPUSBTransport

    func session(timeout: Duration = .seconds(2)) -> PTPSession {
        PTPSession(transport: transport, configuration: .init(timeout: timeout))
    }

    /// Runs `body` with a started camera and an open pipe; closes the pipe before the testbed goes.
    static func run<T>(
        _ configuration: FakeUSBCamera.Configuration = .init(), responder: TestCamera = TestCamera(),
        transport transportConfiguration: PTPUSBTransport.Configuration = .init(recoveryTimeout: .milliseconds(500)),
        _ body: (FakeCameraStack) async throws -> T
    ) async throws -> T {
        try await FakeUSBTestbed.withTestbed { testbed in
            try testbed.requirePreload()
            let camera = try testbed.addCamera(configuration, responder: responder)
            camera.start()
            let context = try await LibUSBContext.make()
            let info = try USBCameraSelector.onlyCamera.select(from: try await context.cameras())
            let pipe = try await LibUSBPipe.open(info, in: context)
            let stack = FakeCameraStack(
                testbed: testbed, camera: camera, responder: responder, context: context, info: info, pipe: pipe,
                transport: PTPUSBTransport(pipe: pipe, configuration: transportConfiguration))
            do {
                let result = try await body(stack)
                await stack.transport.close()
                await pipe.close()
                return result
            } catch {
                await stack.transport.close()
                await pipe.close()
                throw error
            }
        }
    }
}
