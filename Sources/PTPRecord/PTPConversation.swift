import PTP

/// A PTP conversation rebuilt from a capture: every transaction (request, data phases, response) and every event,
/// with timestamps, in the order they happened. ``ReplayResponder`` serves it back; tests compare against it.
///
/// Load one with ``load(path:)`` or ``init(capture:)``: the capture may be rawcap's own recording or one made with
/// Wireshark, tcpdump, usbmon or USBPcap on a real camera.
public struct PTPConversation: Sendable, Hashable {
    /// How the camera was connected.
    public enum Transport: Sendable, Hashable {
        /// PTP over USB.
        case usb
        /// PTP/IP over TCP.
        case ptpip
    }

    /// One transaction.
    public struct Transaction: Sendable, Hashable, CustomStringConvertible {
        /// The request.
        public var request: PTPRequest
        /// The host's data phase, if there was one.
        public var dataOut: [UInt8]?
        /// The device's data phase, if there was one.
        public var dataIn: [UInt8]?
        /// The response.
        public var response: PTPResponse
        /// When the request was captured, in nanoseconds since the Unix epoch.
        public var requestTimestampNanoseconds: UInt64
        /// When the response was captured.
        public var responseTimestampNanoseconds: UInt64
        /// Set when the source held only part of a data phase (a debug log cut short): see ``DataPhaseCut``.
        public var cut: DataPhaseCut?

        /// Creates a transaction.
        public init(
            request: PTPRequest, dataOut: [UInt8]? = nil, dataIn: [UInt8]? = nil, response: PTPResponse,
            requestTimestampNanoseconds: UInt64 = 0, responseTimestampNanoseconds: UInt64 = 0,
            cut: DataPhaseCut? = nil
        ) {
            self.request = request
            self.dataOut = dataOut
            self.dataIn = dataIn
            self.response = response
            self.requestTimestampNanoseconds = requestTimestampNanoseconds
            self.responseTimestampNanoseconds = responseTimestampNanoseconds
            self.cut = cut
        }

        /// E.g. `GetObject(0x00000101) tid 5 → OK() with 3000 bytes in`.
        public var description: String {
            var text = "\(request)"
            if let dataOut { text += " with \(dataOut.count) bytes out" }
            text +=
                " → \(response.code)(\(response.parameters.map { "0x" + String($0, radix: 16) }.joined(separator: ", ")))"
            if let dataIn { text += " with \(dataIn.count) bytes in" }
            if let cut { text += " (\(cut))" }
            return text
        }
    }

    /// One event, and where it fell in the conversation.
    public struct Event: Sendable, Hashable {
        /// The event.
        public var event: PTPEvent
        /// When it was captured.
        public var timestampNanoseconds: UInt64
        /// The index in ``PTPConversation/transactions`` of the last transaction completed before it; `nil` when
        /// it came before any.
        public var afterTransaction: Int?

        /// Creates an event.
        public init(event: PTPEvent, timestampNanoseconds: UInt64 = 0, afterTransaction: Int?) {
            (self.event, self.timestampNanoseconds, self.afterTransaction) = (
                event, timestampNanoseconds, afterTransaction
            )
        }
    }

    /// How the camera was connected.
    public var transport: Transport
    /// The completed transactions, in order.
    public var transactions: [Transaction]
    /// The events, in order.
    public var events: [Event]
    /// The PTP/IP responder's friendly name (from Init Command Ack), when the capture holds the handshake.
    public var responderName: String?
    /// What the capture leaves out or could not use (requests without a response, data without a request).
    public var notes: [String]

    /// Creates a conversation.
    public init(
        transport: Transport, transactions: [Transaction], events: [Event] = [], responderName: String? = nil,
        notes: [String] = []
    ) {
        self.transport = transport
        self.transactions = transactions
        self.events = events
        self.responderName = responderName
        self.notes = notes
    }

