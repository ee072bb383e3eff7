import PTP

/// One PTP-level thing that crossed the link, as the USB and PTP/IP decoders find them in a capture: the common
/// input of ``PTPConversation``'s builder.
enum ConversationMessage: Sendable, Hashable {
    /// The direction of a data phase.
    enum Direction: Sendable, Hashable {
        /// Host to device.
        case out
        /// Device to host.
        case `in`
    }

    /// An operation request.
    case request(PTPRequest)
    /// A whole data phase.
    case data(Direction, transactionID: UInt32, bytes: [UInt8])
    /// A response.
    case response(PTPResponse)
    /// An event.
    case event(PTPEvent)
    /// The responder's name (PTP/IP Init Command Ack).
    case responderName(String)
    /// Something the conversation's reader should know (bytes filled in where the capture cut them).
    case note(String)
}

/// Fills in what a capture's snap length cut off, within ``CaptureLimits/maxZeroFilledByteCount`` per capture.
///
/// libpcap cuts usbmon packets at 256 KiB, so a capture of a large download made with Wireshark or tcpdump lacks
/// the end of each big transfer. The headers still say how long each transfer or segment was, so the missing bytes
/// can be replaced by zeros and the framing that follows stays right; the conversation's notes say which data
/// phases carry filler.
struct ZeroFillBudget: Sendable {
    private(set) var used = 0

    /// `bytes` extended with zeros to `declared` bytes.
    mutating func fill(_ bytes: [UInt8], to declared: Int, at blockOffset: UInt64) throws(RecordError) -> [UInt8] {
        let missing = declared - bytes.count
        guard missing > 0 else { return bytes }
        guard missing <= CaptureLimits.maxZeroFilledByteCount - used else {
            throw RecordError(
                .limitExceeded, at: blockOffset,
                "the snap length cut more than \(CaptureLimits.maxZeroFilledByteCount) bytes in all; "
                    + "capture with a larger snap length")
        }
        used += missing
        return bytes + [UInt8](repeating: 0, count: missing)
    }
}

/// A message with the time and place it was captured.
struct StampedMessage: Sendable, Hashable {
    var message: ConversationMessage
    var timestampNanoseconds: UInt64
    var blockOffset: UInt64
}

/// Collects a data phase's bytes within the limits.
struct DataPhaseBuffer: Sendable {
    var transactionID: UInt32
    var bytes: [UInt8] = []

    init(transactionID: UInt32) { self.transactionID = transactionID }

    mutating func append(_ chunk: some Collection<UInt8>, at blockOffset: UInt64) throws(RecordError) {
        guard chunk.count <= CaptureLimits.maxDataPhaseByteCount - bytes.count else {
            throw RecordError(
                .limitExceeded, at: blockOffset,
                "data phase of transaction \(transactionID) over \(CaptureLimits.maxDataPhaseByteCount) bytes")
        }
        bytes.append(contentsOf: chunk)
    }
}
