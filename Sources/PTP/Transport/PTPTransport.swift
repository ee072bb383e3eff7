/// What a ``PTPSession`` needs from a link to a camera: run one transaction, receive events, cancel, close.
///
/// Implementations: ``PTPUSBTransport`` (container framing over any ``USBBulkPipe``), ``PTPIPTransport`` (packet
/// framing over two ``ByteStream``s), and `ReplayTransport` in `PTPRecord` around them. A transport knows framing,
/// transaction IDs on the wire and recovery; it does not know PTP semantics: it never turns a response code into
/// an error and never decodes a dataset.
///
/// ## Contract
///
/// - ``transact(_:dataOut:dataIn:timeout:)`` sends the request, then the data phase out of `dataOut` (if given),
///   or delivers a device data phase into `dataIn` as it arrives, then returns the response. At most one of the
///   two is given. A response that arrives instead of the expected data phase is returned normally (the session
///   reads its code). A data phase when `dataIn` is `nil` is a ``PTPError/Violation/unexpectedDataPhase``.
/// - The transport checks transaction IDs: a response with an older ID is a leftover and is skipped (libgphoto2
///   does the same); any other mismatch throws ``PTPError`` with ``PTPError/Violation/transactionIDMismatch``.
/// - `timeout` bounds each wait for the device (each bulk read, each socket read), not the whole transaction: a
///   100 MB download takes as long as it takes while bytes keep arriving.
/// - Link failures throw ``TransportError`` with the lower layer's error as `underlyingError`. After a timeout,
///   stall or cancel the transport brings the link back to idle before throwing (USB: class Cancel request,
///   Get Device Status, clear halt), so the next transaction can run.
/// - Transactions never overlap: the session runs one at a time; a second concurrent call throws
///   ``TransportError/Code/busy``. ``nextEvent(timeout:)`` may run concurrently with a transaction.
/// - Task cancellation of a running transaction, or ``cancel()``, aborts it with ``TransportError/Code/cancelled``
///   after telling the device (USB class request 0x64, PTP/IP Cancel packet).
public protocol PTPTransport: Sendable {
    /// Runs one transaction and returns the device's response, whatever its code.
    func transact(
        _ request: PTPRequest, dataOut: (any PTPDataSource)?, dataIn: (any PTPDataSink)?, timeout: Duration
    ) async throws -> PTPResponse

    /// The next event, waiting up to `timeout`; `nil` when none arrived in time.
    func nextEvent(timeout: Duration) async throws -> PTPEvent?

    /// Aborts the transaction in progress, if any (it throws ``TransportError/Code/cancelled``).
    func cancel() async

    /// Closes the link; later calls throw ``TransportError/Code/closed``.
    func close() async
}

/// A transport on which the camera sends live view on a connection of its own rather than in answer to an
/// operation (Fujifilm on Wi-Fi: ``FujiPTPIPTransport``, port 55742).
public protocol LiveViewStreamingTransport: PTPTransport {
    /// Whether the live-view connection is open (the camera opens it after InitiateOpenCapture).
    var liveViewConnectionIsOpen: Bool { get async }
    /// The next blob from the live-view connection, the bytes after its length word, waiting up to `timeout`.
    ///
    /// - Throws: ``TransportError`` `.timeout` when none came in time, `.closed` when the connection is not open.
    func nextLiveViewBlob(timeout: Duration) async throws -> [UInt8]
}
