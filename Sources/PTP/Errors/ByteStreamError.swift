/// A failure reported by a ``ByteStream``: the vocabulary every stream implementation (TCP sockets, memory,
/// replay) maps its errors onto.
public struct ByteStreamError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String
        /// Wraps a name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Nothing arrived in time.
        public static let timeout = Code(rawValue: "timeout")
        /// The peer closed the stream (end of file), or this end was closed.
        public static let closed = Code(rawValue: "closed")
        /// The connection broke (reset, unreachable).
        public static let reset = Code(rawValue: "reset")
        /// The operation was cancelled.
        public static let cancelled = Code(rawValue: "cancelled")
        /// Anything else.
        public static let ioError = Code(rawValue: "ioError")

        /// The name.
        public var description: String { rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// The implementation's own error (e.g. an `Errno`), when there is one.
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
    public static func == (lhs: ByteStreamError, rhs: ByteStreamError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// E.g. `closed: peer closed the stream`.
    public var description: String {
        var text = code.rawValue
        if !detail.isEmpty { text += ": \(detail)" }
        if let underlyingError { text += " (underlying: \(underlyingError))" }
        return text
    }
}
