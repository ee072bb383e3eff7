import Foundation
import PTP
import PTPRecord
import PTPTestSupport
import TestSupport
import Testing
import WireFormat

/// The reader against the formats and link types real captures come in, built from rawcap's own recordings.
// One test at a time: they keep the CPU busy, and the test process shares its two pool threads with tests
// that have deadlines (ARCHITECTURE.md, Tests).
@Suite(.serialized) struct CaptureFormatTests {
    /// A recording of the MiniCamera session and its conversation.
    static func recording(_ kind: String) async throws -> ([UInt8], PTPConversation) {
        let folder = try TemporaryDirectory("formats")
        let path = folder.file("\(kind).pcapng").path
        if kind == "usb" {
            _ = try await Sessions.recordUSB(to: path)
        } else {
            _ = try await Sessions.recordPTPIP(to: path)
        }
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        return (bytes, try PTPConversation(capture: MemoryCaptureSource(bytes)))
    }

    /// What must survive any re-encoding: requests, data, responses, events (timestamps change resolution).
    static func essence(_ conversation: PTPConversation) -> [String] {
        conversation.transactions.map {
            "\($0.request) \($0.dataOut ?? []) \($0.dataIn ?? []) \($0.response)"
        } + conversation.events.map { "\($0.event) after \($0.afterTransaction ?? -1)" }
    }

    static func conversation(_ bytes: [UInt8]) throws -> PTPConversation {
        try PTPConversation(capture: MemoryCaptureSource(bytes))
    }

