import Logging
import PTP

/// A ``PTP/PTPResponder`` that answers from a recorded ``PTPConversation``: a recording plugs in where the
/// emulated camera does — behind ``PTP/USBDeviceSide`` over an ``PTP/InMemoryBulkPipe`` (so the real USB framing
/// runs, see ``ReplayCamera``) or behind ``PTP/PTPIPDeviceSide`` in a PTP/IP server.
///
/// ## Modes
///
/// - ``Mode/strict``, for rawcap's own regression fixtures: requests must arrive exactly as recorded and in order
///   — same operation, same parameters, same host data — transaction IDs aside. The first request that differs is
///   answered with GeneralError and recorded as ``mismatch`` (a ``ReplayMismatch`` naming the expected and the
///   received transaction); every later request gets GeneralError too. ``ReplayTransport`` turns it into a thrown
///   error for the host.
/// - ``Mode/lenient``, for captures other software made on real cameras: a request gets the recorded reply to
///   the same operation and parameters, in recorded order per request. Parameters compare with trailing zeros
///   dropped: a camera reads an absent parameter as 0, and hosts differ in whether they send it (Rocc sends
///   Sony's GetAllDevicePropData with a 0 that libgphoto2 and rawcap leave out). When the recorded replies to a request are
///   used up, **the last one is repeated** (and the log says so once per request): cameras answer GetDeviceInfo or
///   GetStorageInfo the same way every time, and polling loops are common. A request the recording cannot answer
///   gets what a camera gives for something it does not have: DevicePropNotSupported for property operations,
///   InvalidObjectHandle for object operations, InvalidStorageID for storage operations, OperationNotSupported
///   otherwise. OpenSession and CloseSession match by operation alone (a session ID is the host's choice) and are
///   answered OK when the capture started inside a session.
///
/// In both modes the recorded events follow the transaction they followed in the recording; events recorded
/// before any transaction are sent at once.
///
/// ## Data phases the source cut
///
/// A transaction whose data phase the source held only in part (``PTPConversation/DataPhaseCut``, from a debug log
/// that cut a dump) is answered with **the bytes the recording holds and the recorded response** (OK where the
/// source lost it), never with filler: the host sees a short data phase, as from a camera that stopped early, and
/// usually fails to decode it. The replay says so instead of pretending: each such answer logs a warning
/// (`replay: the recording holds only 512 of 4096 bytes of GetObject's data (cut in the source)`) and counts in
/// ``answeredWithCutData``, and ``cutTransactionsAnswered`` names them, so a caller (the conformance table) reports
/// "cut in source" rather than a failure of the host.
public actor ReplayResponder: PTPResponder {
    /// How closely requests must follow the recording.
    public enum Mode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Exactly the recorded requests, in order.
        case strict
        /// Any order; recorded replies per operation and parameters; documented answers for the rest.
        case lenient

        /// `strict` or `lenient`.
        public var description: String { rawValue }
    }

    private struct Key: Hashable {
        var code: OperationCode
        var parameters: [UInt32]

        /// The key lenient matching uses: trailing zero parameters dropped.
        init(code: OperationCode, parameters: [UInt32]) {
            self.code = code
            var trimmed = parameters[...]
            while trimmed.last == 0 { trimmed = trimmed.dropLast() }
            self.parameters = Array(trimmed)
        }
    }

    /// The recording.
    public nonisolated let conversation: PTPConversation
    /// The mode.
    public nonisolated let mode: Mode
    /// The events, sent by the device side on the interrupt endpoint or the event connection.
    public nonisolated let events: AsyncStream<PTPEvent>

    /// The first divergence of a strict replay.
    public private(set) var mismatch: ReplayMismatch?
    /// Requests answered from the recording.
    public private(set) var answeredFromRecording = 0
    /// Requests answered with a fallback code (lenient mode).
    public private(set) var answeredWithFallback = 0
    /// Requests answered by repeating a used-up reply (lenient mode).
    public private(set) var answeredByRepeating = 0
    /// Requests answered with a data phase the source held only in part (see "Data phases the source cut").
    public private(set) var answeredWithCutData = 0
    /// The transactions of ``answeredWithCutData``, by index in the conversation, in the order answered.
    public private(set) var cutTransactionsAnswered: [Int] = []

    private let logger: Logger
    private let eventContinuation: AsyncStream<PTPEvent>.Continuation
    private let dataOutOperations: Set<OperationCode>
    private var cursor = 0
    private var byKey: [Key: [Int]] = [:]
    private var byCode: [OperationCode: [Int]] = [:]
    private var used: [Key: Int] = [:]
    private var usedByCode: [OperationCode: Int] = [:]
    private var repeatLogged: Set<Key> = []
    private var eventsSent: Set<Int> = []
    private var partialLogged: Set<UInt32> = []

    /// Creates a responder serving `conversation`.
    public init(conversation: PTPConversation, mode: Mode, logger: Logger = Logger(label: "rawcap.replay")) {
        self.conversation = conversation
        self.mode = mode
        self.logger = logger
        (events, eventContinuation) = AsyncStream.makeStream(of: PTPEvent.self)
        var byKey: [Key: [Int]] = [:]
        var byCode: [OperationCode: [Int]] = [:]
        var dataOut: Set<OperationCode> = [.sendObjectInfo, .sendObject, .setDevicePropValue]
        for (index, transaction) in conversation.transactions.enumerated() {
            byKey[Key(code: transaction.request.code, parameters: transaction.request.parameters), default: []]
                .append(index)
            byCode[transaction.request.code, default: []].append(index)
            if transaction.dataOut != nil { dataOut.insert(transaction.request.code) }
        }
        self.byKey = byKey
        self.byCode = byCode
        dataOutOperations = dataOut
        for (index, event) in conversation.events.enumerated() where event.afterTransaction == nil {
            eventContinuation.yield(event.event)
            eventsSent.insert(index)
        }
    }

    /// Whether the recording shows a host data phase for this operation (USB gives the device no other way to
    /// know).
    public func expectsDataOut(_ request: PTPRequest) async -> Bool {
        dataOutOperations.contains(request.code)
    }

    /// Answers from the recording (see the type's description).
    public func respond(to request: PTPRequest, dataOut: [UInt8]?) async -> PTPResponderReply {
        switch mode {
        case .strict: return strict(request, dataOut: dataOut)
        case .lenient: return lenient(request, dataOut: dataOut)
        }
    }

    // MARK: Strict

    private func strict(_ request: PTPRequest, dataOut: [UInt8]?) -> PTPResponderReply {
        if mismatch != nil { return PTPResponderReply(.generalError) }
        guard cursor < conversation.transactions.count else {
            return diverge(request, dataOut, expected: nil, "the recording has no more transactions")
        }
        let expected = conversation.transactions[cursor]
        if expected.request.code != request.code {
            return diverge(request, dataOut, expected: expected, "operation differs")
        }
        if expected.request.parameters != request.parameters {
            return diverge(request, dataOut, expected: expected, "parameters differ")
        }
        if (expected.dataOut ?? []) != (dataOut ?? []) {
            return diverge(request, dataOut, expected: expected, "host data differs")
        }
        let index = cursor
        cursor += 1
        return reply(index)
    }

    private func diverge(
        _ request: PTPRequest, _ dataOut: [UInt8]?, expected: PTPConversation.Transaction?, _ difference: String
    ) -> PTPResponderReply {
        let found = ReplayMismatch(
            index: cursor, expected: expected, received: request, receivedDataOutByteCount: dataOut?.count,
            difference: difference)
        mismatch = found
        logger.debug("\(found)")  // the command reports it (thrown as the session's error)
        return PTPResponderReply(.generalError)
    }

    // MARK: Lenient

    private func lenient(_ request: PTPRequest, dataOut: [UInt8]?) -> PTPResponderReply {
        let key = Key(code: request.code, parameters: request.parameters)
        if request.code == .openSession || request.code == .closeSession {
            guard let indices = byCode[request.code] else {
                answeredWithFallback += 1
                logger.info("replay: \(request.code) is not in the recording; answering OK")
                return PTPResponderReply(.ok)
            }
            let next = usedByCode[request.code, default: 0]
            usedByCode[request.code] = next + 1
            return reply(indices[min(next, indices.count - 1)])
        }
        if byKey[key] == nil, request.code == .getPartialObject, let reply = partialFromWholeObject(request) {
            return reply
        }
        guard let indices = byKey[key] else {
            let code = Self.fallback(for: request.code, known: byCode[request.code] != nil)
            answeredWithFallback += 1
            logger.info("replay: the recording cannot answer \(request); answering \(code)")
            return PTPResponderReply(code)
        }
        let next = used[key, default: 0]
        used[key] = next + 1
        if next >= indices.count {
            answeredByRepeating += 1
            if repeatLogged.insert(key).inserted {
                logger.notice(
                    "replay: the recording answers \(request.code)(\(request.parameters.map { "0x" + String($0, radix: 16) }.joined(separator: ", "))) \(indices.count) time(s); repeating its last reply from now on"
                )
            }
            return reply(indices[indices.count - 1])
        }
        return reply(indices[next])
    }

    /// GetPartialObject(handle, offset, count) served from a recorded GetObject of the same handle: they are the same
    /// bytes, and hosts differ in which they use (libgphoto2 reads a Nikon's SDRAM shot with GetObject, rawcap with
    /// GetPartialObject where the camera lists it). `nil` when the recording holds no whole object for the handle.
    private func partialFromWholeObject(_ request: PTPRequest) -> PTPResponderReply? {
        let parameters = request.parameters + [0, 0, 0]
        let (handle, offset, count) = (parameters[0], Int(parameters[1]), Int(parameters[2]))
        guard
            let index = byKey[Key(code: .getObject, parameters: [handle])]?.first(where: {
                let recorded = conversation.transactions[$0]
                // A GetObject the source cut holds no bytes past the cut: it is served as itself, cut mark and all.
                return recorded.response.code == .ok && recorded.dataIn != nil && recorded.cut == nil
            }),
            let whole = conversation.transactions[index].dataIn
        else { return nil }
        guard offset <= whole.count else { return PTPResponderReply(.invalidParameter) }
        let end = offset + min(count, whole.count - offset)
        answeredFromRecording += 1
        if partialLogged.insert(handle).inserted {
            logger.info("replay: serving GetPartialObject of 0x\(String(handle, radix: 16)) from the recorded GetObject")
        }
        return PTPResponderReply(
            .ok, parameters: [UInt32(end - offset)], dataIn: PTPBytesSource(Array(whole[offset..<end])))
    }

    /// What a camera answers for something it does not have, by the operation's kind.
    static func fallback(for code: OperationCode, known: Bool) -> ResponseCode {
        switch code {
        case .getDevicePropDesc, .getDevicePropValue, .setDevicePropValue, .resetDevicePropValue:
            return .devicePropNotSupported
        case .getObjectInfo, .getObject, .getThumb, .deleteObject, .getPartialObject, .setObjectProtection,
            .moveObject, .copyObject, .getResizedImageObject:
            return .invalidObjectHandle
        case .getStorageInfo, .formatStore:
            return .invalidStorageID
        default:
            // The operation itself is in the recording with other parameters: the parameters are what is wrong.
            return known ? .parameterNotSupported : .operationNotSupported
        }
    }

    // MARK: Replying

    private func reply(_ index: Int) -> PTPResponderReply {
        answeredFromRecording += 1
        let transaction = conversation.transactions[index]
        if let cut = transaction.cut { noteCut(cut, index, transaction.request) }
        for (eventIndex, event) in conversation.events.enumerated()
        where event.afterTransaction == index && !eventsSent.contains(eventIndex) {
            eventsSent.insert(eventIndex)
            eventContinuation.yield(event.event)
        }
        return PTPResponderReply(
            transaction.response.code, parameters: transaction.response.parameters,
            dataIn: transaction.dataIn.map(PTPBytesSource.init))
    }

    // MARK: Cut data phases

    private func noteCut(_ cut: PTPConversation.DataPhaseCut, _ index: Int, _ request: PTPRequest) {
        if cut.onlyTheResponseIsMissing {
            logger.info("replay: \(request.code)'s response is not in the source; OK stands in")
            return
        }
        answeredWithCutData += 1
        cutTransactionsAnswered.append(index)
        let total = cut.announcedByteCount.map { "of \($0) " } ?? ""
        let response = cut.responseInSource ? "" : "; the response is not in the source either, OK stands in"
        logger.warning(
            "replay: the recording holds only \(cut.heldByteCount) \(total)bytes of \(request.code)'s \(cut.direction == .in ? "" : "host ")data (cut in the source\(response))"
        )
    }
}
