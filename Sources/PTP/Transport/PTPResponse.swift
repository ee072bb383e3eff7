/// A response: the response code, the transaction ID it answers and up to five parameters (ISO 15740 §9.3.2).
public struct PTPResponse: Hashable, Sendable, CustomStringConvertible {
    /// The response code; anything but ``ResponseCode/ok`` becomes a ``PTPError`` in the session.
    public var code: ResponseCode
    /// The transaction it answers.
    public var transactionID: UInt32
    /// Up to five parameters.
    public var parameters: [UInt32]

    /// Creates a response; more than five parameters is a programmer error.
    public init(code: ResponseCode, transactionID: UInt32, parameters: [UInt32] = []) {
        precondition(parameters.count <= 5, "a PTP response carries at most 5 parameters")
        (self.code, self.transactionID, self.parameters) = (code, transactionID, parameters)
    }

    /// E.g. `OK() tid 4`.
    public var description: String {
        "\(code)(\(parameters.map(hex).joined(separator: ", "))) tid \(transactionID)"
    }
}
