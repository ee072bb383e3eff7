import PTP
import WireFormat

/// One direction of PTP's container framing (USB bulk pipes, and Fujifilm's PTP/IP variant after its handshake):
/// bytes in, whole ``ConversationMessage``s out.
struct ContainerStream: Sendable {
    let direction: ConversationMessage.Direction
    private var framer = USBContainerFramer(maxDataPayloadByteCount: UInt64(CaptureLimits.maxDataPhaseByteCount))
    private var data: DataPhaseBuffer?

    init(direction: ConversationMessage.Direction) { self.direction = direction }

    /// Feeds one transfer (or one chunk of a TCP stream, with `endsTransfer` false) and returns the messages it
    /// completed.
    mutating func feed(_ bytes: [UInt8], endsTransfer: Bool, at blockOffset: UInt64) throws(RecordError)
        -> [ConversationMessage]
    {
        framer.append(bytes, endsTransfer: endsTransfer)
        var messages: [ConversationMessage] = []
        while true {
            let item: USBContainerFramer.Item?
            do {
                item = try framer.next()
            } catch {
                throw RecordError(
                    .malformedPTP, at: blockOffset, "\(direction == .out ? "host" : "device") containers: \(error)")
            }
            guard let item else { return messages }
            switch item {
            case .container(.command(let code, let transactionID, let parameters)):
                messages.append(.request(PTPRequest(code: code, transactionID: transactionID, parameters: parameters)))
            case .container(.response(let code, let transactionID, let parameters)):
                messages.append(
                    .response(PTPResponse(code: code, transactionID: transactionID, parameters: parameters)))
            case .container(.event(let code, let transactionID, let parameters)):
                messages.append(.event(PTPEvent(code: code, transactionID: transactionID, parameters: parameters)))
            case .container(.data(_, let transactionID, let payload)):
                messages.append(.data(direction, transactionID: transactionID, bytes: payload))
            case .dataStart(_, let transactionID, _):
                data = DataPhaseBuffer(transactionID: transactionID)
            case .dataBytes(let chunk):
                try data?.append(chunk, at: blockOffset)
            case .dataEnd:
                if let data { messages.append(.data(direction, transactionID: data.transactionID, bytes: data.bytes)) }
                data = nil
            }
        }
    }
}
