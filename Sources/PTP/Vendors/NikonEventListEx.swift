import WireFormat

/// The data phase of Nikon GetEventEx (0x941C), the second-generation event poll of newer bodies (Z series): events
/// with zero to five parameters each.
///
/// Layout (libgphoto2 `ptp-pack.c` `ptp_unpack_Nikon_EC_EX`: count at offset 0, events from offset 4):
///
/// | field | type |
/// |---|---|
/// | count | UINT16 |
/// | (not interpreted) | UINT16, kept in ``reserved`` |
/// | event × count | UINT16 code, UINT16 number of parameters (0…5), that many UINT32 |
///
/// libgphoto2 rejects the whole reply when an event claims more than five parameters or runs past the data; so
/// does this decoder (``WireFormat/WireError/Code/invalidValue`` and ``WireFormat/WireError/Code/truncated``). The
/// count is checked against the bytes present (each event takes at least 4) before anything is allocated.
public struct NikonEventListEx: PTPDataset, Hashable {
    /// The most parameters an event carries (a PTP event container's limit in libgphoto2's `PTPContainer`).
    public static let maxParameters = 5

    /// One queued event.
    public struct Event: Hashable, Sendable {
        /// The event code.
        public var code: EventCode
        /// Its parameters (at most ``NikonEventListEx/maxParameters``).
        public var parameters: [UInt32]

        /// Creates an event; more than five parameters is a programmer error.
        public init(code: EventCode, parameters: [UInt32]) {
            precondition(parameters.count <= NikonEventListEx.maxParameters, "a Nikon event has at most 5 parameters")
            self.code = code
            self.parameters = parameters
        }

        /// The event in the one-parameter shape ``NikonCaptureSequence`` takes (the first parameter, or 0).
        public var singleParameterEvent: NikonEventList.Event {
            NikonEventList.Event(code: code, parameter: parameters.first ?? 0)
        }
    }

    /// The 16 bits between the count and the first event.
    public var reserved: UInt16
    /// The events in camera order.
    public var events: [Event]

    /// Wraps events; at most 65535 (the count is a UINT16 — more is a programmer error).
    public init(_ events: [Event], reserved: UInt16 = 0) {
        precondition(events.count <= Int(UInt16.max), "a Nikon event list holds at most 65535 events")
        self.events = events
        self.reserved = reserved
    }

    /// Reads the list.
    public init(from reader: inout WireReader, quirks: PTPQuirks) throws(WireError) {
        let countOffset = reader.offset
        let count = Int(try reader.read(UInt16.self))
        reserved = try reader.read()
        guard count <= reader.remainingCount / 4 else {
            throw WireError(
                .truncated, at: countOffset, "\(count) Nikon events in \(reader.remainingCount) bytes")
        }
        var events: [Event] = []
        events.reserveCapacity(count)
        for _ in 0..<count {
            let code = EventCode(rawValue: try reader.read())
            let countAt = reader.offset
            let parameterCount = Int(try reader.read(UInt16.self))
            guard parameterCount <= Self.maxParameters else {
                throw WireError(.invalidValue, at: countAt, "Nikon event with \(parameterCount) parameters")
            }
            var parameters: [UInt32] = []
            for _ in 0..<parameterCount { parameters.append(try reader.read()) }
            events.append(Event(code: code, parameters: parameters))
        }
        self.events = events
    }

    /// Writes the list.
    public func encode(into writer: inout WireWriter) {
        writer.write(UInt16(truncatingIfNeeded: events.count))
        writer.write(reserved)
        for event in events {
            writer.write(event.code.rawValue)
            writer.write(UInt16(event.parameters.count))
            for parameter in event.parameters { writer.write(parameter) }
        }
    }
}
