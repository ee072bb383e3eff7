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
