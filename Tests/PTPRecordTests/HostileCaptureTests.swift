import Foundation
import PTP
import PTPRecord
import TestSupport
import Testing
import WireFormat

/// A recording is untrusted input: broken files give typed errors with the block offset, never a crash or a huge
/// allocation.
// One test at a time: they keep the CPU busy, and the test process shares its two pool threads with tests
// that have deadlines (ARCHITECTURE.md, Tests).
@Suite(.serialized) struct HostileCaptureTests {
    static var sony: [UInt8] {
        get throws { Array(try Data(contentsOf: URL(fileURLWithPath: SonyRX100M7FixtureTests.fixturePath))) }
    }

    /// Reads a capture to the end, returning the conversation or the error; anything but the two typed errors
    /// fails the test.
    static func outcome(_ bytes: [UInt8]) -> Result<PTPConversation, any Error> {
        Result { try PTPConversation(capture: MemoryCaptureSource(bytes)) }
    }

    static func isTyped(_ error: any Error) -> Bool { error is PcapError || error is RecordError }

    /// The offsets of the blocks of a pcapng file.
    static func blockOffsets(_ bytes: [UInt8]) -> [Int] {
        var offsets: [Int] = []
        var offset = 0
        while offset + 8 <= bytes.count {
            offsets.append(offset)
            let length =
                Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16
                | Int(bytes[offset + 7]) << 24
            offset += max(length, 12)
        }
        return offsets
    }

    // The two loops below are long and CPU-bound: they yield now and then so that tests with deadlines running
    // beside them (sockets, servers) get the Swift pool's threads.
    @Test func everyTruncationFailsWithATypedErrorOrReadsWholeBlocks() async throws {
        let bytes = try Self.sony
        let blocks = Set(Self.blockOffsets(bytes))
        for length in 0..<bytes.count {
            if length % 64 == 0 { await Task.yield() }
            switch Self.outcome(Array(bytes.prefix(length))) {
            case .success:
                #expect(blocks.contains(length), "a prefix cut inside a block read as whole (\(length) bytes)")
            case .failure(let error):
                #expect(Self.isTyped(error), "\(length) bytes: \(error)")
                if let pcap = error as? PcapError, pcap.code == .truncated, length >= 12 {
                    #expect(pcap.blockOffset.map { blocks.contains(Int($0)) } == true, "\(pcap)")
                }
            }
        }
    }

    @Test(arguments: [UInt32(7), 8, 13, 0xFFFF_FFF0, 0x4000_0000])
    func badBlockLengthsAreNamedWithTheirOffset(length: UInt32) throws {
        var bytes = try Self.sony
        let second = Self.blockOffsets(bytes)[1]
        withUnsafeBytes(of: length.littleEndian) { bytes.replaceSubrange((second + 4)..<(second + 8), with: $0) }
        let error = try #require(throws: PcapError.self) { try PTPConversation(capture: MemoryCaptureSource(bytes)) }
        #expect(error.blockOffset == UInt64(second))
        let expected: PcapError.Code =
            length > UInt32(CaptureLimits.maxBlockByteCount)
            ? .limitExceeded : (length < 12 || length % 4 != 0 ? .malformed : .truncated)
        #expect(error.code == expected, "\(error)")
    }

    @Test func aTrailingLengthThatDiffersIsMalformed() throws {
        var bytes = try Self.sony
        let third = Self.blockOffsets(bytes)[2]
        let length = Int(bytes[third + 4]) | Int(bytes[third + 5]) << 8
        bytes[third + length - 4] ^= 0x04
        let error = try #require(throws: PcapError.self) { try PTPConversation(capture: MemoryCaptureSource(bytes)) }
        #expect(error.code == .malformed && error.blockOffset == UInt64(third))
    }

    @Test func anAbsurdSnapLengthAllocatesNothing() throws {
        // pcap: snaplen 0xFFFFFFFF and a record claiming 4 GiB − 16 bytes.
        var pcap = CaptureWriter.pcap([(0, [0x45])], linkType: .raw, snapLength: 0xFFFF_FFFF)
        pcap.replaceSubrange(32..<36, with: [0xF0, 0xFF, 0xFF, 0xFF])
        let error = try #require(throws: PcapError.self) { try PTPConversation(capture: MemoryCaptureSource(pcap)) }
        #expect(error.code == .limitExceeded && error.blockOffset == 24)
        // pcapng: an interface with snaplen 0xFFFFFFFF and a packet whose captured length overruns its block.
        var pcapng = CaptureWriter.pcapng(
            [(0, 0, [1, 2, 3, 4])], linkTypes: [.raw], byteOrder: .little, snapLength: 0xFFFF_FFFF)
        let epb = Self.blockOffsets(pcapng)[2]
        pcapng.replaceSubrange((epb + 20)..<(epb + 24), with: [0xFF, 0xFF, 0xFF, 0x7F])
        let overrun = try #require(throws: PcapError.self) { try PTPConversation(capture: MemoryCaptureSource(pcapng)) }
        #expect(overrun.code == .malformed && overrun.blockOffset == UInt64(epb))
    }

