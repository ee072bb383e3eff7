import Foundation
import PTP
import PTPRecord
import PTPTestSupport
import TestSupport
import Testing

/// Recordings of a MiniCamera session, read back by tshark and by rawcap's own reader.
// One test at a time: they keep the CPU busy, and the test process shares its two pool threads with tests
// that have deadlines (ARCHITECTURE.md, Tests).
@Suite(.serialized) struct RecordingTests {
    static let expectedOperations: [OperationCode] = [
        .openSession, .getDeviceInfo, .getStorageIDs, .getObjectHandles, .getObjectInfo, .getObject,
        .setDevicePropValue, .getDevicePropValue, .initiateCapture, .closeSession,
    ]

    @Test func usbRecordingShowsTheEndpointsInTshark() async throws {
        let folder = try TemporaryDirectory("rec")
        let path = folder.file("usb.pcapng").path
        _ = try await Sessions.recordUSB(to: path)
        let result = try await Sessions.tshark([
            "-r", path, "-T", "fields", "-e", "usb.endpoint_address", "-e", "usb.urb_type", "-e", "usb.transfer_type",
            "-e", "usb.bInterfaceClass",
        ])
        #expect(result.status == 0, "\(result.errorOutput)")
        let rows = result.output.split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false)
        }
        let endpoints = Set(rows.compactMap { $0.first.map(String.init) })
        #expect(endpoints == ["0x80", "0x81", "0x02", "0x83"], "control, bulk IN, bulk OUT, interrupt IN")
        // Once the configuration descriptor is known, tshark tags the bulk transfers with the Still Image class.
        #expect(rows.contains { $0.first == "0x81" && $0.last == "0x06" })
        #expect(
            rows.filter { $0.count > 1 && $0[1] == "'S'" }.count == rows.filter { $0.count > 1 && $0[1] == "'C'" }.count
        )
        #expect(rows.contains { $0.first == "0x83" && $0[2] == "0x01" }, "the interrupt endpoint's transfers")
    }

    @Test func ptpipRecordingDecodesWithTheDissector() async throws {
        let folder = try TemporaryDirectory("rec")
        let path = folder.file("ptpip.pcapng").path
        _ = try await Sessions.recordPTPIP(to: path, pictureByteCount: 200_000)
        let result = try await Sessions.tshark([
            "-r", path, "-Y", "ptpip", "-T", "fields", "-e", "ptpip.pktType", "-e", "ptpip.opcode", "-e",
            "ptpip.respcode", "-e", "ptpip.eventcode", "-e", "ptpip.name",
        ])
        #expect(result.status == 0, "\(result.errorOutput)")
        let rows = result.output.split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        // Wireshark 4.0's dissector files the response code under ptpip.opcode too; the packet type tells them apart.
        let requests = rows.filter { $0.first == "0x00000006" }.map { $0[1] }
        #expect(requests == Self.expectedOperations.map { String(format: "0x%04x", $0.rawValue) })
        let responses = rows.filter { $0.first == "0x00000007" }.map { $0[1] + $0[2] }
        #expect(responses == Array(repeating: "0x2001", count: Self.expectedOperations.count))
        #expect(rows.contains { $0.count > 3 && $0[3] == "0x4002" }, "ObjectAdded on the event connection")
        #expect(rows.contains { $0.last == "MiniCam 1" } && rows.contains { $0.last == "rawcap-test" })
    }

    @Test(arguments: ["usb", "ptpip"])
    func theHeaderNamesRawcapAndTheCamera(kind: String) async throws {
        let folder = try TemporaryDirectory("rec")
        let path = folder.file("\(kind).pcapng").path
        if kind == "usb" {
            _ = try await Sessions.recordUSB(to: path)
        } else {
            _ = try await Sessions.recordPTPIP(to: path)
        }
        let reader = try CaptureFileReader(path: path)
        var copy = reader
        while try copy.next() != nil {}
        #expect(copy.userApplication == "rawcap test")
        #expect(copy.sectionComments.first == "Recorded by rawcap test")
        #expect(copy.sectionComments.dropFirst().first?.trimmingCharacters(in: .whitespaces) == "camera: MiniCam 1")
        let capinfos = try await Subprocess.runDetached(try ExternalTool.require("capinfos"), ["-k", path])
        #expect(capinfos.output.contains("camera: MiniCam 1"), "\(capinfos.output)")
    }

    @Test(arguments: ["usb", "ptpip"])
    func theReaderRebuildsTheConversation(kind: String) async throws {
        let folder = try TemporaryDirectory("rec")
        let path = folder.file("\(kind).pcapng").path
        let outcome =
            kind == "usb" ? try await Sessions.recordUSB(to: path) : try await Sessions.recordPTPIP(to: path)
        let conversation = try PTPConversation.load(path: path)
        #expect(conversation.transport == (kind == "usb" ? .usb : .ptpip))
        #expect(conversation.transactions.map(\.request.code) == Self.expectedOperations)
        #expect(conversation.transactions.map(\.request.transactionID) == Array(0...9))
        #expect(conversation.transactions.allSatisfy { $0.response.code == .ok })
        #expect(conversation.transactions[5].dataIn == outcome.picture)
        #expect(conversation.transactions[6].dataOut == PTPValue.uint16(400).ptpEncoded)
        #expect(conversation.events.map(\.event.code) == [.objectAdded, .captureComplete])
        #expect(conversation.events.allSatisfy { $0.afterTransaction == 8 }, "after InitiateCapture")
        #expect(conversation.cameraModel == "MiniCam 1")
        #expect(conversation.notes.isEmpty, "\(conversation.notes)")
        let times = conversation.transactions.map(\.requestTimestampNanoseconds)
        #expect(times == times.sorted() && times.first ?? 0 > 1_704_067_200_000_000_000)
    }

    @Test func anUnclosedRecordingIsReadable() async throws {
        // A recorder that is never closed (the process died): every block written so far is whole on disk.
        let folder = try TemporaryDirectory("rec")
        let path = folder.file("crash.pcapng").path
        let recorder = try PcapngRecorder(path: path, configuration: .init(rawcapVersion: "test"))
        let memory = InMemoryBulkPipe()
        let device = USBDeviceSide(pipe: memory, responder: MiniCamera())
        let running = Task { await device.run() }
        let pipe = try await RecordingBulkPipe.start(wrapping: memory, recorder: recorder)
        let session = PTPSession(transport: PTPUSBTransport(pipe: pipe), configuration: .init(timeout: .seconds(300)))
        try await session.openSession()
        _ = try await session.getDeviceInfo()
        let snapshot = try Data(contentsOf: URL(fileURLWithPath: path))
        let copy = folder.file("copy.pcapng")
        try snapshot.write(to: copy)
        let conversation = try PTPConversation(capture: MemoryCaptureSource(Array(snapshot)))
        #expect(conversation.transactions.map(\.request.code) == [.openSession, .getDeviceInfo])
        #expect(try await Sessions.tshark(["-r", copy.path]).status == 0)
        running.cancel()
        await memory.disconnect()
        await recorder.close()
    }

    @Test func ipv6EndpointsAreRecordedWithPlaceholderAddresses() async throws {
        let folder = try TemporaryDirectory("rec")
        let path = folder.file("v6.pcapng").path
        let recorder = try PcapngRecorder(path: path, configuration: .init(rawcapVersion: "test"))
        let loopback6 = [UInt8](repeating: 0, count: 15) + [1]
        let connection = try await recorder.openTCPConnection(
            client: TCPEndpoint(address: loopback6, port: 50000), server: TCPEndpoint(address: loopback6, port: 15740))
        try await recorder.recordTCP(
            connection, from: .client, payload: PTPIPPacket.initEventRequest(connectionNumber: 1).ptpipEncoded)
        await recorder.close()
        let packets = try CaptureWriter.packets(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        let segment = try #require(try TCPSegment.decode(ipPacket: packets[3].data[...]))
        #expect(segment.source == TCPEndpoint(address: [10, 0, 0, 1], port: 50000))
        #expect(segment.destination == TCPEndpoint(address: [10, 0, 0, 2], port: 15740))
    }

    @Test func anExistingFileIsNeverOverwritten() throws {
        let folder = try TemporaryDirectory("rec")
        let path = folder.file("taken.pcapng").path
        try Data("precious".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: RecordError(.ioError)) {
            _ = try PcapngRecorder(path: path, configuration: .init(rawcapVersion: "t"))
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious")
    }
}
