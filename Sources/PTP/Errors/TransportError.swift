/// A failure of the link to the camera: a timeout, a stall, a disconnect, a rejected connection.
///
/// Shaped like swift-subprocess's errors: a stable ``code`` to match on (`==` compares it alone) and a typed
/// ``underlyingError`` from the layer below (a ``USBPipeError`` or ``ByteStreamError``, which in turn carry
/// libusb's or the socket's own error).
public struct TransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of link failure this is.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String
        /// Wraps a name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The device did not answer in time.
        public static let timeout = Code(rawValue: "timeout")
        /// The device went away (USB unplugged, TCP connection closed or reset).
        public static let disconnected = Code(rawValue: "disconnected")
        /// An endpoint stalled; the transport cleared it, but the transaction is lost.
        public static let stalled = Code(rawValue: "stalled")
        /// The transaction was cancelled by the host.
        public static let cancelled = Code(rawValue: "cancelled")
        /// The transport was closed by the host.
        public static let closed = Code(rawValue: "closed")
        /// The device refused the connection (PTP/IP Init Fail).
        public static let rejected = Code(rawValue: "rejected")
        /// Another transaction is in progress on this transport.
        public static let busy = Code(rawValue: "busy")
        /// Any other input/output failure.
        public static let ioError = Code(rawValue: "ioError")

        /// The name.
        public var description: String { rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// The error of the layer below, when there is one.
    public let underlyingError: (any Error & Sendable)?
    /// Human context.
    public let detail: String

    /// Creates an error.
    public init(_ code: Code, underlyingError: (any Error & Sendable)? = nil, _ detail: String = "") {
        self.code = code
        self.underlyingError = underlyingError
        self.detail = detail
    }

    /// Compares codes only.
    public static func == (lhs: TransportError, rhs: TransportError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// E.g. `timeout: reading bulk IN (underlying: timeout after 5 s)`.
    public var description: String {
        var text = code.rawValue
        if !detail.isEmpty { text += ": \(detail)" }
        if let underlyingError { text += " (underlying: \(underlyingError))" }
        return text
    }
}
