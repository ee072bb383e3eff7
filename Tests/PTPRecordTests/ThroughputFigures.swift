import Foundation
import PTP
import PTPIP
import PTPRecord
import PTPTestSupport
import TestSupport
import Testing

/// Figures for the report, not assertions: run with `RAWCAP_FIGURES=1 swift test -c release --filter
/// ThroughputFigures`.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["RAWCAP_FIGURES"] == "1", "set RAWCAP_FIGURES=1"))
struct ThroughputFigures {
    static let pictureByteCount = 64 << 20

    static func megabytesPerSecond(_ bytes: Int, _ elapsed: Duration) -> String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return String(format: "%.0f MB/s (%.2f s)", Double(bytes) / seconds / 1e6, seconds)
    }

    @Test func figures() async throws {
        // GetObject of 64 MiB over loopback TCP, without and with recording.
        let listener = try PTPIPListener(
            address: .loopback(port: 0),
            server: PTPIPServer(responder: MiniCamera(pictureByteCount: Self.pictureByteCount)))
        let running = Task { await listener.run() }
        let address = PTPIPAddress(host: "127.0.0.1", port: listener.localAddress.port)
        let options = PTPIPConnector.Options(identity: .init(guid: .random(), friendlyName: "figures"))
        let transport = try await PTPIPConnector.connect(to: address, options: options)
        let session = PTPSession(transport: transport, configuration: .init(timeout: .seconds(300)))
        try await session.openSession()
        var start = ContinuousClock.now
        _ = try await session.getObject(MiniCamera.firstHandle, into: PTPMemorySink(limit: 1 << 30))
        print(
            "FIGURE PTP/IP loopback GetObject 64 MiB: \(Self.megabytesPerSecond(Self.pictureByteCount, .now - start))")
        start = .now
        for _ in 0..<1000 { _ = try await session.getDevicePropValue(.exposureIndex, type: .uint16) }
        print("FIGURE PTP/IP loopback GetDevicePropValue round trip: \((ContinuousClock.now - start) / 1000)")
        await transport.close()
        await listener.stop()
        await running.value

        // The same download recorded over the in-memory USB seam, then loaded back.
        let folder = try TemporaryDirectory("figures")
        let path = folder.file("usb.pcapng").path
        start = .now
        _ = try await Sessions.recordUSB(to: path, pictureByteCount: Self.pictureByteCount)
        print(
            "FIGURE USB session with a 64 MiB GetObject, recorded: \(Self.megabytesPerSecond(Self.pictureByteCount, .now - start))"
        )
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        start = .now
        let conversation = try PTPConversation.load(path: path)
        print(
            "FIGURE load a \(size / 1_000_000) MB usbmon recording: \(Self.megabytesPerSecond(size, .now - start)), \(conversation.transactions.count) transactions"
        )
        let ptpipPath = folder.file("ptpip.pcapng").path
        _ = try await Sessions.recordPTPIP(to: ptpipPath, pictureByteCount: Self.pictureByteCount)
        let ptpipSize = (try FileManager.default.attributesOfItem(atPath: ptpipPath)[.size] as? Int) ?? 0
        start = .now
        _ = try PTPConversation.load(path: ptpipPath)
        print(
            "FIGURE load a \(ptpipSize / 1_000_000) MB PTP/IP recording: \(Self.megabytesPerSecond(ptpipSize, .now - start))"
        )
    }
}
