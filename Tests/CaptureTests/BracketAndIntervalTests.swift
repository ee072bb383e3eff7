import CameraEmulator
import Capture
import Foundation
import PTP
import RawDecoders
import RawImage
import Testing

@Suite(.serialized) struct BracketAndIntervalTests {
    /// Mean of the active area's samples, black included: brighter exposures give larger means.
    static func mean(_ frame: RawFrame) -> Double {
        Double(frame.samples.reduce(0) { $0 + Int($1) }) / Double(frame.samples.count)
    }

    @Test func aBracketOfThreeHasThreeExposuresAndRestoresTheBias() async throws {
        let rig = try await CaptureRig()
        defer { Task { await rig.close() } }
        let summary = try await rig.shoot(ShootPlan(format: .bayer14, count: 1, bracket: [-2, 0, 2]))
        #expect(summary.files.count == 3)
        let frames = try summary.files.map { try #require(try RawDecoder.decode(contentsOf: $0.path).frame) }
        #expect(frames.map { $0.metadata.exposureBias?.doubleValue } == [-2, 0, 2])
        #expect(summary.files.map(\.exposure?.bias) == [-2, 0, 2])
        let means = frames.map(Self.mean)
        #expect(means[0] < means[1] && means[1] < means[2], "\(means)")
        #expect(
            summary.files.map { URL(fileURLWithPath: $0.path).lastPathComponent.contains("ev") } == [true, true, true])
        #expect(try await rig.value(.exposureBiasCompensation) == .int16(0))
        #expect(rig.journal.filter { $0.event == "shot-requested" }.map(\.bracket) == [-2, 0, 2])
    }

    /// A camera without exposure bias: the bracket scales the exposure time by 2^EV (1/125 s gives 1/500, 1/125,
    /// 1/30 in third stops) and puts it back afterwards.
    @Test func aBracketWithoutExposureBiasUsesExposureTime() async throws {
        let rig = try await CaptureRig(model: .genericWithoutExposureBias)
        defer { Task { await rig.close() } }
        #expect(!(try await rig.session.getDeviceInfo().devicePropertiesSupported.contains(.exposureBiasCompensation)))
        let before = try await rig.value(.exposureTime)
        let summary = try await rig.shoot(ShootPlan(format: .bayer14, count: 1, bracket: [-2, 0, 2]))
        #expect(summary.files.count == 3)
        let frames = try summary.files.map { try #require(try RawDecoder.decode(contentsOf: $0.path).frame) }
        let times = frames.compactMap { $0.metadata.exposureTime?.doubleValue }
        #expect(times.count == 3)
        if times.count == 3 {
            #expect(abs(times[0] / times[1] - 0.25) < 0.05 && abs(times[2] / times[1] - 4) < 0.8, "\(times)")
        }
        let means = frames.map(Self.mean)
        #expect(means[0] < means[1] && means[1] < means[2], "\(means)")
        #expect(rig.journal.filter { $0.event == "shot-requested" }.map(\.bracket) == [-2, 0, 2])
        #expect(try await rig.value(.exposureTime) == before, "the exposure time is put back")
    }

    @Test func theBiasIsRestoredAfterAnError() async throws {
        // The second shot of the bracket finds the card full: the run fails, the bias goes back.
        let rig = try await CaptureRig(cardCapacity: 60_000)
        defer { Task { await rig.close() } }
        await #expect(throws: CaptureError(.cardFull)) {
            _ = try await rig.shoot(ShootPlan(format: .bayer14, count: 1, bracket: [-1, 1]))
        }
        #expect(try await rig.value(.exposureBiasCompensation) == .int16(0))
        #expect(rig.journal.last?.event == "run-failed")
        #expect(rig.journal.last?.code == "cardFull")
    }

    @Test func intervalFramesFollowTheComputedSchedule() async throws {
        let rig = try await CaptureRig()
        defer { Task { await rig.close() } }
        let summary = try await rig.shoot(ShootPlan(format: .bayer12, count: 3, interval: .milliseconds(700)))
        #expect(summary.scheduled == [0, 0.7, 1.4])
        for (scheduled, started) in zip(summary.scheduled, summary.started) { #expect(started >= scheduled) }
        let requested = rig.journal.filter { $0.event == "shot-requested" }
        #expect(requested.map(\.scheduled) == [0, 0.7, 1.4])
        #expect(requested.map(\.shot) == [0, 1, 2])
        #expect(summary.files.count == 3)
    }

    @Test func anOverrunFrameIsReportedNotSkipped() async throws {
        // Every shot takes at least 100 ms (the camera answers InitiateCapture that late), far longer than the 1 ms
        // interval plus the overrun tolerance, however fast the machine: every frame after the first starts late.
        let rig = try await CaptureRig(faults: [EmulatorFault(.delay(operation: .initiateCapture, milliseconds: 100))])
        defer { Task { await rig.close() } }
        let summary = try await rig.shoot(ShootPlan(format: .bayer12, count: 3, interval: .milliseconds(1)))
        #expect(summary.files.count == 3)
        #expect(summary.scheduled == [0, 0.001, 0.002])
        #expect(summary.overruns == [1, 2])
        #expect(rig.journal.filter { $0.event == "shot-overrun" }.map(\.shot) == [1, 2])
        #expect(rig.events.warnings.contains { $0.contains("late") })
    }

    @Test func parsesBracketsAndDurations() throws {
        #expect(try ShootPlan.parseBracket("-2,0,+2") == [-2, 0, 2])
        #expect(try ShootPlan.parseBracket("-0.7, 0.7") == [-0.7, 0.7])
        #expect(throws: CaptureError(.invalidPlan)) { try ShootPlan.parseBracket("-2,x") }
        #expect(try ShootPlan.parseDuration("500ms") == .milliseconds(500))
        #expect(try ShootPlan.parseDuration("2m") == .seconds(120))
        #expect(try ShootPlan.parseDuration("5") == .seconds(5))
        #expect(throws: CaptureError(.invalidPlan)) { try ShootPlan.parseDuration("-1s") }
    }
}
