import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// An IPv4 or IPv6 address and a TCP port: where a ``TCPByteStream`` is connected, or where a ``PTPIPListener``
/// listens.
///
/// Recordings need the raw address bytes (``addressBytes``) to write IP headers, so the address is kept as bytes
/// in network order rather than as an opaque `sockaddr`.
public struct SocketAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address family.
    public enum Family: Hashable, Sendable {
        /// IPv4 (`AF_INET`): 4 address bytes.
        case ipv4
        /// IPv6 (`AF_INET6`): 16 address bytes.
        case ipv6
    }

    /// The address family.
    public let family: Family
    /// The address in network byte order: 4 bytes for IPv4, 16 for IPv6.
    public let addressBytes: [UInt8]
    /// The TCP port.
    public let port: UInt16

    /// An IPv4 address from its four bytes, e.g. `[127, 0, 0, 1]`; `nil` unless there are exactly four.
    public init?(ipv4 bytes: [UInt8], port: UInt16) {
        guard bytes.count == 4 else { return nil }
        (family, addressBytes, self.port) = (.ipv4, bytes, port)
    }

    /// An IPv6 address from its sixteen bytes; `nil` unless there are exactly sixteen.
    public init?(ipv6 bytes: [UInt8], port: UInt16) {
        guard bytes.count == 16 else { return nil }
        (family, addressBytes, self.port) = (.ipv6, bytes, port)
    }

    /// Parses a numeric address (`192.168.1.10`, `::1`; no brackets, no host names); `nil` when it is not one.
    public init?(numericHost host: String, port: UInt16) {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            self.init(ipv4: withUnsafeBytes(of: &v4) { Array($0) }, port: port)
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 {
            self.init(ipv6: withUnsafeBytes(of: &v6) { Array($0) }, port: port)
            return
        }
        return nil
    }

    /// IPv4 loopback, 127.0.0.1.
    public static func loopback(port: UInt16) -> SocketAddress {
        SocketAddress(family: .ipv4, addressBytes: [127, 0, 0, 1], port: port)
    }

    /// An address from its parts as given (the Fujifilm event connection reuses the command connection's host).
    init(family: Family, addressBytes: [UInt8], port: UInt16) {
        (self.family, self.addressBytes, self.port) = (family, addressBytes, port)
    }

    /// The numeric host, e.g. `192.168.1.10` or `fe80::1`.
    public var host: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let ok = addressBytes.withUnsafeBytes { raw in
            inet_ntop(family == .ipv4 ? AF_INET : AF_INET6, raw.baseAddress, &buffer, socklen_t(buffer.count)) != nil
        }
        guard ok else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `192.168.1.10:15740`, or `[::1]:15740` for IPv6.
    public var description: String {
        family == .ipv4 ? "\(host):\(port)" : "[\(host)]:\(port)"
    }

    // MARK: sockaddr bridging

    /// Calls `body` with this address as a `sockaddr` and its length.
    func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        switch family {
        case .ipv4:
            var raw = sockaddr_in()
            raw.sin_family = sa_family_t(AF_INET)
            raw.sin_port = port.bigEndian
            withUnsafeMutableBytes(of: &raw.sin_addr) { $0.copyBytes(from: addressBytes) }
            return withUnsafePointer(to: &raw) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        case .ipv6:
            var raw = sockaddr_in6()
            raw.sin6_family = sa_family_t(AF_INET6)
            raw.sin6_port = port.bigEndian
            withUnsafeMutableBytes(of: &raw.sin6_addr) { $0.copyBytes(from: addressBytes) }
            return withUnsafePointer(to: &raw) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
    }

    /// Reads an address the kernel filled in (`getsockname`, `getpeername`, `accept`, `getaddrinfo`); `nil` for
    /// families other than IPv4 and IPv6.
    init?(_ pointer: UnsafePointer<sockaddr>) {
        switch Int32(pointer.pointee.sa_family) {
        case AF_INET:
            let raw = UnsafeRawPointer(pointer).loadUnaligned(as: sockaddr_in.self)
            var address = raw.sin_addr
            self.init(ipv4: withUnsafeBytes(of: &address) { Array($0) }, port: UInt16(bigEndian: raw.sin_port))
        case AF_INET6:
            let raw = UnsafeRawPointer(pointer).loadUnaligned(as: sockaddr_in6.self)
            var address = raw.sin6_addr
            self.init(ipv6: withUnsafeBytes(of: &address) { Array($0) }, port: UInt16(bigEndian: raw.sin6_port))
        default:
            return nil
        }
    }

    /// The address of a socket's own end (`getsockname`) or of its peer (`getpeername`).
    static func of(socket fd: Int32, peer: Bool) -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                let status = peer ? getpeername(fd, address, &length) : getsockname(fd, address, &length)
                return status == 0 ? SocketAddress(UnsafePointer(address)) : nil
            }
        }
    }

    // MARK: Resolution

    /// Resolves a host name or numeric address to TCP addresses, IPv4 first (cameras on Wi-Fi are IPv4), using
    /// the system resolver (`getaddrinfo`) on a thread of its own so the caller's task pool never blocks.
    ///
    /// - Throws: ``HostResolutionError`` when the name does not resolve.
    public static func resolve(host: String, port: UInt16) async throws(HostResolutionError) -> [SocketAddress] {
        if let numeric = SocketAddress(numericHost: host, port: port) { return [numeric] }
        let result: Result<[SocketAddress], HostResolutionError> = await withCheckedContinuation { continuation in
            DispatchQueue(label: "rawcap.ptpip.resolve").async {
                continuation.resume(returning: lookUp(host: host, port: port))
            }
        }
        return try result.get()
    }

    private static func lookUp(host: String, port: UInt16) -> Result<[SocketAddress], HostResolutionError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else {
            let message =
                status == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(status))
            return .failure(HostResolutionError(host: host, code: status, message: message))
        }
        defer { freeaddrinfo(list) }
        var addresses: [SocketAddress] = []
        var entry = list
        while let current = entry {
            if let pointer = current.pointee.ai_addr, let address = SocketAddress(UnsafePointer(pointer)),
                !addresses.contains(address)
            {
                addresses.append(address)
            }
            entry = current.pointee.ai_next
        }
        guard !addresses.isEmpty else {
            return .failure(HostResolutionError(host: host, code: EAI_NONAME, message: "no IPv4 or IPv6 address"))
        }
        // Stable: IPv4 before IPv6, each in the resolver's order.
        return .success(addresses.filter { $0.family == .ipv4 } + addresses.filter { $0.family == .ipv6 })
    }
}
