import PTP
import Testing
import WireFormat

@Suite struct PTPIPPacketTests {
    static let guid = PTPIPGUID(Array(0x10..<0x20)) ?? .random()  // 16 bytes: never nil

    /// One packet of every type (CIPA DC-X005 §2.3; Wireshark packet-ptpip.c), annotated.
    static let packets: [(String, [UInt8], PTPIPPacket)] = [
        (
            "Init Command Request",
            hexBytes(
                """
                22 00 00 00  01 00 00 00                         // length 34, type 1
                10 11 12 13 14 15 16 17 18 19 1a 1b 1c 1d 1e 1f  // GUID
                76 00 6d 00 00 00                                // "vm", NUL-terminated UCS-2LE
                00 00 01 00                                      // version 1.0 (libgphoto2's exact bytes)
                """), .initCommandRequest(.init(guid: guid, friendlyName: "vm"))
        ),
        (
            "Init Command Ack",
            hexBytes(
                """
                28 00 00 00  02 00 00 00                         // length 40, type 2
                05 00 00 00                                      // connection number 5
                10 11 12 13 14 15 16 17 18 19 1a 1b 1c 1d 1e 1f  // GUID
                43 00 61 00 6d 00 00 00                          // "Cam"
                00 00 01 00                                      // version 1.0
                """), .initCommandAck(.init(connectionNumber: 5, guid: guid, friendlyName: "Cam"))
        ),
        (
            "Init Command Ack without version",
            hexBytes(
                "24 00 00 00 02 00 00 00  05 00 00 00  10 11 12 13 14 15 16 17 18 19 1a 1b 1c 1d 1e 1f  43 00 61 00 6d 00 00 00"
            ),
            .initCommandAck(.init(connectionNumber: 5, guid: guid, friendlyName: "Cam", protocolVersion: nil))
        ),
        (
            "Init Event Request", hexBytes("0c 00 00 00 03 00 00 00  05 00 00 00"),
            .initEventRequest(connectionNumber: 5)
        ),
        ("Init Event Ack", hexBytes("08 00 00 00 04 00 00 00"), .initEventAck),
        ("Init Fail", hexBytes("0c 00 00 00 05 00 00 00  02 00 00 00"), .initFail(reason: .busy)),
        (
            "Operation Request",
            hexBytes(
                "1e 00 00 00 06 00 00 00  01 00 00 00  1b 10  07 00 00 00  01 01 00 00  00 00 10 00  00 00 10 00"),
            .operationRequest(
                dataPhase: .noneOrIn, code: .getPartialObject, transactionID: 7,
                parameters: [0x101, 0x10_0000, 0x10_0000])
        ),
        (
            "Operation Request, data out",
            hexBytes("16 00 00 00 06 00 00 00  02 00 00 00  16 10  08 00 00 00  0f 50 00 00"),
            .operationRequest(dataPhase: .out, code: .setDevicePropValue, transactionID: 8, parameters: [0x500F])
        ),
        (
            "Operation Response", hexBytes("12 00 00 00 07 00 00 00  01 20  07 00 00 00  00 00 10 00"),
            .operationResponse(code: .ok, transactionID: 7, parameters: [0x10_0000])
        ),
        (
            "Event", hexBytes("12 00 00 00 08 00 00 00  02 40  ff ff ff ff  05 01 00 00"),
            .event(code: .objectAdded, transactionID: 0xFFFF_FFFF, parameters: [0x105])
        ),
        (
            "Start Data", hexBytes("14 00 00 00 09 00 00 00  07 00 00 00  00 00 10 00 00 00 00 00"),
            .startData(transactionID: 7, totalLength: 0x10_0000)
        ),
        (
            "Start Data, unknown length", hexBytes("14 00 00 00 09 00 00 00  07 00 00 00  ff ff ff ff ff ff ff ff"),
            .startData(transactionID: 7, totalLength: .max)
        ),
        (
            "Data", hexBytes("0f 00 00 00 0a 00 00 00  07 00 00 00  aa bb cc"),
            .data(transactionID: 7, payload: [0xAA, 0xBB, 0xCC])
        ),
        ("Cancel", hexBytes("0c 00 00 00 0b 00 00 00  07 00 00 00"), .cancel(transactionID: 7)),
        ("End Data", hexBytes("0d 00 00 00 0c 00 00 00  07 00 00 00  dd"), .endData(transactionID: 7, payload: [0xDD])),
        ("End Data, empty", hexBytes("0c 00 00 00 0c 00 00 00  07 00 00 00"), .endData(transactionID: 7, payload: [])),
        ("Probe Request", hexBytes("08 00 00 00 0d 00 00 00"), .probeRequest),
        ("Probe Response", hexBytes("08 00 00 00 0e 00 00 00"), .probeResponse),
    ]

