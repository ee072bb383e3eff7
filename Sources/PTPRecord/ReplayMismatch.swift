import PTP

/// A strict replay diverged: the host sent a request the recording does not have at that point. It names the
/// transaction the recording expected and the one received.
public struct ReplayMismatch: Error, Hashable, Sendable, CustomStringConvertible {
    /// The index of the transaction in the recording where the replay diverged.
    public let index: Int
    /// What the recording has there; `nil` when the recording had ended.
    public let expected: PTPConversation.Transaction?
    /// The request received.
    public let received: PTPRequest
    /// The size of the host's data phase, if it sent one.
    public let receivedDataOutByteCount: Int?
    /// What differs: the operation, a parameter, the data phase.
    public let difference: String

    /// Creates a mismatch.
    public init(
        index: Int, expected: PTPConversation.Transaction?, received: PTPRequest, receivedDataOutByteCount: Int?,
        difference: String
    ) {
        self.index = index
        self.expected = expected
        self.received = received
        self.receivedDataOutByteCount = receivedDataOutByteCount
        self.difference = difference
    }

    /// E.g. `strict replay diverged at transaction 3: expected GetObjectInfo(0x00000101) tid 3, received
    /// GetObject(0x00000101) tid 3 (operation differs)`.
    public var description: String {
        let expectedText = expected.map { "\($0.request)" + ($0.dataOut.map { " with \($0.count) bytes out" } ?? "") }
        let receivedText = "\(received)" + (receivedDataOutByteCount.map { " with \($0) bytes out" } ?? "")
        return
            "strict replay diverged at transaction \(index): expected \(expectedText ?? "the end of the recording"), "
            + "received \(receivedText) (\(difference))"
    }
}
