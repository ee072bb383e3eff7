/// Splits one direction of a PTP/IP byte stream at packet boundaries, so that a recording carries one PTP/IP
/// packet per TCP segment.
///
/// Wireshark's `ptpip` dissector (Wireshark 4.0) decodes one packet at the start of each segment and does not
/// reassemble, so a response glued behind a data phase in one `recv` would be invisible in the recording. Every
/// PTP/IP packet (and every packet of Fujifilm's variant) starts with its length as a little-endian `UInt32`,
/// which is all this needs. A length under 8 means the stream is not PTP/IP after all; the splitter then passes
/// bytes through unsplit.
struct PacketBoundarySplitter: Sendable {
    private var header: [UInt8] = []
    private var remainingInPacket = 0
    private var passThrough = false

    /// Cuts `bytes` where packets end; the slices cover `bytes` exactly, in order.
    mutating func split(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        if passThrough { return [bytes[...]] }
        var pieces: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if remainingInPacket > 0 {
                let take = min(remainingInPacket, bytes.endIndex - index)
                index += take
                remainingInPacket -= take
                if remainingInPacket == 0 {
                    pieces.append(bytes[start..<index])
                    start = index
                }
                continue
            }
            header.append(bytes[index])
            index += 1
            if header.count == 4 {
                let length = Int(header[0]) | Int(header[1]) << 8 | Int(header[2]) << 16 | Int(header[3]) << 24
                header = []
                guard length >= 8 else {
                    passThrough = true
                    pieces.append(bytes[start...])
                    return pieces
                }
                remainingInPacket = length - 4
            }
        }
        if start < bytes.endIndex { pieces.append(bytes[start...]) }
        return pieces
    }
}
