import WireFormat

/// The data phase of Nikon GetEvent (0x90C7): the events the camera queued since the last poll.
///
/// Layout (libgphoto2 `ptp-pack.c` `ptp_unpack_Nikon_EC`, offsets `PTP_nikon_ec_*`; called from `ptp.c`
/// `ptp_nikon_check_event`):
///
/// | field | type |
/// |---|---|
/// | count | UINT16 |
/// | event × count | UINT16 event code, UINT32 parameter (6 bytes each) |
///
/// Nikon bodies that list GetEvent deliver their events this way instead of on the interrupt endpoint, each with
/// one parameter. The count is checked against the bytes present before anything is allocated; libgphoto2 treats a
/// count that does not fit as "broken" and reports nothing, rawcap throws ``WireFormat/WireError/Code/truncated``.
public struct NikonEventList: PTPDataset, Hashable {
    /// One queued event.
    public struct Event: Hashable, Sendable, CustomStringConvertible {
        /// The event code (standard, or Nikon's 0xC1xx such as ObjectAddedInSdram 0xC101).
        public var code: EventCode
        /// Its single parameter (a handle, a property code, …).
        public var parameter: UInt32

        /// Creates an event.
        public init(code: EventCode, parameter: UInt32) {
            self.code = code
            self.parameter = parameter
        }

        /// `Nikon.ObjectAddedInSdram(0xFFFF0001)`.
        public var description: String { "\(code.description(vendor: .nikon))(\(hex(parameter)))" }

        /// The event as the session reports interrupt events (one parameter, no transaction).
        public var ptpEvent: PTPEvent { PTPEvent(code: code, parameters: [parameter]) }
    }

    /// The events in camera order.
    public var events: [Event]

    /// Wraps events; at most 65535 (the count is a UINT16 — more is a programmer error).
    public init(_ events: [Event]) {
        precondition(events.count <= Int(UInt16.max), "a Nikon event list holds at most 65535 events")
        self.events = events
    }

    /// Reads the list.
    public init(from reader: inout WireReader, quirks: PTPQuirks) throws(WireError) {
        let countOffset = reader.offset
        let count = Int(try reader.read(UInt16.self))
        guard count * 6 <= reader.remainingCount else {
            throw WireError(
                .truncated, at: countOffset,
                "\(count) Nikon events need \(count * 6) bytes, \(reader.remainingCount) left")
        }
        var events: [Event] = []
        events.reserveCapacity(count)
        for _ in 0..<count {
            events.append(Event(code: EventCode(rawValue: try reader.read()), parameter: try reader.read()))
        }
        self.events = events
    }

    /// Writes the list.
    public func encode(into writer: inout WireWriter) {
        writer.write(UInt16(truncatingIfNeeded: events.count))
        for event in events {
            writer.write(event.code.rawValue)
            writer.write(event.parameter)
        }
    }
}
