import PTP
import WireFormat

/// libFuzzer entry point for PTP/IP: the frame decoder over a stream of packets and each packet's payload.
///
/// The first byte picks how the stream is cut before it reaches the decoder. Any `WireError` is a correct outcome.
/// Decoding must not depend on the cut, each packet must consume exactly its Length, and every decoded packet must
/// survive an encode and decode. The streaming decoder (what the transport uses for data phases: payload pieces as
/// they arrive) must agree with the whole-packet decoder: the same packets once its pieces are put together, and
/// an error exactly when the whole-packet decoder throws.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPTPIP(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let input = [UInt8](UnsafeBufferPointer(start: data, count: size))
    let step = Int(input[0] % 29) + 1
    let stream = Array(input.dropFirst())

    let whole = decode(stream, step: stream.count)
    let split = decode(stream, step: step)
    if let whole, let split, whole != split { fatalError("decoding depends on how the stream was cut") }
    let streamed = decodeStreaming(stream, step: step)
    if (whole == nil) != (streamed == nil) { fatalError("the streaming and whole-packet decoders disagree on errors") }
    if let whole, let streamed, whole != streamed { fatalError("the streaming decoder put together other packets") }
    if let whole {
        // Each packet consumed exactly its Length, and survives an encode and decode (names with invalid UTF-16
        // decode with U+FFFD, so the bytes themselves need not come back).
        var consumed = 0
        for packet in whole {
            let length =
                Int(stream[consumed]) | Int(stream[consumed + 1]) << 8 | Int(stream[consumed + 2]) << 16
                | Int(stream[consumed + 3]) << 24
            consumed += length
            guard consumed <= stream.count else { fatalError("packet \(packet) claims bytes beyond the stream") }
            guard (try? PTPIPPacket(ptpipEncoded: packet.ptpipEncoded)) == packet else {
                fatalError("packet \(packet) does not survive a round trip")
            }
        }
    }
    if let packet = try? PTPIPPacket(ptpipEncoded: stream) {
        guard (try? PTPIPPacket(ptpipEncoded: packet.ptpipEncoded)) == packet else {
            fatalError("whole packet does not survive a round trip")
        }
    }
    return 0
}

/// Feeds `stream` to a new decoder `step` bytes at a time, calling `drain` after each feed to take what decodes;
/// the packets `drain` collected, or `nil` when it threw.
func feed(
    _ stream: [UInt8], step: Int,
    _ drain: (inout PTPIPFrameDecoder, inout [PTPIPPacket]) throws(WireError) -> Void
) -> [PTPIPPacket]? {
    var decoder = PTPIPFrameDecoder()
    var packets: [PTPIPPacket] = []
    var start = 0
    repeat {
        let end = min(stream.count, start + max(1, step))
        decoder.append(stream[start..<end])
        start = end
        do {
            try drain(&decoder, &packets)
        } catch {
            return nil
        }
    } while start < stream.count
    return packets
}

/// Decodes `stream` fed `step` bytes at a time; `nil` when the decoder threw.
func decode(_ stream: [UInt8], step: Int) -> [PTPIPPacket]? {
    feed(stream, step: step) { (decoder, packets) throws(WireError) in
        while let packet = try decoder.decode() { packets.append(packet) }
    }
}

/// Decodes `stream` fed `step` bytes at a time with ``PTPIPFrameDecoder/decodeStreaming()``, putting each Data and
/// End Data packet together from its pieces; `nil` when the decoder threw.
func decodeStreaming(_ stream: [UInt8], step: Int) -> [PTPIPPacket]? {
    var payload: [UInt8] = []
    return feed(stream, step: step) { (decoder, packets) throws(WireError) in
        while let frame = try decoder.decodeStreaming() {
            switch frame {
            case .packet(let packet):
                packets.append(packet)
            case .payload(let piece):
                if piece.isFirst { payload = [] }
                guard piece.offset == payload.count else { fatalError("a payload piece out of order") }
                payload += piece.bytes
                guard piece.isLast else { break }
                packets.append(
                    piece.type == .endData
                        ? .endData(transactionID: piece.transactionID, payload: payload)
                        : .data(transactionID: piece.transactionID, payload: payload))
            }
        }
    }
}
