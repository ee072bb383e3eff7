import WireFormat

/// The pure framing step for a USB bulk-IN (or interrupt) byte stream: bytes of each transfer go in, containers
/// come out; `nil` means "need more bytes".
///
/// A data container is one logical container split over many packets, so it never comes out whole: the framer
/// yields ``Item/dataStart(code:transactionID:payloadByteCount:)``, then the payload as
/// ``Item/dataBytes(_:)`` slices as they arrive, then ``Item/dataEnd``. Nothing is allocated from a length on the
/// wire. The framer knows where transfers ended, which matters in three cases (libgphoto2 `usb.c`):
///
/// - A ContainerLength of 0xFFFFFFFF (an object of 4 GiB or more) means "read until a short packet": the data
///   ends with the first transfer that ended short after carrying payload bytes, or with a zero-length packet.
/// - A stray zero-length transfer between containers (a device's leftover ZLP) is skipped.
/// - A transfer that ends short in the middle of a non-data container, or of a header, is a truncated container.
///
/// A response glued to the tail of a data read simply follows the data in the same bytes. Feed each transfer with
/// ``append(_:endsTransfer:)``, passing `endsTransfer: true` when it ended short (it returned fewer bytes than
/// asked for, including zero); then call ``next()`` until it returns `nil`.
public struct USBContainerFramer: Sendable {
    /// One framing result.
    public enum Item: Hashable, Sendable {
        /// A command, response or event container.
        case container(USBContainer)
        /// A data container's header; `payloadByteCount` is `nil` for the 0xFFFFFFFF length.
        case dataStart(code: OperationCode, transactionID: UInt32, payloadByteCount: UInt64?)
        /// Payload bytes of the current data container.
        case dataBytes(ArraySlice<UInt8>)
        /// The end of the current data container.
        case dataEnd
    }

    private enum State: Sendable {
        case header
        case data(remaining: UInt64)
        case unknownLengthData(start: Int, received: UInt64)
    }

    /// A place in the stream where a transfer ended short, and whether that transfer was empty (a ZLP).
    private struct TransferEnd: Sendable {
        var position: Int
        var wasEmpty: Bool
    }

    private var buffer: [UInt8] = []
    private var head = 0
    /// Stream position of `buffer[0]`.
    private var base = 0
    private var transferEnds: [TransferEnd] = []
    private var state = State.header
    private let maxDataPayloadByteCount: UInt64

    /// Creates a framer; a data payload longer than `maxDataPayloadByteCount` is an error.
    public init(maxDataPayloadByteCount: UInt64 = WireLimits.maxObjectSize) {
        self.maxDataPayloadByteCount = maxDataPayloadByteCount
    }

    /// Bytes received and not yet returned.
    public var bufferedByteCount: Int { buffer.count - head }

    /// Whether the framer is between containers with nothing buffered.
    public var isIdle: Bool {
        if case .header = state { return bufferedByteCount == 0 }
        return false
    }

    /// Whether a data container has started and not ended.
    public var isInsideData: Bool {
        if case .header = state { return false }
        return true
    }

    /// Forgets everything buffered and any container in progress (after a cancel or a stall).
    public mutating func reset() {
        base += buffer.count
        buffer = []
        head = 0
        transferEnds = []
        state = .header
    }

    /// Adds the bytes of one transfer; `endsTransfer` says the transfer ended short (fewer bytes than requested,
    /// zero included).
    public mutating func append<Bytes: Collection>(_ bytes: Bytes, endsTransfer: Bool) where Bytes.Element == UInt8 {
        if head == buffer.count {
            base += buffer.count
            buffer = Array(bytes)
            head = 0
        } else {
            if head > 65_536 && head * 2 > buffer.count {
                base += head
                buffer.removeFirst(head)
                head = 0
            }
            buffer.append(contentsOf: bytes)
        }
        if endsTransfer { transferEnds.append(TransferEnd(position: base + buffer.count, wasEmpty: bytes.isEmpty)) }
    }

