import Testing

@testable import PTP

/// Datasets have a deadline (issue 18): a data phase into memory still arriving after the session's timeout must
/// have averaged ``PTPMemorySink/floorBytesPerSecond``; one that completes, however late its last chunk, is kept.
@Suite struct MemorySinkDeadlineTests {
    @Test func aTrickleIsStoppedOnceTheTimeoutHasPassed() async throws {
        let sink = PTPMemorySink(timeout: .milliseconds(100))
        try await sink.dataPhaseWillStart(byteCount: 16_000_000)
        try await sink.write([1][...])
        try await Task.sleep(for: .milliseconds(150))
        await #expect(throws: TransportError.self) { try await sink.write([2][...]) }
    }

    @Test func aLateLastChunkCompletesTheDataPhase() async throws {
        let sink = PTPMemorySink(timeout: .milliseconds(100))
        try await sink.dataPhaseWillStart(byteCount: 2)
        try await sink.write([1][...])
        try await Task.sleep(for: .milliseconds(150))
        try await sink.write([2][...])
        #expect(await sink.bytes == [1, 2])
    }

    @Test func withoutATimeoutThereIsNoDeadline() async throws {
        let sink = PTPMemorySink()
        try await sink.dataPhaseWillStart(byteCount: 16_000_000)
        try await sink.write([1][...])
        try await Task.sleep(for: .milliseconds(150))
        try await sink.write([2][...])
        #expect(await sink.bytes.count == 2)
    }
}
