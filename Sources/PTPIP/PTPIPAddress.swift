/// Where a PTP/IP camera is: a host and a TCP port, parsed from rawcap's `--camera ptpip:HOST[:PORT]` syntax.
///
/// | text | host | port |
/// |---|---|---|
/// | `192.168.1.10` | `192.168.1.10` | 15740 |
/// | `camera.local:15741` | `camera.local` | 15741 |
/// | `[fe80::1%wlan0]:15740` | `fe80::1%wlan0` | 15740 |
/// | `::1` | `::1` (several colons and no brackets: all host) | 15740 |
///
/// Both connections of a PTP/IP session go to the same port (CIPA DC-X005 §2.2; libgphoto2 needs a third field
/// to change the event port, which no camera requires).
public struct PTPIPAddress: Hashable, Sendable, CustomStringConvertible {
    /// The IANA port of PTP/IP (CIPA DC-X005; Wireshark `PTPIP_PORT`).
    public static let defaultPort: UInt16 = 15740

    /// A host name or numeric address, without brackets.
    public var host: String
    /// The TCP port of both connections.
    public var port: UInt16

    /// Creates an address.
    public init(host: String, port: UInt16 = PTPIPAddress.defaultPort) {
        (self.host, self.port) = (host, port)
    }

    /// Parses `HOST`, `HOST:PORT`, `[IPV6]`, `[IPV6]:PORT` or a bare IPv6 literal.
    ///
    /// - Throws: ``PTPIPAddressError`` for an empty host, an unclosed bracket, or a port that is not a number in
    ///   1…65535.
    public init(parsing text: String) throws(PTPIPAddressError) {
        var host = Substring(text)
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw PTPIPAddressError(text, "missing ']'") }
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw PTPIPAddressError(text, "unexpected \"\(rest)\" after ']'") }
                portText = rest.dropFirst()
            }
        } else if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard !host.isEmpty else { throw PTPIPAddressError(text, "no host") }
        var port = Self.defaultPort
        if let portText {
            guard let value = UInt16(portText), value > 0 else {
                throw PTPIPAddressError(text, "port \"\(portText)\" is not a number from 1 to 65535")
            }
            port = value
        }
        self.init(host: String(host), port: port)
    }

    /// `host:port`, with brackets around an IPv6 literal.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}

/// A `ptpip:` address that does not parse.
public struct PTPIPAddressError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text given.
    public let text: String
    /// What is wrong with it.
    public let reason: String

    init(_ text: String, _ reason: String) { (self.text, self.reason) = (text, reason) }

    /// E.g. `invalid PTP/IP address "camera:99999": port "99999" is not a number from 1 to 65535`.
    public var description: String { "invalid PTP/IP address \"\(text)\": \(reason)" }
}
