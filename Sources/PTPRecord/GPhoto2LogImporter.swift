import PTP
import WireFormat

/// Turns a libgphoto2 debug log (`gphoto2 --debug --debug-logfile=F`, often pasted into a bug report) into the
/// ``PTPConversation`` it records, with a diagnostic for everything it could not use. Pure: text in, values out.
///
/// ```swift
/// let result = GPhoto2LogImporter.importLog(text)
/// let bytes = result.conversation.pcapngEncoded(application: "rawcap replay import")
/// for diagnostic in result.diagnostics { print(diagnostic) }   // "line 120: damaged dump line: …"
/// ```
///
/// Both formats import: libgphoto2 up to 2.5.5 (`Hexdump of 12 = 0xc bytes follows:`) and from 2.5.6 on
/// (`(hexdump of 12 bytes)`), USB and PTP/IP. ``GPhoto2LogScanner`` finds and checks the dumps; this type frames
/// them:
///
/// - **USB**: libgphoto2 dumps each port read and write, not each container. The first read of a data phase
///   carries the 12-byte container header with the phase's length; later reads continue it without a header. The
///   bulk streams are therefore reassembled into containers by their lengths (request 1, data 2, response 3, event
///   4; events from the interrupt endpoint's dumps).
/// - **PTP/IP**: each packet is dumped as its 8-byte header and its payload (camera to host) or whole (host to
///   camera): Operation Request 6, Start Data 9, Data 10, End Data 12, Operation Response 7, Event 8.
///
/// A data phase the log holds only in part — a dump cut at 1 MiB, a dump that stops, a damaged line, a `#GAP`, a
/// continuation read that is not in the log — keeps the bytes the log holds and is marked
/// ``PTPConversation/DataPhaseCut`` with the length the camera announced; when the log also lost the transaction's
/// response, OK stands in for it and the mark says so. A request without a response and without data is dropped
/// with a diagnostic. Nothing is guessed: bytes are never filled in, damaged lines never repaired.
public enum GPhoto2LogImporter {
    /// Which libgphoto2 log format the text is in.
    public enum Format: String, Sendable, Hashable {
        /// libgphoto2 2.5.5 and older: `Hexdump of N = 0x… bytes follows:`.
        case old
        /// libgphoto2 2.5.6 and newer: `(hexdump of N bytes)`.
        case new
        /// No dump header found.
        case unknown
    }

    /// Something in the log the importer could not use, or that limits the recording.
    public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
        /// The kind of problem.
        public enum Kind: String, Sendable, Hashable {
            /// A line that looks like a dump line but is not a whole, correct one.
            case damagedLine = "damaged dump line"
            /// A dump that stops before its announced size.
            case cutDump = "cut dump"
            /// Dump lines with no header before them.
            case orphanDump = "orphan dump"
            /// Bytes that do not frame as PTP containers or packets.
            case framing
            /// A message that fits no transaction (a response to no request, a request with no response).
            case dropped
            /// A dump the importer does not read (an unknown channel).
            case ignored
            /// A request the log lost, rebuilt from the camera's data container that names it.
            case rebuilt = "rebuilt request"
        }

        /// The log line (1-based).
        public var line: Int
        /// The kind.
        public var kind: Kind
        /// What happened.
        public var message: String

        /// Creates a diagnostic.
        public init(line: Int, kind: Kind, _ message: String) {
            (self.line, self.kind, self.message) = (line, kind, message)
        }

