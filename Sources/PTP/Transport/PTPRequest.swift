/// An operation request: the code, the transaction ID and up to five parameters (ISO 15740 §9.3.1).
///
/// The session ID is not part of the USB or PTP/IP wire format, so it is not here: a session is implicit in the
/// link.
public struct PTPRequest: Hashable, Sendable, CustomStringConvertible {
    /// The operation.
    public var code: OperationCode
    /// The transaction ID: 0 for OpenSession and outside a session, then 1, 2, … within it.
    public var transactionID: UInt32
    /// Up to five parameters.
    public var parameters: [UInt32]

    /// Creates a request; more than five parameters is a programmer error.
    public init(code: OperationCode, transactionID: UInt32, parameters: [UInt32] = []) {
        precondition(parameters.count <= 5, "a PTP request carries at most 5 parameters")
        (self.code, self.transactionID, self.parameters) = (code, transactionID, parameters)
    }

    /// E.g. `GetObject(0x00000001) tid 4`.
    public var description: String {
        "\(code)(\(parameters.map(hex).joined(separator: ", "))) tid \(transactionID)"
    }
}
