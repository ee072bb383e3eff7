import PTP

extension PTPConversation {
    /// A data phase the source held only in part: a debug log whose dump was cut (`#GAP` lines, the first 1 MiB of
    /// a larger transfer, a damaged dump line, a missing continuation read, the author's ellipsis); or a whole data
    /// phase whose response the source lost (``onlyTheResponseIsMissing``).
    ///
    /// The transaction keeps the bytes the source holds (``PTPConversation/Transaction/dataIn`` or
    /// ``PTPConversation/Transaction/dataOut``), never filler; this says how many the camera announced. When the
    /// source also lost the response, the transaction carries OK in its place and ``responseInSource`` is false.
    ///
    /// In a pcapng recording the mark is a packet comment (opt_comment) on the transaction's response, in the form
    /// ``comment``, which ``PTPConversation/init(capture:)`` reads back.
    public struct DataPhaseCut: Sendable, Hashable, CustomStringConvertible {
        /// Which data phase was cut.
        public enum Direction: String, Sendable, Hashable {
            /// The device's data (GetDeviceInfo, GetObject).
            case `in`
            /// The host's data (SetDevicePropValue, SendObject).
            case out
        }

        /// Which data phase was cut.
        public var direction: Direction
        /// The bytes the source holds (the transaction's data phase).
        public var heldByteCount: Int
        /// The bytes the camera announced (the container's or Start Data's length), when the source shows it.
        public var announcedByteCount: Int?
        /// Whether the response is from the source (false: the source ends or breaks before it; OK stands in).
        public var responseInSource: Bool
        /// Why, in a few words (`the log dumps the first 1048576 bytes`, `damaged dump line 120`).
        public var reason: String

        /// Creates a mark.
        public init(
            direction: Direction, heldByteCount: Int, announcedByteCount: Int?, responseInSource: Bool,
            reason: String
        ) {
            self.direction = direction
            self.heldByteCount = heldByteCount
            self.announcedByteCount = announcedByteCount
            self.responseInSource = responseInSource
            self.reason = reason
        }

        /// Whether the data phase is whole and only the response is missing from the source.
        public var onlyTheResponseIsMissing: Bool { announcedByteCount == heldByteCount && !responseInSource }

        /// E.g. `data phase cut: 512 of 4096 bytes`, `response not in source`.
        public var description: String {
            if onlyTheResponseIsMissing { return "response not in source" }
            return "data phase cut: \(heldByteCount) of \(announcedByteCount.map(String.init) ?? "?") bytes"
                + (responseInSource ? "" : ", response not in source")
        }

        /// The comment's fixed start.
        static let commentPrefix = "rawcap: data phase cut: "

        /// The pcapng packet comment for this mark on `request`'s transaction, e.g.
        /// `rawcap: data phase cut: 512 of 4096 bytes; tid=5 op=0x1009 dir=in response=source; the log dumps the
        /// first 512 bytes`.
        func comment(for request: PTPRequest) -> String {
            Self.commentPrefix + "\(heldByteCount) of \(announcedByteCount.map(String.init) ?? "?") bytes; "
                + "tid=\(request.transactionID) op=0x\(String(request.code.rawValue, radix: 16)) "
                + "dir=\(direction.rawValue) response=\(responseInSource ? "source" : "missing"); "
                + reason.replacingNewlines
        }

        /// Reads a comment written by ``comment(for:)``: the mark and the transaction it names.
        static func parse(comment: String) -> (mark: DataPhaseCut, transactionID: UInt32, code: UInt16)? {
            guard comment.hasPrefix(commentPrefix) else { return nil }
            let parts = comment.dropFirst(commentPrefix.count).split(
                separator: ";", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count >= 2 else { return nil }
            let counts = parts[0].split(separator: " ")
            guard counts.count == 4, counts[1] == "of", counts[3] == "bytes", let held = Int(counts[0]),
                held >= 0
            else { return nil }
            let announced = Int(counts[2])
            var fields: [Substring: Substring] = [:]
            for field in parts[1].split(separator: " ") {
                let pair = field.split(separator: "=", maxSplits: 1)
                if pair.count == 2 { fields[pair[0]] = pair[1] }
            }
            guard let tidText = fields["tid"], let transactionID = UInt32(tidText),
                let opText = fields["op"], opText.hasPrefix("0x"), let code = UInt16(opText.dropFirst(2), radix: 16),
                let directionText = fields["dir"], let direction = Direction(rawValue: String(directionText))
            else { return nil }
            let reason = parts.count > 2 ? String(parts[2].drop { $0 == " " }) : ""
            return (
                DataPhaseCut(
                    direction: direction, heldByteCount: held, announcedByteCount: announced,
                    responseInSource: fields["response"] != "missing", reason: reason),
                transactionID, code
            )
        }
    }

    /// The transactions whose data phase the source held only in part.
    public var cutTransactions: [Transaction] { transactions.filter { $0.cut != nil } }

    /// Applies the cut marks read from packet comments, in order: each goes to the next transaction, from the last
    /// one marked on, with its transaction ID and operation. A mark that finds none becomes a note.
    mutating func applyCutComments(_ comments: [String]) {
        var next = 0
        for comment in comments {
            guard let (mark, transactionID, code) = DataPhaseCut.parse(comment: comment) else { continue }
            if let index = transactions[next...].firstIndex(where: {
                $0.request.transactionID == transactionID && $0.request.code.rawValue == code
            }) {
                transactions[index].cut = mark
                next = index + 1
            } else {
                notes.append(
                    "a cut mark names transaction \(transactionID) (0x\(String(code, radix: 16))), which the recording does not hold"
                )
            }
        }
    }
}

extension String {
    /// The text with line breaks as spaces (a pcapng comment of rawcap's stays on one line).
    fileprivate var replacingNewlines: String {
        String(map { $0.isNewline ? " " : $0 })
    }
}