    /// The device info of the first successful GetDeviceInfo, when it decodes.
    public var deviceInfo: DeviceInfo? {
        for transaction in transactions
        where transaction.request.code == .getDeviceInfo && transaction.response.code == .ok {
            if let bytes = transaction.dataIn,
                let info = try? DeviceInfo(
                    ptpEncoded: bytes, quirks: [.wideEightBitEnumerations, .unterminatedStrings])
            {
                return info
            }
        }
        return nil
    }

    /// The camera's model: from DeviceInfo, else the PTP/IP friendly name.
    public var cameraModel: String? { deviceInfo?.model ?? responderName }

    // MARK: Building

    /// Rebuilds transactions from messages in capture order.
    ///
    /// A request opens a transaction; data phases attach to the open transaction with their transaction ID; a
    /// response closes it. A request still open when the next request arrives, or at the end, is dropped with a
    /// note (the capture ended mid-transaction, or the device never answered). An event belongs after the last
    /// completed transaction, except one that names the open transaction's ID (CaptureComplete racing the
    /// InitiateCapture response on another connection): it belongs after that transaction.
    static func build(transport: Transport, messages: [StampedMessage]) throws(RecordError) -> PTPConversation {
        var conversation = PTPConversation(transport: transport, transactions: [])
        var open: (request: PTPRequest, time: UInt64, dataOut: [UInt8]?, dataIn: [UInt8]?)?
        var dataByteCount = 0
        var heldEvents: [Event] = []
        func releaseHeld(_ conversation: inout PTPConversation) {
            let index = conversation.transactions.isEmpty ? nil : conversation.transactions.count - 1
            for var event in heldEvents {
                event.afterTransaction = index
                conversation.events.append(event)
            }
            heldEvents = []
        }
        for stamped in messages {
            let time = stamped.timestampNanoseconds
            switch stamped.message {
            case .responderName(let name):
                if conversation.responderName == nil { conversation.responderName = name }
            case .note(let note):
                conversation.notes.append(note)
            case .request(let request):
                if let previous = open {
                    conversation.notes.append("no response to \(previous.request); dropped")
                    releaseHeld(&conversation)
                }
                guard conversation.transactions.count < CaptureLimits.maxTransactionCount else {
                    throw RecordError(
                        .limitExceeded, at: stamped.blockOffset,
                        "over \(CaptureLimits.maxTransactionCount) transactions")
                }
                open = (request, time, nil, nil)
            case .data(let direction, let transactionID, let bytes):
                guard var current = open, current.request.transactionID == transactionID else {
                    conversation.notes.append(
                        "\(bytes.count) bytes of data for transaction \(transactionID) outside it; ignored")
                    continue
                }
                guard bytes.count <= CaptureLimits.maxConversationByteCount - dataByteCount else {
                    throw RecordError(
                        .limitExceeded, at: stamped.blockOffset,
                        "data phases over \(CaptureLimits.maxConversationByteCount) bytes in all")
                }
                dataByteCount += bytes.count
                if direction == .out {
                    current.dataOut = (current.dataOut ?? []) + bytes
                } else {
                    current.dataIn = (current.dataIn ?? []) + bytes
                }
                open = current
            case .response(let response):
                guard let current = open, current.request.transactionID == response.transactionID else {
                    conversation.notes.append("\(response) answers no open request; ignored")
                    continue
                }
                conversation.transactions.append(
                    Transaction(
                        request: current.request, dataOut: current.dataOut, dataIn: current.dataIn, response: response,
                        requestTimestampNanoseconds: current.time, responseTimestampNanoseconds: time))
                open = nil
                releaseHeld(&conversation)
            case .event(let event) where open?.request.transactionID == event.transactionID:
                heldEvents.append(Event(event: event, timestampNanoseconds: time, afterTransaction: nil))
            case .event(let event):
                conversation.events.append(
                    Event(
                        event: event, timestampNanoseconds: time,
                        afterTransaction: conversation.transactions.isEmpty ? nil : conversation.transactions.count - 1)
                )
            }
        }
        if let open { conversation.notes.append("the capture ends before the response to \(open.request)") }
        releaseHeld(&conversation)
        return conversation
    }
}
