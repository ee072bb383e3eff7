import Testing

@testable import Capture

/// `DownloadBuffer`: memory follows the bytes that arrived, and a trickling camera is stopped.
@Suite struct DownloadBufferTests {
    /// Issue 7 (hostile camera, `trickle-data`): bytes arriving just often enough that no read times out.
    @Test func issue7_aTricklingDownloadIsStopped() async throws {
        let buffer = DownloadBuffer(
            limit: 1 << 20, floor: DownloadBuffer.RateFloor(bytesPerSecond: 64 * 1024, grace: .milliseconds(200)))
        try await buffer.dataPhaseWillStart(byteCount: 1 << 20)
        try await buffer.write([UInt8](repeating: 1, count: 512)[...])
        try await Task.sleep(for: .milliseconds(400))
        await #expect(throws: CaptureError(.downloadStalled)) {
            try await buffer.write([UInt8](repeating: 1, count: 512)[...])
        }
    }

    @Test func aFastDownloadPassesTheFloor() async throws {
        let buffer = DownloadBuffer(
            limit: 4 << 20, floor: DownloadBuffer.RateFloor(bytesPerSecond: 64 * 1024, grace: .milliseconds(100)))
        for _ in 0..<4 {
            try await buffer.write([UInt8](repeating: 2, count: 1 << 20)[...])
        }
        #expect(await buffer.take().count == 4 << 20)
    }

    /// A claim of 1 GiB reserves no more than ``DownloadBuffer/maxReservation``.
    @Test func issue7_aHugeClaimReservesLittle() async throws {
        let buffer = DownloadBuffer(limit: 1 << 30)
        try await buffer.dataPhaseWillStart(byteCount: 1 << 30 - 1)
        #expect(await buffer.bytes.capacity <= DownloadBuffer.maxReservation * 2)
        await #expect(throws: CaptureError(.badObject)) { try await buffer.dataPhaseWillStart(byteCount: 1 << 31) }
    }
}