    /// The next item, or `nil` when more bytes are needed.
    ///
    /// - Throws: ``WireFormat/WireError`` for a container the spec does not allow: a length under 12, an unknown
    ///   type, a command or response with more than 5 parameters or an event with more than 3, a parameter area
    ///   that is not a whole number of `UInt32`s, a payload over the limit, or a container cut short by the end
    ///   of a transfer.
    public mutating func next() throws(WireError) -> Item? {
        switch state {
        case .header:
            return try nextHeader()
        case .data(let remaining):
            if remaining == 0 {
                state = .header
                return .dataEnd
            }
            let available = bufferedByteCount
            guard available > 0 else { return nil }
            let count = UInt64(available) < remaining ? available : Int(remaining)
            state = .data(remaining: remaining - UInt64(count))
            return .dataBytes(take(count))
        case .unknownLengthData(let start, let received):
            let position = base + head
            // The data ends at a short transfer that carried payload, or at a ZLP; a short transfer that held only
            // the header (a device that sends header and payload separately) does not end it.
            if let end = transferEnds.first(where: { $0.position > start || ($0.position == start && $0.wasEmpty) }) {
                if end.position == position {
                    transferEnds.removeAll { $0.position <= position }
                    state = .header
                    return .dataEnd
                }
                let count = end.position - position
                return try unknownLengthBytes(count, received: received, start: start)
            }
            guard bufferedByteCount > 0 else { return nil }
            return try unknownLengthBytes(bufferedByteCount, received: received, start: start)
        }
    }

    private mutating func unknownLengthBytes(_ count: Int, received: UInt64, start: Int) throws(WireError) -> Item {
        let total = received + UInt64(count)
        guard total <= maxDataPayloadByteCount else {
            throw WireError(.limitExceeded, at: base + head, "data phase over \(maxDataPayloadByteCount) bytes")
        }
        state = .unknownLengthData(start: start, received: total)
        return .dataBytes(take(count))
    }

    private mutating func nextHeader() throws(WireError) -> Item? {
        let position = base + head
        // Transfer ends at or before this point are stray zero-length packets or ends of earlier containers.
        transferEnds.removeAll { $0.position <= position }
        let available = bufferedByteCount
        guard available > 0 else { return nil }
        let cutShort = transferEnds.first.map { $0.position - position }
        if available < USBContainerHeader.byteCount {
            if let cutShort, cutShort < USBContainerHeader.byteCount {
                throw WireError(.truncated, at: position, "transfer ended \(cutShort) bytes into a container header")
            }
            return nil
        }
        var reader = WireReader(buffer[head..<(head + USBContainerHeader.byteCount)], byteOrder: .little)
        let header = try USBContainerHeader(from: &reader)
        guard header.length >= UInt32(USBContainerHeader.byteCount) else {
            throw WireError(.invalidValue, at: position, "ContainerLength \(header.length) is under 12")
        }
        switch header.type {
        case .data:
            let code = OperationCode(rawValue: header.code)
            head += USBContainerHeader.byteCount
            if header.length == USBContainerHeader.unknownLength {
                state = .unknownLengthData(start: position + USBContainerHeader.byteCount, received: 0)
                return .dataStart(code: code, transactionID: header.transactionID, payloadByteCount: nil)
            }
            let payload = UInt64(header.length) - UInt64(USBContainerHeader.byteCount)
            guard payload <= maxDataPayloadByteCount else {
                throw WireError(.limitExceeded, at: position, "data container of \(payload) bytes")
            }
            state = .data(remaining: payload)
            return .dataStart(code: code, transactionID: header.transactionID, payloadByteCount: payload)
        case .command, .response, .event:
            let length = Int(header.length)
            let maxParameters = header.type == .event ? USBContainer.maxEventParameters : USBContainer.maxParameters
            let parameterBytes = length - USBContainerHeader.byteCount
            guard parameterBytes % 4 == 0, parameterBytes / 4 <= maxParameters else {
                throw WireError(
                    .invalidValue, at: position,
                    "\(header.type) container of \(length) bytes (at most \(maxParameters) UInt32 parameters)")
            }
            guard available >= length else {
                if let cutShort, cutShort < length {
                    throw WireError(
                        .truncated, at: position, "transfer ended \(cutShort) bytes into a \(length)-byte container")
                }
                return nil
            }
            var body = WireReader(buffer[(head + USBContainerHeader.byteCount)..<(head + length)], byteOrder: .little)
            var parameters: [UInt32] = []
            for _ in 0..<(parameterBytes / 4) { parameters.append(try body.read(UInt32.self)) }
            head += length
            let id = header.transactionID
            switch header.type {
            case .command:
                return .container(
                    .command(OperationCode(rawValue: header.code), transactionID: id, parameters: parameters))
            case .response:
                return .container(
                    .response(ResponseCode(rawValue: header.code), transactionID: id, parameters: parameters))
            default:
                return .container(.event(EventCode(rawValue: header.code), transactionID: id, parameters: parameters))
            }
        default:
            throw WireError(.invalidValue, at: position + 4, "ContainerType \(header.type.rawValue)")
        }
    }

    private mutating func take(_ count: Int) -> ArraySlice<UInt8> {
        defer { head += count }
        return buffer[head..<(head + count)]
    }
}
