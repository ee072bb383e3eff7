import WireFormat

/// The data phase of Canon EOS GetEvent (0x9116): the records the camera queued since the last poll, then a
/// terminator record of size 8 and type 0.
///
/// Framing (libgphoto2 `ptp-pack.c` `ptp_unpack_CANON_changes`; poll loop in `ptp.c` `ptp_check_eos_events`):
///
/// | field | type |
/// |---|---|
/// | record × n | UINT32 size (≥ 8, header included), UINT32 type, size − 8 payload bytes |
/// | terminator | UINT32 8, UINT32 0 |
///
/// Decoding is strict where libgphoto2 silently stops: a record shorter than its 8-byte header or than its known
/// fields, a size running past the data phase, or a missing terminator throws ``WireFormat/WireError``; bytes after
/// the terminator are ``WireFormat/WireError/Code/trailingBytes`` (through `init(ptpEncoded:)`). A camera with
/// nothing to report sends the terminator alone. Poll again while a reply holds records: the camera hands out
/// its queue in parts (`ptp_check_eos_events` loops "until the camera does not report any").
public struct CanonEOSEventList: PTPDataset, Hashable {
    /// The records in camera order.
    public var events: [CanonEOSEvent]

    /// Wraps records.
    public init(_ events: [CanonEOSEvent]) { self.events = events }

    /// Reads the records up to and including the terminator.
    public init(from reader: inout WireReader, quirks: PTPQuirks) throws(WireError) {
        var events: [CanonEOSEvent] = []
        while true {
            let recordOffset = reader.offset
            let size = try reader.read(UInt32.self)
            let type = try reader.read(UInt32.self)
            guard size >= 8 else {
                throw WireError(.invalidValue, at: recordOffset, "EOS event record size \(size) is below its header")
            }
            if size == 8, type == 0 { break }
            guard let payloadCount = Int(exactly: size - 8), payloadCount <= reader.remainingCount else {
                throw WireError(
                    .truncated, at: recordOffset,
                    "EOS event record of \(size) bytes, \(reader.remainingCount + 8) left in the data phase")
            }
            var payload = try reader.readReader(count: payloadCount)
            events.append(try CanonEOSEvent(type: type, payload: &payload))
        }
        self.events = events
    }

    /// Writes the records and the terminator.
    public func encode(into writer: inout WireWriter) {
        for event in events { event.encode(into: &writer) }
        writer.write(UInt32(8))
        writer.write(UInt32(0))
    }

    /// The transfer requests, in order: what a capture to the host waits for.
    public var transferRequests: [CanonEOSTransferRequest] {
        events.compactMap { if case .requestObjectTransfer(let request) = $0 { request } else { nil } }
    }

    /// The objects added to a card, in order: what a capture to the card waits for.
    public var objectsAdded: [CanonEOSObjectAdded] {
        events.compactMap { if case .objectAdded(let object) = $0 { object } else { nil } }
    }

    /// The last value reported for each property in this reply.
    public var propertyValues: [UInt32: [UInt8]] {
        var values: [UInt32: [UInt8]] = [:]
        for case .propertyChanged(let change) in events { values[change.propertyCode] = change.value }
        return values
    }
}
