/// The camera side of PTP semantics: what the device does with each operation. The emulated camera implements
/// this; ``USBDeviceSide`` and ``PTPIPDeviceSide`` do all the framing around it, so the same responder serves over
/// USB containers and PTP/IP packets.
///
/// A responder sees requests in order, one at a time. It gets a host data phase whole (bounded by the device side's
/// limit) and answers with an optional data phase, given as a ``PTPDataSource`` so that a large object streams
/// out chunk by chunk, and a response. It checks session state and transaction IDs itself: the device sides pass
/// everything through.
public protocol PTPResponder: Sendable {
    /// Whether `request` is followed by a host data phase. USB gives the device no other way to know (PTP/IP's
    /// DataPhaseInfo does). The default covers the standard data-out operations: SendObjectInfo, SendObject and
    /// SetDevicePropValue.
    func expectsDataOut(_ request: PTPRequest) async -> Bool

    /// Handles one operation: `dataOut` is the host's data phase when there was one.
    func respond(to request: PTPRequest, dataOut: [UInt8]?) async -> PTPResponderReply

    /// Events the device sends on its own (capture complete, object added); the device side forwards each one on
    /// the interrupt endpoint or the event connection. The default sends none.
    var events: AsyncStream<PTPEvent> { get }

    /// The host cancelled the transaction in progress or reset the device; forget it. The default does nothing.
    func transactionCancelled(_ transactionID: UInt32?) async
}

extension PTPResponder {
    /// SendObjectInfo, SendObject and SetDevicePropValue carry host data.
    public func expectsDataOut(_ request: PTPRequest) async -> Bool {
        [.sendObjectInfo, .sendObject, .setDevicePropValue].contains(request.code)
    }

    /// No events.
    public var events: AsyncStream<PTPEvent> { AsyncStream { $0.finish() } }

    /// Nothing to forget.
    public func transactionCancelled(_ transactionID: UInt32?) async {}
}

/// A responder's answer to one operation: an optional device data phase, then the response.
public struct PTPResponderReply: Sendable {
    /// The data phase to send, streamed from its source; `nil` for none.
    public var dataIn: (any PTPDataSource)?
    /// The response code.
    public var code: ResponseCode
    /// Up to five response parameters.
    public var parameters: [UInt32]
    /// A failure the device side commits while sending this reply, instead of answering normally; `nil` for none.
    public var linkFault: PTPLinkFault?

    /// Creates a reply.
    public init(
        _ code: ResponseCode = .ok, parameters: [UInt32] = [], dataIn: (any PTPDataSource)? = nil,
        linkFault: PTPLinkFault? = nil
    ) {
        precondition(parameters.count <= 5, "a PTP response carries at most 5 parameters")
        (self.code, self.parameters, self.dataIn, self.linkFault) = (code, parameters, dataIn, linkFault)
    }

    /// An OK reply carrying `bytes` as its data phase.
    public static func data(_ bytes: [UInt8], parameters: [UInt32] = []) -> PTPResponderReply {
        PTPResponderReply(.ok, parameters: parameters, dataIn: PTPBytesSource(bytes))
    }

    /// An OK reply carrying a dataset as its data phase.
    public static func dataset(_ dataset: some PTPDataset) -> PTPResponderReply {
        .data(dataset.ptpEncoded)
    }
}

/// A responder whose camera pushes live view frames on a connection of its own (Fujifilm on Wi-Fi, port 55742),
/// served by ``FujiPTPIPDeviceSide`` once the host connects it.
public protocol StreamedLiveViewResponder: PTPResponder {
    /// The next live view JPEG for the pushed stream, or `nil` when none is due yet or live view is off (the device
    /// side asks again a few milliseconds later).
    func streamedLiveViewFrame() async -> [UInt8]?
}
