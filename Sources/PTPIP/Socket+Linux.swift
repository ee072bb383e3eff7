import PTP

#if canImport(Glibc)
    import Glibc
#endif

/// The Linux socket calls the PTP/IP code shares: creating non-blocking, close-on-exec sockets, and mapping
/// `errno` onto ``PTP/ByteStreamError`` codes.
enum Socket {
    /// `SOCK_STREAM` with `SOCK_NONBLOCK | SOCK_CLOEXEC`, Linux's way to get both flags atomically.
    static let streamType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)

    /// A new non-blocking TCP socket of `family`.
    static func makeStream(family: SocketAddress.Family, _ what: String) throws(ByteStreamError) -> Int32 {
        let descriptor = socket(family == .ipv4 ? AF_INET : AF_INET6, streamType, Int32(IPPROTO_TCP))
        guard descriptor >= 0 else {
            throw ByteStreamError(.ioError, underlyingError: SocketError.current("socket"), what)
        }
        return descriptor
    }

    /// The stream-level meaning of a failed `send`/`recv`: the connection broke (reset), or something else.
    static func streamError(_ error: SocketError) -> ByteStreamError {
        switch error.code.rawValue {
        case ECONNRESET, EPIPE, ECONNABORTED, ETIMEDOUT, EHOSTUNREACH, ENETUNREACH, ENETRESET, ENOTCONN, ESHUTDOWN:
            ByteStreamError(.reset, underlyingError: error, error.operation)
        default:
            ByteStreamError(.ioError, underlyingError: error, error.operation)
        }
    }
}
