/// An event: the code, a transaction ID (0xFFFFFFFF when not tied to one) and up to three parameters
/// (ISO 15740 §9.3.3, §12).
public struct PTPEvent: Hashable, Sendable, CustomStringConvertible {
    /// The transaction ID of events not tied to a transaction (the Sony example in the USB notes).
    public static let noTransaction: UInt32 = 0xFFFF_FFFF

    /// The event.
    public var code: EventCode
    /// The transaction it relates to, or ``noTransaction``.
    public var transactionID: UInt32
    /// Up to three parameters.
    public var parameters: [UInt32]

    /// Creates an event; more than three parameters is a programmer error.
    public init(code: EventCode, transactionID: UInt32 = PTPEvent.noTransaction, parameters: [UInt32] = []) {
        precondition(parameters.count <= 3, "a PTP event carries at most 3 parameters")
        (self.code, self.transactionID, self.parameters) = (code, transactionID, parameters)
    }

    /// E.g. `ObjectAdded(0x00000005) tid 4294967295`.
    public var description: String {
        "\(code)(\(parameters.map(hex).joined(separator: ", "))) tid \(transactionID)"
    }
}
