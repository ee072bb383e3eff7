import WireFormat

/// One record of a Canon EOS GetEvent (0x9116) reply: a shot, a transfer request, a property value, a list of
/// allowed values, or a record type this decoder does not interpret (kept raw).
///
/// Every record is framed the same way (libgphoto2 `ptp-pack.c` `ptp_unpack_CANON_changes`, offsets `PTP_ece_*`):
///
/// | offset | field | type |
/// |---|---|---|
/// | 0x00 | size of the record, header included | UINT32 |
/// | 0x04 | type (an EOS event code such as 0xC181) | UINT32 |
/// | 0x08 | payload | size − 8 bytes |
///
/// ``CanonEOSEventList`` holds the records of one reply and its terminator.
public enum CanonEOSEvent: Hashable, Sendable {
    /// ObjectAddedEx (0xC181) or ObjectAddedEx64 (0xC1A7): a new object on a card.
    case objectAdded(CanonEOSObjectAdded)
    /// RequestObjectTransfer (0xC186) or RequestObjectTransfer64 (0xC1A9): a shot waiting in the camera's memory
    /// for the host (capture destination "host"); download it, then send TransferComplete.
    case requestObjectTransfer(CanonEOSTransferRequest)
    /// PropValueChanged (0xC189): a property's current value.
    case propertyChanged(CanonEOSPropertyChange)
    /// AvailListChanged (0xC18A): the values a property may now take.
    case availableListChanged(CanonEOSAvailableList)
    /// Any other record type (ObjectRemoved, CameraStatusChanged, OLCInfoChanged, …): the type and the payload
    /// after the 8-byte header, unchanged.
    case unknown(type: UInt32, payload: [UInt8])

    /// The record's type field.
    public var type: UInt32 {
        switch self {
        case .objectAdded(let record): UInt32(record.code.rawValue)
        case .requestObjectTransfer(let record): UInt32(record.code.rawValue)
        case .propertyChanged: UInt32(EventCode.Canon.propValueChanged.rawValue)
        case .availableListChanged: UInt32(EventCode.Canon.availListChanged.rawValue)
        case .unknown(let type, _): type
        }
    }

    /// Decodes a record of `type` from its payload (the bytes after the 8-byte header). The payload reader holds
    /// exactly the record's bytes, so no field can run into the next record.
    ///
    /// - Throws: ``WireFormat/WireError/Code/truncated`` when a known record is shorter than its fields.
    init(type: UInt32, payload reader: inout WireReader) throws(WireError) {
        switch type {
        case UInt32(EventCode.Canon.objectAddedEx.rawValue), UInt32(EventCode.Canon.objectAddedEx64.rawValue):
            self = .objectAdded(
                try CanonEOSObjectAdded(code: EventCode(rawValue: UInt16(truncatingIfNeeded: type)), payload: &reader))
        case UInt32(EventCode.Canon.requestObjectTransfer.rawValue),
            UInt32(EventCode.Canon.requestObjectTransfer64.rawValue),
            UInt32(EventCode.Canon.requestObjectTransfer64LFN.rawValue):
            self = .requestObjectTransfer(
                try CanonEOSTransferRequest(
                    code: EventCode(rawValue: UInt16(truncatingIfNeeded: type)), payload: &reader))
        case UInt32(EventCode.Canon.propValueChanged.rawValue):
            self = .propertyChanged(try CanonEOSPropertyChange(payload: &reader))
        case UInt32(EventCode.Canon.availListChanged.rawValue):
            self = .availableListChanged(try CanonEOSAvailableList(payload: &reader))
        default:
            self = .unknown(type: type, payload: Array(reader.readRemaining()))
        }
    }

    /// Appends the whole record: size, type, payload.
    func encode(into writer: inout WireWriter) {
        let start = writer.count
        writer.write(UInt32(0))  // size, patched below
        writer.write(type)
        switch self {
        case .objectAdded(let record): record.encodePayload(into: &writer)
        case .requestObjectTransfer(let record): record.encodePayload(into: &writer)
        case .propertyChanged(let record): record.encodePayload(into: &writer)
        case .availableListChanged(let record): record.encodePayload(into: &writer)
        case .unknown(_, let payload): writer.write(bytes: payload)
        }
        writer.set(UInt32(truncatingIfNeeded: writer.count - start), at: start)
    }
}

extension WireReader {
    /// Reads a NUL-terminated 8-bit string that must end inside the reader (EOS file names are ASCII C strings);
    /// the bytes after the NUL stay unread.
    mutating func readCString(_ what: String) throws(WireError) -> String {
        let start = offset
        let bytes = remainingBytes
        guard let end = bytes.firstIndex(of: 0) else {
            throw WireError(.truncated, at: start, "\(what): no NUL in \(bytes.count) bytes")
        }
        let text = String(decoding: bytes[bytes.startIndex..<end], as: UTF8.self)
        try skip(end - bytes.startIndex + 1)
        return text
    }
}

extension WireWriter {
    /// Writes `text` as UTF-8 and a NUL.
    mutating func writeCString(_ text: String) {
        write(bytes: Array(text.utf8))
        write(UInt8(0))
    }
}
