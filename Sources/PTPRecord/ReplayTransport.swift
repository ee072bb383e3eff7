import PTP

/// A ``PTP/PTPTransport`` in front of the real transport to a replayed camera: it passes everything through, and
/// after each transaction throws the ``ReplayResponder``'s ``ReplayMismatch`` — as a
/// ``PTP/TransportError/Code/ioError`` naming the first difference, as the transport seams ask — once a strict
/// replay has diverged. The session then fails with the reason, not with the GeneralError the device side sent.
public struct ReplayTransport: PTPTransport {
    /// The transport to the replaying device side.
    public let base: any PTPTransport
    /// The responder whose divergence is checked.
    public let responder: ReplayResponder

    /// Wraps `base`.
    public init(base: any PTPTransport, responder: ReplayResponder) {
        self.base = base
        self.responder = responder
    }

    /// Runs the transaction, then throws the replay's mismatch if it has one.
    public func transact(
        _ request: PTPRequest, dataOut: (any PTPDataSource)?, dataIn: (any PTPDataSink)?, timeout: Duration
    ) async throws -> PTPResponse {
        try await check()
        let response = try await base.transact(request, dataOut: dataOut, dataIn: dataIn, timeout: timeout)
        try await check()
        return response
    }

    /// The next event.
    public func nextEvent(timeout: Duration) async throws -> PTPEvent? {
        try await base.nextEvent(timeout: timeout)
    }

    /// Cancels the transaction in progress.
    public func cancel() async { await base.cancel() }

    /// Closes the transport.
    public func close() async { await base.close() }

    private func check() async throws {
        if let mismatch = await responder.mismatch {
            throw TransportError(.ioError, underlyingError: mismatch, mismatch.description)
        }
    }
}
