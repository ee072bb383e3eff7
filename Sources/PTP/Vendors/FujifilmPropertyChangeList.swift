import WireFormat

/// The value of Fujifilm's change-list property (0xD212, libgphoto2 `PTP_DPC_FUJI_CurrentState`, camlib
/// `PTP_PC_FUJI_EventsList`), read with GetDevicePropValue: the properties that changed since the last read.
///
/// Layout (camlib/fudge `fuji.c` `fuji_get_events`, struct `PtpFujiEvents`; the same shape as Nikon's
/// ``NikonEventList``):
///
/// | field | type |
/// |---|---|
/// | count | UINT16 |
/// | change × count | UINT16 property code, UINT32 new value (6 bytes each) |
///
/// Fujifilm bodies have no vendor GetEvent; polling this property replaces it (a new object shows as a change of
/// the object count).
public struct FujifilmPropertyChangeList: PTPDataset, Hashable {
    /// One changed property.
    public struct Change: Hashable, Sendable {
        /// The property.
        public var property: DevicePropertyCode
        /// Its new value.
        public var value: UInt32

        /// Creates a change.
        public init(property: DevicePropertyCode, value: UInt32) {
            self.property = property
            self.value = value
        }
    }

    /// The changes in camera order.
    public var changes: [Change]

    /// Wraps changes; at most 65535 (the count is a UINT16 — more is a programmer error).
    public init(_ changes: [Change]) {
        precondition(changes.count <= Int(UInt16.max), "a Fujifilm change list holds at most 65535 changes")
        self.changes = changes
    }

    /// Reads the list.
    public init(from reader: inout WireReader, quirks: PTPQuirks) throws(WireError) {
        let countOffset = reader.offset
        let count = Int(try reader.read(UInt16.self))
        guard count * 6 <= reader.remainingCount else {
            throw WireError(
                .truncated, at: countOffset,
                "\(count) Fujifilm changes need \(count * 6) bytes, \(reader.remainingCount) left")
        }
        var changes: [Change] = []
        changes.reserveCapacity(count)
        for _ in 0..<count {
            changes.append(Change(property: DevicePropertyCode(rawValue: try reader.read()), value: try reader.read()))
        }
        self.changes = changes
    }

    /// Writes the list.
    public func encode(into writer: inout WireWriter) {
        writer.write(UInt16(truncatingIfNeeded: changes.count))
        for change in changes {
            writer.write(change.property.rawValue)
            writer.write(change.value)
        }
    }
}
