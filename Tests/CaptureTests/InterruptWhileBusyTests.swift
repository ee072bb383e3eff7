import CameraEmulator
import Capture
import Testing

/// Issue 7 fault matrix: Ctrl-C while the camera answers DeviceBusy to every capture request.
@Suite struct InterruptWhileBusyTests {
    @Test func issue7_aStopDuringABusyStormEndsTheRunInterrupted() async throws {
        let rig = try await CaptureRig(faults: try EmulatorFault.parse(["busy=50"]))
        defer { Task { await rig.close() } }
        let plan = ShootPlan(
            format: .bayer12, count: 1, timing: CaptureTiming(busyAttempts: 3, busyDelay: .milliseconds(10)))
        let stop = StopSignal()
        stop.request()
        // The request comes before the first frame here, which the interval sleep notices; a request that arrives
        // while the busy retries run is the same case once they give up.
        await #expect(throws: CaptureError(.interrupted)) { _ = try await rig.runner(plan, stop: stop).run() }
        #expect(try rig.files().isEmpty)
        #expect(rig.journal.last?.detail == "interrupted")
    }

    @Test func issue7_aStopThatArrivesDuringTheBusyRetriesEndsTheRunInterrupted() async throws {
        let rig = try await CaptureRig(faults: try EmulatorFault.parse(["busy=50"]))
        defer { Task { await rig.close() } }
        let plan = ShootPlan(
            format: .bayer12, count: 1, timing: CaptureTiming(busyAttempts: 6, busyDelay: .milliseconds(200)))
        let stop = StopSignal()
        let runner = try rig.runner(plan, stop: stop)
        Task {
            // Once the first capture request was answered busy.
            while rig.journal.last?.event != "shot-requested" { try await Task.sleep(for: .milliseconds(20)) }
            try await Task.sleep(for: .milliseconds(300))
            stop.request()
        }
        await #expect(throws: CaptureError(.interrupted)) { _ = try await runner.run() }
        #expect(rig.journal.last?.event == "run-finished")
        #expect(rig.journal.last?.detail == "interrupted")
    }
}
