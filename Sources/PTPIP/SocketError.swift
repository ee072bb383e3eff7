#if canImport(Glibc)
    import Glibc
#endif

/// A failed socket call: which call, and the `errno` it set, by name (`ECONNREFUSED`) and by the C library's
/// message. It is the ``PTP/ByteStreamError/underlyingError`` of every failure of a ``TCPByteStream``, and of
/// the connector's and listener's errors.
///
/// Shaped like swift-system's `Errno`: an open ``Code`` wrapping the number, with names for the values sockets
/// produce; `==` compares the code alone, so a test can write `#expect(throws: SocketError(.connectionRefused))`.
public struct SocketError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An `errno` value.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The number, as `errno` holds it.
        public let rawValue: Int32
        /// Wraps any number.
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// `ECONNREFUSED`: nothing listens on that port.
        public static let connectionRefused = Code(rawValue: ECONNREFUSED)
        /// `ECONNRESET`: the peer reset the connection.
        public static let connectionReset = Code(rawValue: ECONNRESET)
        /// `EPIPE`: writing to a connection the peer closed.
        public static let brokenPipe = Code(rawValue: EPIPE)
        /// `ETIMEDOUT`: the kernel gave up on the connection.
        public static let timedOut = Code(rawValue: ETIMEDOUT)
        /// `EHOSTUNREACH`: no route to the host.
        public static let hostUnreachable = Code(rawValue: EHOSTUNREACH)
        /// `ENETUNREACH`: no route to the network.
        public static let networkUnreachable = Code(rawValue: ENETUNREACH)
        /// `EADDRINUSE`: the port is taken.
        public static let addressInUse = Code(rawValue: EADDRINUSE)
        /// `EADDRNOTAVAIL`: the address is not one of this machine's.
        public static let addressNotAvailable = Code(rawValue: EADDRNOTAVAIL)
        /// `EACCES`: not allowed (a port under 1024 without privileges).
        public static let permissionDenied = Code(rawValue: EACCES)
        /// `EMFILE`: this process has no file descriptors left.
        public static let tooManyOpenFiles = Code(rawValue: EMFILE)

        private static let names: [Int32: String] = [
            EPERM: "EPERM", ENOENT: "ENOENT", EINTR: "EINTR", EIO: "EIO", EBADF: "EBADF", EAGAIN: "EAGAIN",
            ENOMEM: "ENOMEM", EACCES: "EACCES", EFAULT: "EFAULT", EINVAL: "EINVAL", ENFILE: "ENFILE",
            EMFILE: "EMFILE", EPIPE: "EPIPE", ENOTSOCK: "ENOTSOCK", EMSGSIZE: "EMSGSIZE", EPROTOTYPE: "EPROTOTYPE",
            ENOPROTOOPT: "ENOPROTOOPT", EPROTONOSUPPORT: "EPROTONOSUPPORT", EOPNOTSUPP: "EOPNOTSUPP",
            EAFNOSUPPORT: "EAFNOSUPPORT", EADDRINUSE: "EADDRINUSE", EADDRNOTAVAIL: "EADDRNOTAVAIL",
            ENETDOWN: "ENETDOWN", ENETUNREACH: "ENETUNREACH", ENETRESET: "ENETRESET", ECONNABORTED: "ECONNABORTED",
            ECONNRESET: "ECONNRESET", ENOBUFS: "ENOBUFS", EISCONN: "EISCONN", ENOTCONN: "ENOTCONN",
            ESHUTDOWN: "ESHUTDOWN", ETIMEDOUT: "ETIMEDOUT", ECONNREFUSED: "ECONNREFUSED", EHOSTDOWN: "EHOSTDOWN",
            EHOSTUNREACH: "EHOSTUNREACH", EALREADY: "EALREADY", EINPROGRESS: "EINPROGRESS",
        ]

        /// The symbolic name (`ECONNREFUSED`), or `errno N` for a number outside the table.
        public var name: String { Self.names[rawValue] ?? "errno \(rawValue)" }

        /// The C library's message (`strerror`), e.g. "Connection refused".
        public var message: String { String(cString: strerror(rawValue)) }

        /// The symbolic name.
        public var description: String { name }
    }

    /// The `errno` value.
    public let code: Code
    /// The call that failed and its target, e.g. `connect 192.168.1.10:15740`.
    public let operation: String

    /// Creates an error from an `errno` value.
    public init(_ code: Code, _ operation: String = "") {
        self.code = code
        self.operation = operation
    }

    /// Captures the current `errno`.
    static func current(_ operation: String) -> SocketError {
        SocketError(Code(rawValue: errno), operation)
    }

    /// Compares codes only.
    public static func == (lhs: SocketError, rhs: SocketError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// E.g. `connect 127.0.0.1:15740: ECONNREFUSED (Connection refused)`.
    public var description: String {
        (operation.isEmpty ? "" : "\(operation): ") + "\(code.name) (\(code.message))"
    }
}