        /// `line 120: damaged dump line: …`.
        public var description: String { "line \(line): \(kind.rawValue): \(message)" }
    }

    /// What an import gives.
    public struct Result: Sendable, Hashable {
        /// The conversation (no transactions when the log holds none).
        public var conversation: PTPConversation
        /// Everything the importer could not use, in line order.
        public var diagnostics: [Diagnostic]
        /// The log's format.
        public var format: Format
        /// The libgphoto2 version the log names, when it names one.
        public var libgphoto2Version: String?
        /// Damaged dump lines.
        public var damagedLineCount: Int
        /// Dumps found.
        public var dumpCount: Int
    }

    /// Imports `text`.
    public static func importLog(_ text: String) -> Result {
        let scanner = GPhoto2LogScanner(text: text)
        var framer = Framer()
        let dumps = scanner.items.compactMap { if case .dump(let dump) = $0 { dump } else { nil } }
        let ptpip = dumps.contains {
            $0.channel == .ptpipOut || $0.channel == .ptpipInHeader || $0.channel == .ptpipInData
        }
        for item in scanner.items {
            if ptpip { framer.ptpip(item) } else { framer.usb(item) }
        }
        framer.finish()
        var builder = ConversationBuilder(transport: ptpip ? .ptpip : .usb)
        for message in framer.messages { builder.add(message) }
        builder.finish()
        let diagnostics = (scanner.diagnostics + framer.diagnostics + builder.diagnostics).sorted { $0.line < $1.line }
        return Result(
            conversation: builder.conversation, diagnostics: diagnostics, format: scanner.format,
            libgphoto2Version: scanner.libgphoto2Version, damagedLineCount: scanner.damagedLineCount,
            dumpCount: dumps.count)
    }

    // MARK: Messages

    /// A PTP message found in the dumps.
    struct Message: Sendable, Hashable {
        enum Body: Sendable, Hashable {
            case request(PTPRequest)
            case data(
                PTPConversation.DataPhaseCut.Direction, transactionID: UInt32, bytes: [UInt8], announced: Int?,
                cut: String?, code: UInt16? = nil)
            case response(PTPResponse)
            case event(PTPEvent)
            case responderName(String)
        }

        var body: Body
        var line: Int
        var time: UInt64
    }

    // MARK: Framing

    /// Dumps → messages, for USB or PTP/IP.
    struct Framer {
        private(set) var messages: [Message] = []
        private(set) var diagnostics: [Diagnostic] = []

        /// A data container being reassembled.
        private struct OpenData {
            var code: UInt16
            var transactionID: UInt32
            var announced: Int
            var bytes: [UInt8]
            var line: Int
            var time: UInt64
            var cut: String?
        }

        private var openIn: OpenData?
        private var openOut: OpenData?
        private var eventBuffer: [UInt8] = []

        // MARK: USB

        mutating func usb(_ item: GPhoto2LogScanner.Item) {
            switch item {
            case .gap(let line):
                if openIn != nil, openIn?.cut == nil { openIn?.cut = "a #GAP at line \(line)" }
                if openOut != nil, openOut?.cut == nil { openOut?.cut = "a #GAP at line \(line)" }
                if !eventBuffer.isEmpty { eventBuffer = [] }
            case .dump(let dump):
                switch dump.channel {
                case .usbOut: bulk(dump, out: true)
                case .usbIn: bulk(dump, out: false)
                case .usbInterrupt: interrupt(dump)
                case .usbUnknown: headerless(dump)
                default: break
                }
            }
        }

        private mutating func bulk(_ dump: GPhoto2LogScanner.Dump, out: Bool) {
            guard !dump.bytes.isEmpty else { return }
            var bytes = dump.bytes[...]
            // A request on OUT while the device's data is still open: the log lost the rest of that data.
            if out, openIn != nil, Self.header(bytes)?.type == 1 {
                closeData(out: false, cut: openIn?.cut ?? "the data phase's further reads are not in the log")
            }
            if var open = out ? openOut : openIn {
                if let header = Self.header(bytes), header.type == 3 || header.type == 1,
                    header.length == bytes.count, header.transactionID == open.transactionID || header.type == 1,
                    open.cut != nil || open.announced - open.bytes.count != bytes.count
                {
                    // The response (or next request) came before the data's announced end.
                    set(open, out: out)
                    closeData(out: out, cut: open.cut ?? "the data phase's further reads are not in the log")
                } else if open.cut != nil {
                    diagnostics.append(
                        Diagnostic(
                            line: dump.line, kind: .framing,
                            "\(bytes.count) bytes continue a data phase whose earlier bytes are not all in the log; "
                                + "not used"))
                    return
                } else {
                    let take = min(bytes.count, open.announced - open.bytes.count)
                    open.bytes += bytes.prefix(take)
                    bytes = bytes.dropFirst(take)
                    if let cut = dump.cut, bytes.isEmpty, open.bytes.count < open.announced { open.cut = cut }
                    set(open, out: out)
                    if open.bytes.count >= open.announced { closeData(out: out, cut: nil) }
                    if bytes.isEmpty { return }
                }
            }
            while !bytes.isEmpty {
                guard let header = Self.header(bytes), (1...4).contains(header.type), header.length >= 12 else {
                    diagnostics.append(
                        Diagnostic(
                            line: dump.line, kind: .framing,
                            "\(bytes.count) bytes that do not start a PTP container; not used"))
                    return
                }
                if header.type == 2 {
                    let announced = Int(header.length) - 12
                    let payload = bytes.dropFirst(12)
                    let take = min(payload.count, announced)
                    let open = OpenData(
                        code: header.code, transactionID: header.transactionID, announced: announced,
                        bytes: Array(payload.prefix(take)), line: dump.line, time: dump.time,
                        cut: take < announced ? dump.cut : nil)
                    set(open, out: out)
                    bytes = payload.dropFirst(take)
                    if take >= announced { closeData(out: out, cut: nil) }
                    continue
                }
                let length = Int(header.length)
                guard length <= 32, length % 4 == 0 else {
                    diagnostics.append(
                        Diagnostic(
                            line: dump.line, kind: .framing,
                            "a container of \(length) bytes of type \(header.type); not used"))
                    return
                }
                guard bytes.count >= length else {
                    diagnostics.append(
                        Diagnostic(
                            line: dump.line, kind: .framing,
                            "a \(length)-byte container the log holds only \(bytes.count) bytes of; not used"))
                    return
                }
                var reader = WireReader(bytes.dropFirst(12).prefix(length - 12), byteOrder: .little)
                var parameters: [UInt32] = []
                while let value = try? reader.read(UInt32.self) { parameters.append(value) }
                let body: Message.Body
                switch header.type {
                case 1:
                    guard out else { return unexpected(dump, "a request from the camera") }
                    lastRequestCode = header.code
                    if let open = openIn {
                        closeData(out: false, cut: open.cut ?? "the data phase's further reads are not in the log")
                    }
                    body = .request(
                        PTPRequest(
                            code: OperationCode(rawValue: header.code), transactionID: header.transactionID,
                            parameters: Array(parameters.prefix(5))))
                case 3:
                    guard !out else { return unexpected(dump, "a response from the host") }
                    if let open = openIn {
                        closeData(out: false, cut: open.cut ?? "the data phase's further reads are not in the log")
                    }
                    if let open = openOut {
                        closeData(out: true, cut: open.cut ?? "the data phase's further writes are not in the log")
                    }
                    body = .response(
                        PTPResponse(
                            code: ResponseCode(rawValue: header.code), transactionID: header.transactionID,
                            parameters: Array(parameters.prefix(5))))
                default:
                    body = .event(
                        PTPEvent(
                            code: EventCode(rawValue: header.code), transactionID: header.transactionID,
                            parameters: Array(parameters.prefix(3))))
                }
                messages.append(Message(body: body, line: dump.line, time: dump.time))
                bytes = bytes.dropFirst(length)
            }
        }

        /// The operations whose data phase goes from the host (for dumps that do not say their direction).
        static let dataOutOperations: Set<UInt16> = [
            0x100C, 0x100D, 0x1016, 0x101F, 0x9110, 0x9205, 0x9207, 0x9301, 0x9403, 0x9405, 0x900C, 0x900D,
        ]

        private var lastRequestCode: UInt16?

        /// A dump without header (libgphoto2 2.4): a continuation of the open data phase, else by its container.
        private mutating func headerless(_ dump: GPhoto2LogScanner.Dump) {
            if let open = openIn, open.cut == nil,
                Self.header(dump.bytes[...]).map({ $0.type != 3 && $0.type != 1 }) ?? true
            {
                return bulk(dump, out: false)
            }
            if let open = openOut, open.cut == nil,
                Self.header(dump.bytes[...]).map({ $0.type != 3 && $0.type != 1 }) ?? true
            {
                return bulk(dump, out: true)
            }
            guard let header = Self.header(dump.bytes[...]) else { return bulk(dump, out: false) }
            switch header.type {
            case 1: bulk(dump, out: true)
            case 2: bulk(dump, out: Self.dataOutOperations.contains(header.code) && header.code == lastRequestCode)
            case 4: interrupt(dump)
            default: bulk(dump, out: false)
            }
        }

        private mutating func unexpected(_ dump: GPhoto2LogScanner.Dump, _ what: String) {
            diagnostics.append(Diagnostic(line: dump.line, kind: .framing, "\(what); not used"))
        }

        private mutating func interrupt(_ dump: GPhoto2LogScanner.Dump) {
            guard !dump.bytes.isEmpty else { return }
            if dump.cut != nil {
                diagnostics.append(Diagnostic(line: dump.line, kind: .framing, "a cut event dump; not used"))
                eventBuffer = []
                return
            }
            eventBuffer += dump.bytes
            while let header = Self.header(eventBuffer[...]) {
                let length = Int(header.length)
                guard header.type == 4, length >= 12, length <= 24, length % 4 == 0 else {
                    diagnostics.append(
                        Diagnostic(
                            line: dump.line, kind: .framing, "interrupt bytes that are not a PTP event; not used"))
                    eventBuffer = []
                    return
                }
                guard eventBuffer.count >= length else { return }
                var reader = WireReader(eventBuffer[12..<length], byteOrder: .little)
                var parameters: [UInt32] = []
                while let value = try? reader.read(UInt32.self) { parameters.append(value) }
                messages.append(
                    Message(
                        body: .event(
                            PTPEvent(
                                code: EventCode(rawValue: header.code), transactionID: header.transactionID,
                                parameters: parameters)), line: dump.line, time: dump.time))
                eventBuffer.removeFirst(length)
            }
        }

        private mutating func set(_ open: OpenData?, out: Bool) {
            if out { openOut = open } else { openIn = open }
        }

        /// Emits the open data phase of one direction, cut for `cut` when it is short.
        private mutating func closeData(out: Bool, cut: String?) {
            guard let open = out ? openOut : openIn else { return }
            set(nil, out: out)
            let short = open.bytes.count < open.announced
            messages.append(
                Message(
                    body: .data(
                        out ? .out : .in, transactionID: open.transactionID, bytes: open.bytes,
                        announced: open.announced,
                        cut: short ? (cut ?? open.cut ?? "the log holds \(open.bytes.count) bytes") : nil,
                        code: open.code),
                    line: open.line, time: open.time))
        }

        private struct Header {
            var length: UInt32
            var type: UInt16
            var code: UInt16
            var transactionID: UInt32
        }

        private static func header(_ bytes: ArraySlice<UInt8>) -> Header? {
            guard bytes.count >= 12 else { return nil }
            var reader = WireReader(bytes.prefix(12), byteOrder: .little)
            guard let length = try? reader.read(UInt32.self), let type = try? reader.read(UInt16.self),
                let code = try? reader.read(UInt16.self), let transactionID = try? reader.read(UInt32.self)
            else { return nil }
            return Header(length: length, type: type, code: code, transactionID: transactionID)
        }

        // MARK: PTP/IP

        /// The camera's packet being read: its header and the payload so far.
        private var incoming: (header: [UInt8], payload: [UInt8], line: Int, time: UInt64, cut: String?)?
        /// The host's bytes not yet framed.
        private var outgoing: [UInt8] = []
        /// Open data phases by direction (PTP/IP): Start Data's total, the bytes so far.
        private var ptpipIn: OpenData?
        private var ptpipOut: OpenData?

        mutating func ptpip(_ item: GPhoto2LogScanner.Item) {
            switch item {
            case .gap(let line):
                finishIncoming(cut: "a #GAP at line \(line)")
                if !outgoing.isEmpty {
                    diagnostics.append(Diagnostic(line: line, kind: .framing, "host bytes before a #GAP; not used"))
                    outgoing = []
                }
                if ptpipIn != nil, ptpipIn?.cut == nil { ptpipIn?.cut = "a #GAP at line \(line)" }
                if ptpipOut != nil, ptpipOut?.cut == nil { ptpipOut?.cut = "a #GAP at line \(line)" }
            case .dump(let dump):
                switch dump.channel {
                case .ptpipOut:
                    outgoing += dump.bytes
                    var buffer = outgoing[...]
                    while true {
                        let packet: PTPIPPacket?
                        do {
                            packet = try PTPIPPacket.decode(&buffer)
                        } catch {
                            diagnostics.append(
                                Diagnostic(line: dump.line, kind: .framing, "host PTP/IP bytes: \(error); not used"))
                            buffer = []
                            break
                        }
                        guard let packet else { break }
                        handle(packet, fromHost: true, line: dump.line, time: dump.time, cut: nil)
                    }
                    outgoing = Array(buffer)
                    if dump.cut != nil, !outgoing.isEmpty {
                        if let partial = Self.partialData(outgoing) {
                            ptpipOut?.bytes += partial
                            ptpipOut?.cut = dump.cut
                        }
                        outgoing = []
                    }
                case .ptpipInHeader:
                    if let current = incoming, current.header.count < 8 {
                        incoming?.header += dump.bytes
                    } else {
                        finishIncoming(cut: "the packet's further reads are not in the log")
                        incoming = (dump.bytes, [], dump.line, dump.time, dump.cut)
                    }
                    completeIncomingIfWhole()
                case .ptpipInData:
                    guard incoming != nil else {
                        diagnostics.append(
                            Diagnostic(line: dump.line, kind: .framing, "PTP/IP payload without its header; not used"))
                        return
                    }
                    incoming?.payload += dump.bytes
                    if let cut = dump.cut { incoming?.cut = cut }
                    completeIncomingIfWhole()
                default:
                    break
                }
            }
        }

        private mutating func completeIncomingIfWhole() {
            guard let current = incoming, current.header.count >= 8 else { return }
            let length =
                Int(current.header[0]) | Int(current.header[1]) << 8 | Int(current.header[2]) << 16
                | Int(current.header[3]) << 24
            let whole = current.header + current.payload
            if whole.count >= length {
                incoming = nil
                do {
                    let packet = try PTPIPPacket(ptpipEncoded: Array(whole.prefix(length)))
                    handle(packet, fromHost: false, line: current.line, time: current.time, cut: nil)
                } catch {
                    diagnostics.append(
                        Diagnostic(line: current.line, kind: .framing, "camera PTP/IP packet: \(error); not used"))
                }
            } else if current.cut != nil {
                finishIncoming(cut: current.cut)
            }
        }

        /// Ends a camera packet the log holds only in part: a Data or End Data packet's bytes join its phase.
        private mutating func finishIncoming(cut: String?) {
            guard let current = incoming else { return }
            incoming = nil
            let whole = current.header + current.payload
            if let partial = Self.partialData(whole), ptpipIn != nil {
                ptpipIn?.bytes += partial
                if ptpipIn?.cut == nil { ptpipIn?.cut = current.cut ?? cut }
            } else {
                diagnostics.append(
                    Diagnostic(
                        line: current.line, kind: .framing,
                        "a camera PTP/IP packet the log holds only in part; not used"))
            }
        }

        /// The payload of a Data or End Data packet cut short (after its transaction ID).
        private static func partialData(_ bytes: [UInt8]) -> [UInt8]? {
            guard bytes.count >= 12, bytes[4] == 10 || bytes[4] == 12, bytes[5] == 0, bytes[6] == 0, bytes[7] == 0
            else { return nil }
            return Array(bytes[12...])
        }

        private mutating func handle(_ packet: PTPIPPacket, fromHost: Bool, line: Int, time: UInt64, cut: String?) {
            switch packet {
            case .initCommandAck(let ack):
                messages.append(Message(body: .responderName(ack.friendlyName), line: line, time: time))
            case .operationRequest(_, let code, let transactionID, let parameters):
                if ptpipIn != nil { closePhase(out: false, "the data phase's further packets are not in the log") }
                messages.append(
                    Message(
                        body: .request(PTPRequest(code: code, transactionID: transactionID, parameters: parameters)),
                        line: line, time: time))
            case .startData(let transactionID, let total):
                let open = OpenData(
                    code: 0, transactionID: transactionID, announced: total > UInt64(Int.max) ? Int.max : Int(total),
                    bytes: [], line: line, time: time)
                if fromHost { ptpipOut = open } else { ptpipIn = open }
            case .data(_, let payload):
                appendPayload(payload, fromHost: fromHost, line: line)
            case .endData(_, let payload):
                appendPayload(payload, fromHost: fromHost, line: line)
                closePhase(out: fromHost, "the log holds only part of the data phase")
            case .operationResponse(let code, let transactionID, let parameters):
                // A data phase still open: the log lost its end.
                closePhase(out: false, "the data phase's further packets are not in the log")
                closePhase(out: true, "the data phase's further packets are not in the log")
                messages.append(
                    Message(
                        body: .response(PTPResponse(code: code, transactionID: transactionID, parameters: parameters)),
                        line: line, time: time))
            case .event(let code, let transactionID, let parameters):
                messages.append(
                    Message(
                        body: .event(PTPEvent(code: code, transactionID: transactionID, parameters: parameters)),
                        line: line, time: time))
            default:
                break
            }
        }

        private mutating func appendPayload(_ payload: [UInt8], fromHost: Bool, line: Int) {
            guard let open = fromHost ? ptpipOut : ptpipIn else {
                diagnostics.append(Diagnostic(line: line, kind: .framing, "PTP/IP data without Start Data; not used"))
                return
            }
            guard open.cut == nil else {
                diagnostics.append(
                    Diagnostic(
                        line: line, kind: .framing,
                        "\(payload.count) bytes continue a data phase whose earlier bytes are not all in the log; not used"
                    ))
                return
            }
            if fromHost { ptpipOut?.bytes += payload } else { ptpipIn?.bytes += payload }
        }

        /// Emits the open PTP/IP data phase of one direction, cut for `reason` when it is short.
        private mutating func closePhase(out: Bool, _ reason: String) {
            guard let open = out ? ptpipOut : ptpipIn else { return }
            if out { ptpipOut = nil } else { ptpipIn = nil }
            let short = open.bytes.count < open.announced
            messages.append(
                Message(
                    body: .data(
                        out ? .out : .in, transactionID: open.transactionID, bytes: open.bytes,
                        announced: open.announced, cut: short ? (open.cut ?? reason) : nil),
                    line: open.line, time: open.time))
        }

        /// Emits what is still open at the end of the log.
        mutating func finish() {
            if openIn != nil { closeData(out: false, cut: openIn?.cut ?? "the log ends inside the data phase") }
            if openOut != nil { closeData(out: true, cut: openOut?.cut ?? "the log ends inside the data phase") }
            finishIncoming(cut: "the log ends inside the packet")
            closePhase(out: false, "the log ends inside the data phase")
            closePhase(out: true, "the log ends inside the data phase")
        }
    }

    // MARK: Transactions

    /// Messages → transactions and events.
    struct ConversationBuilder {
        private(set) var conversation: PTPConversation
        private(set) var diagnostics: [Diagnostic] = []
        private var open: (transaction: PTPConversation.Transaction, line: Int)?

        init(transport: PTPConversation.Transport) {
            conversation = PTPConversation(transport: transport, transactions: [])
        }

        mutating func add(_ message: Message) {
            switch message.body {
            case .responderName(let name):
                if conversation.responderName == nil { conversation.responderName = name }
            case .request(let request):
                closeWithoutResponse(reason: "the next request (line \(message.line)) comes first")
                guard conversation.transactions.count < CaptureLimits.maxTransactionCount else { return }
                open = (
                    PTPConversation.Transaction(
                        request: request, response: PTPResponse(code: .ok, transactionID: request.transactionID),
                        requestTimestampNanoseconds: message.time, responseTimestampNanoseconds: message.time),
                    message.line
                )
            case .data(let direction, let transactionID, let bytes, let announced, let cut, let code):
                if open?.transaction.request.transactionID != transactionID, direction == .in, let code,
                    let request = Self.impliedRequest(code: code, transactionID: transactionID, bytes: bytes)
                {
                    // The log lost the request, but the camera's data container names an operation whose request
                    // it determines entirely.
                    closeWithoutResponse(reason: "the data of another transaction (line \(message.line)) comes first")
                    diagnostics.append(
                        Diagnostic(
                            line: message.line, kind: .rebuilt,
                            "the request of \(request.code) (transaction \(transactionID)) is not in the log; rebuilt "
                                + "from the camera's data container (the operation's parameters are implied)"))
                    conversation.notes.append(
                        "\(request.code) tid \(transactionID): the request is rebuilt from the data container")
                    open = (
                        PTPConversation.Transaction(
                            request: request, response: PTPResponse(code: .ok, transactionID: transactionID),
                            requestTimestampNanoseconds: message.time, responseTimestampNanoseconds: message.time),
                        message.line
                    )
                }
                guard var current = open, current.transaction.request.transactionID == transactionID else {
                    diagnostics.append(
                        Diagnostic(
                            line: message.line, kind: .dropped,
                            "\(bytes.count) bytes of data for transaction \(transactionID), whose request is not in the log; not used"
                        ))
                    return
                }
                if direction == .in {
                    current.transaction.dataIn = (current.transaction.dataIn ?? []) + bytes
                } else {
                    current.transaction.dataOut = (current.transaction.dataOut ?? []) + bytes
                }
                if let cut {
                    current.transaction.cut = PTPConversation.DataPhaseCut(
                        direction: direction, heldByteCount: bytes.count, announcedByteCount: announced,
                        responseInSource: true, reason: cut)
                    diagnostics.append(
                        Diagnostic(
                            line: message.line, kind: .cutDump,
                            "\(current.transaction.request.code) data phase cut: \(bytes.count) of \(announced.map(String.init) ?? "?") bytes (\(cut))"
                        ))
                }
                open = current
            case .response(let response):
                guard var current = open, current.transaction.request.transactionID == response.transactionID else {
                    diagnostics.append(
                        Diagnostic(
                            line: message.line, kind: .dropped,
                            "\(response) answers no request in the log; not used"))
                    return
                }
                current.transaction.response = response
                current.transaction.responseTimestampNanoseconds = message.time
                append(current.transaction)
                open = nil
            case .event(let event):
                conversation.events.append(
                    PTPConversation.Event(
                        event: event, timestampNanoseconds: message.time,
                        afterTransaction: conversation.transactions.isEmpty ? nil : conversation.transactions.count - 1)
                )
            }
        }

        /// Operations whose request a data container determines: no parameters, or (GetDevicePropDesc) the one
        /// parameter the dataset starts with.
        static let parameterlessOperations: Set<UInt16> = [
            0x1001,  // GetDeviceInfo
            0x1004,  // GetStorageIDs
            0x90C7,  // Nikon GetEvent
            0x90CA,  // Nikon GetVendorPropCodes
            0x9101,  // Canon EOS GetStorageIDs
            0x9108,  // Canon EOS GetDeviceInfoEx
            0x9116,  // Canon EOS GetEvent
            0x9209,  // Sony GetAllDevicePropData
        ]

        static func impliedRequest(code: UInt16, transactionID: UInt32, bytes: [UInt8]) -> PTPRequest? {
            if parameterlessOperations.contains(code) {
                return PTPRequest(code: OperationCode(rawValue: code), transactionID: transactionID)
            }
            if code == 0x1014, bytes.count >= 2 {
                return PTPRequest(
                    code: .getDevicePropDesc, transactionID: transactionID,
                    parameters: [UInt32(bytes[0]) | UInt32(bytes[1]) << 8])
            }
            return nil
        }

        private mutating func append(_ transaction: PTPConversation.Transaction) {
            conversation.transactions.append(transaction)
        }

        /// A transaction whose response the log does not hold: kept when it has a data phase (OK standing in for
        /// the response, marked: ``PTPConversation/DataPhaseCut/responseInSource`` false), since the data is what
        /// the camera said; dropped otherwise.
        private mutating func closeWithoutResponse(reason: String) {
            guard let current = open else { return }
            open = nil
            var transaction = current.transaction
            let data = transaction.dataIn ?? transaction.dataOut
            if var cut = transaction.cut
                ?? data.map({
                    PTPConversation.DataPhaseCut(
                        direction: transaction.dataIn != nil ? .in : .out, heldByteCount: $0.count,
                        announcedByteCount: $0.count, responseInSource: false, reason: "the response is not in the log")
                })
            {
                cut.responseInSource = false
                transaction.cut = cut
                append(transaction)
                diagnostics.append(
                    Diagnostic(
                        line: current.line, kind: .cutDump,
                        "no response to \(transaction.request) in the log (\(reason)); kept with its data, OK standing in"
                    ))
            } else {
                diagnostics.append(
                    Diagnostic(
                        line: current.line, kind: .dropped,
                        "no response to \(current.transaction.request) in the log (\(reason)); not used"))
            }
        }

        mutating func finish() {
            closeWithoutResponse(reason: "the log ends")
        }
    }
}
