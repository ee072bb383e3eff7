import PTP

/// No camera answered at a PTP/IP address: the name did not resolve, or no resolved address accepted the TCP
/// connection. It is the ``PTP/TransportError/underlyingError`` of ``PTPIPConnector``'s connection failures, so a
/// caller can tell "nothing there" (check the address, wake the camera) from a session that broke later.
public struct PTPIPConnectFailure: Error, Sendable, CustomStringConvertible {
    /// The address asked for.
    public let address: PTPIPAddress
    /// Why: a ``HostResolutionError`` or the last address's ``PTP/ByteStreamError`` (with its ``SocketError``).
    public let reason: any Error & Sendable

    /// Creates a failure.
    public init(address: PTPIPAddress, reason: any Error & Sendable) {
        self.address = address
        self.reason = reason
    }

    /// E.g. `no PTP/IP camera at 192.168.1.10:15740: reset: connect 192.168.1.10:15740 (underlying: …
    /// ECONNREFUSED (Connection refused))`.
    public var description: String { "no PTP/IP camera at \(address): \(reason)" }
}