    @Test(arguments: 0..<packets.count)
    func decodesAndReencodes(index: Int) throws {
        let (name, bytes, packet) = Self.packets[index]
        #expect(try PTPIPPacket(ptpipEncoded: bytes) == packet, "\(name)")
        #expect(packet.ptpipEncoded == bytes, "\(name)")
    }

    @Test(arguments: 0..<packets.count)
    func rejectsEveryTruncation(index: Int) {
        let (name, bytes, _) = Self.packets[index]
        for length in 0..<bytes.count {
            #expect(throws: WireError(.truncated), "\(name) prefix of \(length)") {
                try PTPIPPacket(ptpipEncoded: Array(bytes.prefix(length)))
            }
        }
    }

    @Test(arguments: 0..<packets.count)
    func framesAcrossEverySplit(index: Int) throws {
        let (name, bytes, packet) = Self.packets[index]
        let stream = bytes + bytes
        for split in 0...stream.count {
            var decoder = PTPIPFrameDecoder()
            var out: [PTPIPPacket] = []
            decoder.append(stream[..<split])
            while let next = try decoder.decode() { out.append(next) }
            decoder.append(stream[split...])
            while let next = try decoder.decode() { out.append(next) }
            #expect(out == [packet, packet], "\(name) split at \(split)")
            #expect(decoder.bufferedByteCount == 0)
        }
    }

    @Test func oneByteAtATime() throws {
        var decoder = PTPIPFrameDecoder()
        var out: [PTPIPPacket] = []
        for (_, bytes, _) in Self.packets {
            for byte in bytes {
                decoder.append([byte])
                while let packet = try decoder.decode() { out.append(packet) }
            }
        }
        #expect(out == Self.packets.map(\.2))
    }

    @Test func oversizedPacketsAreErrorsAsSoonAsTheHeaderArrives() {
        var control = PTPIPFrameDecoder()
        control.append(hexBytes("01 00 01 00  07 00 00 00"))  // a 64 KiB + 1 Operation Response
        #expect(throws: WireError(.limitExceeded)) { try control.decode() }
        var data = PTPIPFrameDecoder()
        data.append(hexBytes("01 00 00 04  0a 00 00 00"))  // a 64 MiB + 1 Data packet
        #expect(throws: WireError(.limitExceeded)) { try data.decode() }
        var fine = PTPIPFrameDecoder()
        fine.append(hexBytes("00 00 00 04  0a 00 00 00"))  // exactly 64 MiB: wait for it
        #expect(throws: Never.self) { _ = try fine.decode() }
    }

    @Test(arguments: [
        ("type 0", "08 00 00 00 00 00 00 00"), ("type 15", "08 00 00 00 0f 00 00 00"),
        ("length under 8", "07 00 00 00 0d 00 00 00"),
        (
            "response with 6 parameters",
            "26 00 00 00 07 00 00 00 01 20 00 00 00 00" + String(repeating: " 00", count: 24)
        ),
        ("event with 4 parameters", "1e 00 00 00 08 00 00 00 02 40 00 00 00 00" + String(repeating: " 00", count: 16)),
        ("odd parameter bytes", "10 00 00 00 07 00 00 00 01 20 00 00 00 00 00 00"),
    ])
    func rejectsMalformedPackets(name: String, hex: String) {
        #expect(throws: WireError(.invalidValue), "\(name)") { try PTPIPPacket(ptpipEncoded: hexBytes(hex)) }
    }

    @Test func namesWithoutATerminatorAreTruncationsAndLongNamesAreLimited() {
        #expect(throws: WireError(.truncated)) {
            try PTPIPPacket(
                ptpipEncoded: hexBytes(
                    "1c 00 00 00 02 00 00 00 05 00 00 00 10 11 12 13 14 15 16 17 18 19 1a 1b 1c 1d 1e 1f"))
        }
        let long = PTPIPPacket.initCommandRequest(
            .init(guid: Self.guid, friendlyName: String(repeating: "n", count: 300))
        ).ptpipEncoded
        #expect(throws: WireError(.limitExceeded)) { try PTPIPPacket(ptpipEncoded: long) }
    }

    /// Fuzz finding (FuzzPTPIP, first run): a friendly name with invalid UTF-16 (0xDB19 is a high surrogate
    /// followed by 0x1B1A, not a low one) decodes with U+FFFD, so its bytes cannot come back, but the decoded packet
    /// is stable: encoding it and decoding again gives the same value.
    @Test func issue_fuzzNameWithALoneSurrogateDecodesStably() throws {
        let bytes = hexBytes(
            """
            2e 00 00 00 02 00 00 00  01 00 00 00                    // Init Command Ack (46 bytes), connection 1
            10 11 12 13 14 15 16 17 18 19 11 12 13 14 15 16         // GUID
            17 18 19 db 1a 1b 1c 1d 1e 1f 43 00 61 00 5e 6d 00 00   // name: 0x1817, 0xDB19 (lone), …, NUL
            """)
        let packet = try PTPIPPacket(ptpipEncoded: bytes)
        guard case .initCommandAck(let ack) = packet else {
            Issue.record("expected an Init Command Ack")
            return
        }
        #expect(Array(ack.friendlyName.unicodeScalars.prefix(2)) == ["\u{1817}", "\u{FFFD}"])
        #expect(ack.protocolVersion == nil)
        #expect(packet.ptpipEncoded != bytes)
        #expect(try PTPIPPacket(ptpipEncoded: packet.ptpipEncoded) == packet)
    }

    // MARK: Streaming decode (issue 7: downloads at loopback speed)

    /// A data phase and the packets around it, as a camera sends them.
    static let streamPackets: [PTPIPPacket] = [
        .operationResponse(code: .ok, transactionID: 1, parameters: []),
        .startData(transactionID: 2, totalLength: 70_003),
        .data(transactionID: 2, payload: (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }),
        .data(transactionID: 2, payload: []),
        .endData(transactionID: 2, payload: [0xA1, 0xA2, 0xA3]),
        .operationResponse(code: .ok, transactionID: 2, parameters: [70_003]),
        .endData(transactionID: 3, payload: []),
    ]

    /// Feeds `stream` `step` bytes at a time to ``PTPIPFrameDecoder/decodeStreaming()`` and puts the payload pieces
    /// back together into packets, checking each piece's place in its packet.
    static func decodeStreaming(_ stream: [UInt8], step: Int) throws -> [PTPIPPacket] {
        var decoder = PTPIPFrameDecoder()
        var packets: [PTPIPPacket] = []
        var payload: [UInt8] = []
        var start = 0
        while start < stream.count {
            let end = min(stream.count, start + step)
            decoder.append(Array(stream[start..<end]))
            start = end
            while let frame = try decoder.decodeStreaming() {
                switch frame {
                case .packet(let packet):
                    #expect(payload.isEmpty, "a packet in the middle of a payload")
                    packets.append(packet)
                case .payload(let piece):
                    #expect(piece.offset == payload.count, "piece at \(piece.offset), expected \(payload.count)")
                    #expect(piece.isFirst || !piece.bytes.isEmpty, "an empty piece after the first")
                    payload += piece.bytes
                    if piece.isLast {
                        packets.append(
                            piece.type == .data
                                ? .data(transactionID: piece.transactionID, payload: payload)
                                : .endData(transactionID: piece.transactionID, payload: payload))
                        payload = []
                    }
                }
            }
        }
        #expect(decoder.bufferedByteCount == 0)
        return packets
    }

    @Test(arguments: [1, 5, 8, 11, 12, 13, 4093, 65_548, 1 << 20])
    func streamingDecodeHandsOutPayloadsAsTheyArrive(step: Int) throws {
        let stream = Self.streamPackets.flatMap(\.ptpipEncoded)
        #expect(try Self.decodeStreaming(stream, step: step) == Self.streamPackets)
    }

    /// Pieces are slices of the received arrays: a packet that arrives in one receive is one piece.
    @Test func streamingDecodeDoesNotSplitWhatArrivedTogether() throws {
        var decoder = PTPIPFrameDecoder()
        decoder.append(PTPIPPacket.data(transactionID: 9, payload: Array(repeating: 1, count: 1000)).ptpipEncoded)
        let frame = try #require(try decoder.decodeStreaming())
        guard case .payload(let piece) = frame else {
            Issue.record("expected a payload piece, got \(frame)")
            return
        }
        #expect(piece.isFirst && piece.isLast && piece.bytes.count == 1000 && piece.transactionID == 9)
        #expect(try decoder.decodeStreaming() == nil)
    }

    /// The camera is untrusted: a data header is checked when its 8 bytes are there, before any payload, and a
    /// legal but huge length is handed on as a number, not buffered.
    @Test func streamingDecodeChecksDataHeadersBeforeTheirPayload() throws {
        var oversized = PTPIPFrameDecoder()
        oversized.append(hexBytes("01 00 00 04  0a 00 00 00"))  // a 64 MiB + 1 Data packet
        #expect(throws: WireError(.limitExceeded)) { try oversized.decodeStreaming() }
        var control = PTPIPFrameDecoder()
        control.append(hexBytes("01 00 01 00  07 00 00 00"))  // a 64 KiB + 1 Operation Response
        #expect(throws: WireError(.limitExceeded)) { try control.decodeStreaming() }
        // Too short for its transaction ID: the same error as the whole-packet decoder's.
        var short = PTPIPFrameDecoder()
        short.append(hexBytes("0a 00 00 00  0a 00 00 00  07 00"))
        #expect(throws: WireError(.truncated)) { try short.decodeStreaming() }
        var whole = PTPIPFrameDecoder()
        whole.append(hexBytes("0a 00 00 00  0a 00 00 00  07 00"))
        #expect(throws: WireError(.truncated)) { try whole.decode() }
        // Exactly 64 MiB, with only the header and transaction ID there: the first piece says so, with no bytes.
        var huge = PTPIPFrameDecoder()
        huge.append(hexBytes("00 00 00 04  0c 00 00 00  05 00 00 00  ee"))
        let frame = try #require(try huge.decodeStreaming())
        guard case .payload(let piece) = frame else {
            Issue.record("expected a payload piece, got \(frame)")
            return
        }
        #expect(piece.type == .endData && piece.transactionID == 5 && piece.offset == 0)
        #expect(piece.payloadByteCount == (64 << 20) - 12)
        #expect(Array(piece.bytes) == [0xEE])
        #expect(try huge.decodeStreaming() == nil)
    }

    @Test func everyPrefixOfAStreamWaitsForMoreOrDecodes() throws {
        let stream = Self.streamPackets.flatMap(\.ptpipEncoded)
        for length in stride(from: 0, through: stream.count, by: 97) {
            var decoder = PTPIPFrameDecoder()
            decoder.append(Array(stream.prefix(length)))
            while try decoder.decodeStreaming() != nil {}
        }
    }
}