    @Test(arguments: [ByteOrder.little, .big], [false, true])
    func pcapInBothByteOrdersAndResolutions(order: ByteOrder, nanoseconds: Bool) async throws {
        let (bytes, original) = try await Self.recording("ptpip")
        let packets = try CaptureWriter.packets(bytes).map { ($0.timestampNanoseconds, $0.data) }
        let pcap = CaptureWriter.pcap(packets, linkType: .raw, byteOrder: order, nanoseconds: nanoseconds)
        let reread = try Self.conversation(pcap)
        #expect(Self.essence(reread) == Self.essence(original))
        let precision: UInt64 = nanoseconds ? 1 : 1000
        #expect(
            reread.transactions[0].requestTimestampNanoseconds / precision
                == original.transactions[0].requestTimestampNanoseconds / precision)
    }

    @Test(arguments: ["ethernet", "vlan", "sll", "sll2", "ipv4"])
    func ptpipInEveryLinkLayer(link: String) async throws {
        let (bytes, original) = try await Self.recording("ptpip")
        let packets = try CaptureWriter.packets(bytes)
        let (linkType, wrap): (LinkType, ([UInt8]) -> [UInt8]) =
            switch link {
            case "ethernet": (.ethernet, { CaptureWriter.ethernet($0) })
            case "vlan": (.ethernet, { CaptureWriter.ethernet($0, vlan: true) })
            case "sll": (.linuxSLL, CaptureWriter.sll)
            case "sll2": (.linuxSLL2, CaptureWriter.sll2)
            default: (.ipv4, { $0 })
            }
        let pcap = CaptureWriter.pcap(packets.map { ($0.timestampNanoseconds, wrap($0.data)) }, linkType: linkType)
        #expect(Self.essence(try Self.conversation(pcap)) == Self.essence(original))
    }

    @Test func bigEndianPcapngWithSeveralInterfaces() async throws {
        let (bytes, original) = try await Self.recording("ptpip")
        var packets: [(interface: Int, time: UInt64, data: [UInt8])] = []
        for (index, packet) in try CaptureWriter.packets(bytes).enumerated() {
            // Unrelated traffic on a second interface: ARP frames.
            if index % 3 == 0 {
                packets.append(
                    (
                        1, packet.timestampNanoseconds,
                        [UInt8](repeating: 0xFF, count: 12) + [0x08, 0x06] + [UInt8](repeating: 0, count: 28)
                    ))
            }
            packets.append((0, packet.timestampNanoseconds, packet.data))
        }
        let file = CaptureWriter.pcapng(packets, linkTypes: [.raw, .ethernet], byteOrder: .big)
        #expect(Self.essence(try Self.conversation(file)) == Self.essence(original))
    }

    @Test(arguments: [ByteOrder.little, .big], [true, false])
    func usbmonWithBothHeadersInBothByteOrders(order: ByteOrder, mmapped: Bool) async throws {
        let (bytes, original) = try await Self.recording("usb")
        let packets = try CaptureWriter.packets(bytes).map { packet in
            (
                0, packet.timestampNanoseconds,
                try CaptureWriter.usbmon(packet.data, from: .little, to: order, mmapped: mmapped)
            )
        }
        let file = CaptureWriter.pcapng(packets, linkTypes: [mmapped ? .usbLinuxMmapped : .usbLinux], byteOrder: order)
        let reread = try Self.conversation(file)
        #expect(reread.transport == .usb)
        #expect(Self.essence(reread) == Self.essence(original))
    }

    @Test func usbPcapFromWindows() async throws {
        let (bytes, original) = try await Self.recording("usb")
        let packets = try CaptureWriter.packets(bytes).compactMap { packet in
            try CaptureWriter.usbPcap(packet.data).map { (packet.timestampNanoseconds, $0) }
        }
        let reread = try Self.conversation(CaptureWriter.pcap(packets, linkType: .usbPcap))
        #expect(Self.essence(reread) == Self.essence(original))
    }

    @Test func tcpReassemblyCopesWithReorderingAndRetransmissions() async throws {
        let folder = try TemporaryDirectory("formats")
        let path = folder.file("big.pcapng").path
        _ = try await Sessions.recordPTPIP(to: path, pictureByteCount: 300_000)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let original = try Self.conversation(bytes)
        var packets = try CaptureWriter.packets(bytes).map { ($0.timestampNanoseconds, $0.data) }
        // Within one direction of one connection, swap neighbouring segments (the picture spans many), and send
        // every fifth segment twice: what a capture on a busy network looks like. Across directions the capture
        // order is causal and stays.
        func flow(_ packet: [UInt8]) -> String {
            guard let segment = try? TCPSegment.decode(ipPacket: packet[...]) else { return "" }
            return "\(segment.source)>\(segment.destination)"
        }
        var index = 0
        var swaps = 0
        while index + 1 < packets.count {
            if flow(packets[index].1) == flow(packets[index + 1].1) {
                packets.swapAt(index, index + 1)
                swaps += 1
                index += 2
            } else {
                index += 1
            }
        }
        #expect(swaps > 10)
        var shuffled: [(UInt64, [UInt8])] = []
        for (position, packet) in packets.enumerated() {
            shuffled.append(packet)
            if position % 5 == 0 { shuffled.append(packet) }
        }
        let reread = try Self.conversation(CaptureWriter.pcap(shuffled, linkType: .raw))
        #expect(Self.essence(reread) == Self.essence(original))
    }

    @Test func usbTransfersCutByTheSnapLengthAreFilledInAndNoted() async throws {
        let folder = try TemporaryDirectory("formats")
        let path = folder.file("usb.pcapng").path
        let outcome = try await Sessions.recordUSB(to: path, pictureByteCount: 300_000)
        let packets = try CaptureWriter.packets(Array(try Data(contentsOf: URL(fileURLWithPath: path)))).map { packet in
            (
                0, packet.timestampNanoseconds,
                try CaptureWriter.usbmon(packet.data, from: .little, to: .little, mmapped: true, cutTo: 1000)
            )
        }
        let conversation = try Self.conversation(
            CaptureWriter.pcapng(packets, linkTypes: [.usbLinuxMmapped], byteOrder: .little))
        let picture = try #require(conversation.transactions.first { $0.request.code == .getObject }?.dataIn)
        #expect(picture.count == outcome.picture.count)
        #expect(picture.prefix(988) == outcome.picture.prefix(988), "the captured bytes after the 12-byte header")
        #expect(picture.dropFirst(988).allSatisfy { $0 == 0 })
        #expect(conversation.notes.contains { $0.contains("the rest is zeros") })
        #expect(conversation.transactions.count == 10, "the framing after the cut transfer is intact")
    }

    @Test func tcpSegmentsCutByTheSnapLengthAreFilledInAndNoted() async throws {
        let folder = try TemporaryDirectory("formats")
        let path = folder.file("ptpip.pcapng").path
        let outcome = try await Sessions.recordPTPIP(to: path, pictureByteCount: 300_000)
        let packets = try CaptureWriter.packets(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        let pcap = CaptureWriter.pcap(
            packets.map { ($0.timestampNanoseconds, $0.data) }, linkType: .raw, snapLength: 1500, cutTo: 1500)
        let conversation = try Self.conversation(pcap)
        let picture = try #require(conversation.transactions.first { $0.request.code == .getObject }?.dataIn)
        #expect(picture.count == outcome.picture.count)
        #expect(picture.prefix(1000) == outcome.picture.prefix(1000))
        #expect(picture != outcome.picture)
        #expect(conversation.notes.contains { $0.contains("the rest is zeros") })
        #expect(conversation.transactions.count == 10)
    }

    @Test func theEventConnectionIsFoundOnAnyPort() async throws {
        let (bytes, original) = try await Self.recording("ptpip")
        // Move the camera from port 15740 to 4000: only the handshakes identify PTP/IP now.
        let packets = try CaptureWriter.packets(bytes).map { packet -> (UInt64, [UInt8]) in
            guard var segment = try TCPSegment.decode(ipPacket: packet.data[...]) else { return (0, []) }
            if segment.source.port == 15740 { segment.source.port = 4000 }
            if segment.destination.port == 15740 { segment.destination.port = 4000 }
            return (packet.timestampNanoseconds, segment.ipv4Encoded(identification: 1))
        }
        #expect(
            Self.essence(try Self.conversation(CaptureWriter.pcap(packets, linkType: .raw))) == Self.essence(original))
    }

    @Test func aCaptureStartedMidSessionOnPort15740() async throws {
        let (bytes, original) = try await Self.recording("ptpip")
        // Drop the handshakes (TCP and PTP/IP) and OpenSession: the first ten packets.
        let packets = try CaptureWriter.packets(bytes).dropFirst(12).map { ($0.timestampNanoseconds, $0.data) }
        let reread = try Self.conversation(CaptureWriter.pcap(Array(packets), linkType: .raw))
        #expect(reread.transactions.map(\.request.code) == Array(original.transactions.dropFirst().map(\.request.code)))
    }

    @Test func fujifilmsVariantOnPorts55740And55741() async throws {
        let folder = try TemporaryDirectory("fuji")
        let path = folder.file("fuji.pcapng").path
        let recorder = try PcapngRecorder(
            path: path, configuration: .init(rawcapVersion: "test", clock: Sessions.steppingClock()))
        let host = TCPEndpoint(address: [10, 0, 0, 1], port: 50000)
        let camera = TCPEndpoint(address: [10, 0, 0, 2], port: 55740)
        let command = try await recorder.openTCPConnection(client: host, server: camera)
        // Fujifilm's Init Command Request: the magic 0x8F53E4F2 where the version would be, then GUID and name.
        var hello = WireWriter(byteOrder: .little)
        hello.write(UInt32(0))
        hello.write(UInt32(1))
        hello.write(UInt32(0x8F53_E4F2))
        hello.write(bytes: [UInt8](repeating: 0x11, count: 16))
        for unit in "host".utf16 { hello.write(unit) }
        hello.write(UInt16(0))
        hello.set(UInt32(hello.count), at: 0)
        try await recorder.recordTCP(command, from: .client, payload: hello.bytes)
        let ack = PTPIPPacket.initCommandAck(
            .init(
                connectionNumber: 1, guid: PTPIPGUID(Array(repeating: 0x22, count: 16)) ?? .random(),
                friendlyName: "X-T4"))
        try await recorder.recordTCP(command, from: .server, payload: ack.ptpipEncoded)
        // Then USB-style containers: GetDeviceInfo, its data, OK.
        let info = DeviceInfo(
            vendorExtensionID: VendorExtensionID(rawValue: 0x0E), manufacturer: "FUJIFILM", model: "X-T4")
        try await recorder.recordTCP(
            command, from: .client,
            payload: USBContainer.command(.getDeviceInfo, transactionID: 1, parameters: []).usbEncoded)
        let data =
            USBContainerHeader.data(code: 0x1001, transactionID: 1, payloadByteCount: UInt64(info.ptpEncoded.count))
            .usbEncoded + info.ptpEncoded
        try await recorder.recordTCP(command, from: .server, payload: data)
        try await recorder.recordTCP(
            command, from: .server, payload: USBContainer.response(.ok, transactionID: 1, parameters: []).usbEncoded)
        let events = try await recorder.openTCPConnection(
            client: TCPEndpoint(address: [10, 0, 0, 1], port: 50001),
            server: TCPEndpoint(address: [10, 0, 0, 2], port: 55741))
        try await recorder.recordTCP(
            events, from: .server,
            payload: USBContainer.event(.objectAdded, transactionID: 0xFFFF_FFFF, parameters: [7]).usbEncoded)
        let liveView = try await recorder.openTCPConnection(
            client: TCPEndpoint(address: [10, 0, 0, 1], port: 50002),
            server: TCPEndpoint(address: [10, 0, 0, 2], port: 55742))
        try await recorder.recordTCP(
            liveView, from: .server, payload: [0, 0, 0, 20] + [UInt8](repeating: 0xD8, count: 16))
        await recorder.close()
        let conversation = try PTPConversation.load(path: path)
        #expect(conversation.responderName == "X-T4")
        #expect(conversation.transactions.map(\.request.code) == [.getDeviceInfo])
        #expect(conversation.deviceInfo == info)
        #expect(conversation.events.map(\.event) == [PTPEvent(code: .objectAdded, parameters: [7])])
    }
}