    @Test func aPacketOnAnUndescribedInterfaceIsMalformed() throws {
        let file = CaptureWriter.pcapng([(3, 0, [0x45, 0, 0, 20])], linkTypes: [.raw], byteOrder: .big)
        let error = try #require(throws: PcapError.self) { try PTPConversation(capture: MemoryCaptureSource(file)) }
        #expect(error.code == .malformed)
    }

    @Test(arguments: [[UInt8](), [0x50, 0x4B, 0x03, 0x04, 0, 0, 0, 0], Array("not a capture at all".utf8)])
    func somethingElseIsAnUnknownFormat(bytes: [UInt8]) {
        #expect(throws: PcapError(.unknownFormat)) { try PTPConversation(capture: MemoryCaptureSource(bytes)) }
    }

    @Test func aTCPStreamWithAGapIsAnError() async throws {
        let folder = try TemporaryDirectory("gap")
        let path = folder.file("gap.pcapng").path
        _ = try await Sessions.recordPTPIP(to: path, pictureByteCount: 200_000)
        var packets = try CaptureWriter.packets(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        // Drop one segment of the picture's data: everything after it on that connection waits for it forever.
        let victim = try #require(packets.indices.first { packets[$0].data.count > 60_000 })
        packets.remove(at: victim)
        let pcap = CaptureWriter.pcap(packets.map { ($0.timestampNanoseconds, $0.data) }, linkType: .raw)
        let error = try #require(throws: RecordError.self) { try PTPConversation(capture: MemoryCaptureSource(pcap)) }
        #expect(error.code == .streamGap)
        #expect(error.description.contains("15740 → "))
    }

    @Test func segmentsFarAheadOfAHoleAreBounded() throws {
        // A SYN, then 20 000 one-byte segments each 2 bytes further ahead: they can never become contiguous.
        let client = TCPEndpoint(address: [10, 0, 0, 1], port: 50000)
        let server = TCPEndpoint(address: [10, 0, 0, 2], port: 15740)
        var packets: [(UInt64, [UInt8])] = [
            (
                0,
                TCPSegment(
                    source: client, destination: server, sequenceNumber: 100, acknowledgmentNumber: 0, flags: .syn
                ).ipv4Encoded(identification: 0)
            )
        ]
        for index in 0..<20_000 {
            let segment = TCPSegment(
                source: client, destination: server, sequenceNumber: 102 + UInt32(index) * 2, acknowledgmentNumber: 0,
                flags: .ack, payload: [0x42])
            packets.append((0, segment.ipv4Encoded(identification: 0)))
        }
        let error = try #require(throws: RecordError.self) {
            try PTPConversation(capture: MemoryCaptureSource(CaptureWriter.pcap(packets, linkType: .raw)))
        }
        #expect(error.code == .limitExceeded)
    }

    @Test func brokenPTPIPFramingNamesTheBlock() throws {
        var bytes = try Self.sony
        // The packet carrying the first Operation Request (PTP/IP type 6 right after the IP and TCP headers).
        let packet = try #require(
            try CaptureWriter.packets(bytes).first { $0.data.count >= 48 && $0.data[44] == 6 })
        let offset = Int(packet.blockOffset)
        // The PTP/IP length field sits after the EPB header (28 bytes) and the IP and TCP headers (40).
        bytes[offset + 28 + 40] = 3
        let error = try #require(throws: RecordError.self) { try PTPConversation(capture: MemoryCaptureSource(bytes)) }
        #expect(error.code == .malformedPTP)
        #expect(error.blockOffset == UInt64(offset))
    }

    @Test func aCaptureWithoutPTPSaysSo() {
        let arp = [UInt8](repeating: 0xFF, count: 12) + [0x08, 0x06] + [UInt8](repeating: 0, count: 28)
        let pcap = CaptureWriter.pcap([(0, arp), (1, arp)], linkType: .ethernet)
        #expect(throws: RecordError(.noPTPTraffic)) { try PTPConversation(capture: MemoryCaptureSource(pcap)) }
    }

    @Test func theFuzzSeedsAreWholeConversations() throws {
        let folder = ExternalTool.packageRoot.appendingPathComponent("Fuzz/corpus/FuzzPcap")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names.count == 7)
        for name in names {
            let conversation = try PTPConversation.load(path: folder.appendingPathComponent(name).path)
            #expect(!conversation.transactions.isEmpty, "\(name)")
            #expect(!conversation.events.isEmpty, "\(name)")
            #expect(conversation.notes.isEmpty, "\(name): \(conversation.notes)")
        }
    }

    @Test func bitFlipsNeverCrash() async throws {
        let bytes = try Self.sony
        var state: UInt64 = 0x5EED
        var errors = 0
        for round in 0..<1000 {
            if round % 32 == 0 { await Task.yield() }
            var mutated = bytes
            for _ in 0..<3 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let position = Int((state >> 33) % UInt64(mutated.count))
                mutated[position] ^= UInt8(truncatingIfNeeded: state >> 20) | 1
            }
            if case .failure(let error) = Self.outcome(mutated) {
                #expect(Self.isTyped(error), "\(error)")
                errors += 1
            }
        }
        #expect(errors > 50, "flips in headers must be caught")
    }
}
