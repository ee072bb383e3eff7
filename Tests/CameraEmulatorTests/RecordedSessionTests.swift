import CameraEmulator
import Foundation
import PTP
import PTPRecord
import TestSupport
import Testing

/// rawcap's client (``PTP/PTPSession``) against the emulator over each recordable reach, recorded as `--record`
/// does, then replayed strictly: the replay must accept exactly the requests of the live session and give back the
/// same values and the same files.
@Suite(.serialized) struct RecordedSessionTests {
    /// Every property read and set, a shot of each quality (RAW, RAW+JPEG, JPEG) with every object downloaded.
    /// Returns the downloads by file name, in order of arrival.
    static func exercise(_ session: PTPSession) async throws -> [(String, [UInt8])] {
        try await session.openSession()
        try await PropertyTests.exerciseEveryProperty(session)
        var files: [(String, [UInt8])] = []
        for quality in [UInt8(4), 5, 2] {
            try await session.setDevicePropValue(.compressionSetting, .uint8(quality))
            for handle in try await shoot(session, timeout: .seconds(60)) {
                let info = try await session.getObjectInfo(handle)
                files.append((info.filename, try await download(session, handle)))
            }
        }
        try await session.closeSession()
        return files
    }

    @Test(arguments: Reach.recordable)
    func aRecordedSessionReplaysStrictly(reach: Reach) async throws {
        let folder = try TemporaryDirectory("recorded-session")
        let path = folder.file("session.pcapng").path
        let recorder = try PcapngRecorder(
            path: path, configuration: .init(rawcapVersion: "tests", cameraModel: "Emulated Camera"))
        let link = try await reach.connect(try smallCamera(width: 160, height: 120), recorder: recorder)
        let live = try await Self.exercise(Reach.session(link))
        await link.close()
        await recorder.close()
        #expect(live.map(\.0) == ["RCAP0001.TIF", "RCAP0002.TIF", "RCAP0002.JPG", "RCAP0003.JPG"])

        let conversation = try PTPConversation.load(path: path)
        let replay = ReplayCamera(conversation: conversation, mode: .strict)
        let transport = replay.transport()
        let replayed = try await Self.exercise(
            PTPSession(transport: transport, configuration: .init(timeout: .seconds(30))))
        await transport.close()
        await replay.stop()
        #expect(await replay.responder.mismatch == nil)
        #expect(await replay.responder.answeredWithFallback == 0)
        #expect(replayed.map(\.0) == live.map(\.0))
        for ((name, replayedBytes), (_, liveBytes)) in zip(replayed, live) {
            #expect(replayedBytes == liveBytes, "\(name)")
        }
    }

    /// A camera whose interrupt endpoint has 8-byte packets (Canon's) sends each event in several interrupt
    /// transfers: PTPRecord's USB capture decoder stitches them by the container's length, as the live session does,
    /// and the recording replays strictly with the shot's events.
    @Test func eventsSplitOverInterruptPacketsLoadAndReplay() async throws {
        let folder = try TemporaryDirectory("recorded-session")
        let path = folder.file("session.pcapng").path
        let recorder = try PcapngRecorder(path: path, configuration: .init(rawcapVersion: "tests"))
        let link = try await FakeUSBReach.open(
            try smallCamera(width: 160, height: 120), recorder: recorder, interruptPacketSize: 8)
        let session = Reach.session(link)
        try await session.openSession()
        #expect(try await shoot(session, timeout: .seconds(60)).count == 1, "the live session stitches the events")
        await link.close()
        await recorder.close()
        let conversation = try PTPConversation.load(path: path)
        let replay = ReplayCamera(conversation: conversation, mode: .strict)
        let transport = replay.transport()
        let replayed = PTPSession(transport: transport, configuration: .init(timeout: .seconds(30)))
        try await replayed.openSession()
        #expect(try await shoot(replayed, timeout: .seconds(60)).count == 1, "the events replay")
        await transport.close()
        await replay.stop()
        #expect(await replay.responder.mismatch == nil)
    }
}
