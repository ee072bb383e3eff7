import Foundation
import PTP
import PTPRecord
import TestSupport
import Testing

/// The Sony DSC-RX100M7 PTP/IP packets of `Fixtures/ptp-real`, as a pcapng trace in `Fixtures/traces`: converted by
/// ``convert(to:)``, replayed leniently under a real ``PTPSession``.
@Suite struct SonyRX100M7FixtureTests {
    static let fixture = "traces/sony-rx100m7-ptpip/connect-getdeviceinfo.pcapng"
    static var fixturePath: String {
        ExternalTool.packageRoot.appendingPathComponent("Fixtures").appendingPathComponent(fixture).path
    }

    /// Writes the packets of `ptp-real/sony-dsc-rx100m7_ptpip-connect.hex` as two TCP connections to port 15740
    /// (addresses, ports and timestamps are synthetic: the source has none), in the order of the flow file.
    static func convert(to path: String) async throws {
        let source = try HexFixture("ptp-real/sony-dsc-rx100m7_ptpip-connect.hex")
        let start: UInt64 = 1_577_836_800_000_000_000  // 2020-01-01, a round number: the source has no times
        let counter = Sessions.Counter()
        let recorder = try PcapngRecorder(
            path: path,
            configuration: .init(
                rawcapVersion: "0.1.0 (converted from Fixtures/ptp-real/sony-dsc-rx100m7_ptpip-connect.hex)",
                cameraModel: "DSC-RX100M7", clock: { start + counter.next() * 1_000_000 }, operatingSystem: "Linux"))
        let host: [UInt8] = [192, 168, 122, 10]
        let camera: [UInt8] = [192, 168, 122, 1]
        let server = TCPEndpoint(address: camera, port: 15740)
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

    @Test(.enabled(if: ProcessInfo.processInfo.environment["RAWCAP_RECORD"] == "1", "set RAWCAP_RECORD=1 to rewrite"))
    func rewriteTheFixture() async throws {
        try? FileManager.default.removeItem(atPath: Self.fixturePath)
        try await Self.convert(to: Self.fixturePath)
    }

    @Test func theFixtureIsTheConvertedHexFile() async throws {
        let folder = try TemporaryDirectory("sony")
        let path = folder.file("sony.pcapng").path
        try await Self.convert(to: path)
        let fresh = try Data(contentsOf: URL(fileURLWithPath: path))
        let committed = try Data(contentsOf: URL(fileURLWithPath: Self.fixturePath))
        #expect(fresh == committed, "rerun with RAWCAP_RECORD=1 if the converter changed on purpose")
    }

    @Test func theTraceHoldsTheConversation() throws {
        let conversation = try PTPConversation.load(path: Self.fixturePath)
        #expect(conversation.transport == .ptpip)
        #expect(conversation.responderName == "DSC-RX100M7")
        #expect(conversation.transactions.map(\.request.code) == [.openSession, .getDeviceInfo])
        // The flow file is hand-assembled: GetDeviceInfo carries transaction ID 2 after OpenSession's 0.
        #expect(conversation.transactions.map(\.request.transactionID) == [0, 2])
        #expect(conversation.transactions[1].dataIn?.count == 293)
        #expect(conversation.notes.isEmpty)
        let info = try #require(conversation.deviceInfo)
        #expect(info.model == "DSC-RX100M7" && info.manufacturer == "Sony Corporation")
    }

    @Test func tsharkDecodesTheTrace() async throws {
        let result = try await Sessions.tshark([
            "-r", Self.fixturePath, "-Y", "ptpip", "-T", "fields", "-e", "ptpip.pktType", "-e", "ptpip.opcode",
        ])
        #expect(result.status == 0)
        let requests = result.output.split(separator: "\n").filter { $0.hasPrefix("0x00000006") }
        #expect(requests.map { $0.split(separator: "\t").last.map(String.init) } == ["0x1002", "0x1001"])
    }

    @Test func aSessionReadsTheDeviceInfoThroughALenientReplay() async throws {
        let conversation = try PTPConversation.load(path: Self.fixturePath)
        let camera = ReplayCamera(conversation: conversation, mode: .lenient)
        let session = PTPSession(transport: camera.transport(), configuration: .init(timeout: .seconds(300)))
        try await session.openSession()
        let info = try await session.getDeviceInfo()
        #expect(info.model == "DSC-RX100M7")
        #expect(info.vendorExtensionID == VendorExtensionID(rawValue: 0x11))
        #expect(info.serialNumber == "00000000000000008081886002895251")
        #expect(info.operationsSupported.count == 27)
        #expect(await session.vendor == VendorExtensionID(rawValue: 0x11))
        await camera.stop()
    }
}
