import Foundation
import PTPRecord
import Testing

/// Turns a `Fixtures/ptp-real` transcription of PTP/IP packets (each record one whole packet, its comment saying
/// "initiator -> responder" or not, and "event connection" or not) into a pcapng trace of two TCP connections to
/// port 15740. Addresses, ports and timestamps are synthetic (the sources hold packets, not captures): the host is
/// 192.168.122.10 (ports 50112 and 50113), the camera 192.168.122.1, one packet per millisecond from 2020-01-01.
enum PTPIPFlowFixture {
    /// Writes `hexPath` (relative to `Fixtures/`) as a pcapng at `path`, naming `cameraModel` in its header.
    static func convert(hexPath: String, to path: String, cameraModel: String) async throws {
        let source = try HexFixture(hexPath)
        let start: UInt64 = 1_577_836_800_000_000_000
        let counter = Sessions.Counter()
        let recorder = try PcapngRecorder(
            path: path,
            configuration: .init(
                rawcapVersion: "0.1.0 (converted from Fixtures/\(hexPath))", cameraModel: cameraModel,
                clock: { start + counter.next() * 1_000_000 }, operatingSystem: "Linux"))
        let host: [UInt8] = [192, 168, 122, 10]
        let server = TCPEndpoint(address: [192, 168, 122, 1], port: 15740)
        let command = try await recorder.openTCPConnection(
            client: TCPEndpoint(address: host, port: 50112), server: server)
        var event: PcapngRecorder.TCPConnectionID?
        for record in source.records {
            let comment = record.comments.joined(separator: " ")
            let side: PcapngRecorder.TCPSide = comment.contains("initiator -> responder") ? .client : .server
            if comment.contains("event connection") {
                if event == nil {
                    event = try await recorder.openTCPConnection(
                        client: TCPEndpoint(address: host, port: 50113), server: server)
                }
                try await recorder.recordTCP(try #require(event), from: side, payload: record.bytes)
            } else {
                try await recorder.recordTCP(command, from: side, payload: record.bytes)
            }
        }
        try await recorder.closeTCP(command, from: .client)
        if let event { try await recorder.closeTCP(event, from: .client) }
        await recorder.close()
    }
}
