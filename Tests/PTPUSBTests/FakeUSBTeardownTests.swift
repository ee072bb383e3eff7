import FakeUSB
import PTP
import PTPUSB
import Synchronization
import Testing

/// The fake camera's teardown against work still running on the camera's queue: once the testbed has freed the C
/// device model, nothing may reach it. The limit counts the wait for the process's one testbed
/// (`FakeUSBTestbedGate`), which the other fake-USB suites hold in turn while the whole suite runs in parallel.
@Suite(.serialized, .timeLimit(.minutes(3))) struct FakeUSBTeardownTests {
    /// The control pump answers the host's class requests on the camera's queue, awaiting the handler in between.
    /// A handler still running as the testbed goes is waited for, and its answer is dropped: it used to reach
    /// `fakeusb_answer_control` on the freed device (AddressSanitizer: heap-use-after-free), which corrupted the
    /// heap of the test process.
    @Test func aClassRequestStillBeingAnsweredWhenTheTestbedGoesIsWaitedFor() async throws {
        let progress = HandlerProgress()
        try await FakeCameraStack.run { stack in
            // The handler here stands in for the device side's (which answers Cancel by discarding queues and
            // telling the responder): one that takes its time.
            await stack.camera.stop()
            await stack.camera.device.setControlHandler { _, _ in
                progress.enter()
                // Work of its own that the pump's cancellation does not cut short.
                await Task.detached { try? await Task.sleep(for: .seconds(1)) }.value
                progress.leave()
                return .data([4, 0, 0x01, 0x20])
            }
            let pipe = stack.pipe
            // libusb gives up on the request after 100 ms (the handler is still busy then), so the pipe closes.
            let request = Task {
                try? await pipe.classRequest(.getDeviceStatus, data: [], maxLength: 64, timeout: .milliseconds(100))
            }
            let deadline = ContinuousClock.now + .seconds(10)
            while !progress.hasEntered && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
            try #require(progress.hasEntered, "the class request did not reach the camera")
            _ = await request.value
        }
        #expect(progress.hasLeft, "the testbed went while the camera was still answering a class request")
        // Time for a late answer to reach the freed device, as it did before the teardown waited for it.
        try await Task.sleep(for: .milliseconds(1500))
    }
}

/// Where a control handler is: not entered yet, running, or done.
private final class HandlerProgress: Sendable {
    private let stage = Atomic<Int>(0)

    func enter() { stage.store(1, ordering: .sequentiallyConsistent) }
    func leave() { stage.store(2, ordering: .sequentiallyConsistent) }
    var hasEntered: Bool { stage.load(ordering: .sequentiallyConsistent) >= 1 }
    var hasLeft: Bool { stage.load(ordering: .sequentiallyConsistent) == 2 }
}
