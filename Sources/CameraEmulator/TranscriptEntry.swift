import PTP

/// One operation as the emulated camera saw and answered it: what tests assert on.
///
/// ```swift
/// #expect(await camera.transcript.map(\.code) == [.openSession, .initiateCapture])
/// #expect(await camera.transcript.last?.response == .deviceBusy)
/// ```
public struct TranscriptEntry: Hashable, Sendable, CustomStringConvertible {
    /// The operation.
    public let code: OperationCode
    /// The request's transaction ID.
    public let transactionID: UInt32
    /// The request's parameters.
    public let parameters: [UInt32]
    /// The bytes of the host's data phase, or `nil` when it sent none.
    public let dataOutByteCount: Int?
    /// The response code the camera answered with.
    public let response: ResponseCode
    /// The response's parameters.
    public let responseParameters: [UInt32]
    /// The bytes of the camera's data phase, or `nil` when it sent none.
    public let dataInByteCount: UInt64?
    /// The fault the camera committed in this transaction, e.g. `busy=3:InitiateCapture`; `nil` for none.
    public let fault: String?

    /// Creates an entry.
    public init(
        code: OperationCode, transactionID: UInt32, parameters: [UInt32], dataOutByteCount: Int?,
        response: ResponseCode, responseParameters: [UInt32], dataInByteCount: UInt64?, fault: String?
    ) {
        self.code = code
        self.transactionID = transactionID
        self.parameters = parameters
        self.dataOutByteCount = dataOutByteCount
        self.response = response
        self.responseParameters = responseParameters
        self.dataInByteCount = dataInByteCount
        self.fault = fault
    }

    /// E.g. `tid 4 GetObject(0x00000005) → OK, 48000000 bytes [fault stall=GetObject]`.
    public var description: String {
        func hex(_ value: UInt32) -> String {
            let digits = String(value, radix: 16, uppercase: true)
            return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
        }
        var text = "tid \(transactionID) \(code)(\(parameters.map(hex).joined(separator: ", "))) → \(response)"
        if !responseParameters.isEmpty { text += "(\(responseParameters.map(hex).joined(separator: ", ")))" }
        if let dataInByteCount { text += ", \(dataInByteCount) bytes" }
        if let fault { text += " [fault \(fault)]" }
        return text
    }
}
