import CFakeUSB

/// What a libusb program did to a fake device, counted by the device model: tests check the wire, not only the
/// result (that a data phase really ended with a zero-length packet, that reads were large).
public struct FakeUSBStatistics: Hashable, Sendable {
    /// Bulk IN transfers (URBs) submitted.
    public var bulkInTransfers: Int
    /// Bulk OUT transfers submitted.
    public var bulkOutTransfers: Int
    /// Interrupt IN transfers submitted.
    public var interruptTransfers: Int
    /// Control transfers submitted (string descriptors, class requests).
    public var controlTransfers: Int
    /// Bulk IN transfers that ended at a zero-length packet.
    public var bulkInEndedByZeroLengthPacket: Int
    /// Bulk IN transfers that ended because their buffer filled.
    public var bulkInEndedFull: Int
    /// Bulk IN transfers that ended at a short packet.
    public var bulkInEndedShort: Int
    /// Zero-length bulk OUT transfers the host sent.
    public var bulkOutZeroLengthPackets: Int
    /// The largest bulk IN transfer submitted, in bytes.
    public var largestBulkInTransfer: Int
    /// Transfers the host discarded (timeouts and cancels).
    public var discardedTransfers: Int
    /// Class requests answered.
    public var classRequests: Int
    /// Halts the host cleared.
    public var clearedHalts: Int
    /// Successful claims of the interface.
    public var claims: Int

    init(_ stats: fakeusb_stats) {
        bulkInTransfers = Int(stats.bulk_in_urbs)
        bulkOutTransfers = Int(stats.bulk_out_urbs)
        interruptTransfers = Int(stats.interrupt_urbs)
        controlTransfers = Int(stats.control_urbs)
        bulkInEndedByZeroLengthPacket = Int(stats.bulk_in_ended_by_zlp)
        bulkInEndedFull = Int(stats.bulk_in_ended_full)
        bulkInEndedShort = Int(stats.bulk_in_ended_short)
        bulkOutZeroLengthPackets = Int(stats.bulk_out_zlps)
        largestBulkInTransfer = Int(stats.largest_bulk_in_urb)
        discardedTransfers = Int(stats.discarded_urbs)
        classRequests = Int(stats.class_requests)
        clearedHalts = Int(stats.clear_halts)
        claims = Int(stats.claims)
    }
}
