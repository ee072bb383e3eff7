/// A host name that did not resolve (`getaddrinfo` failed).
public struct HostResolutionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The name that was looked up.
    public let host: String
    /// `getaddrinfo`'s `EAI_*` code.
    public let code: Int32
    /// `gai_strerror`'s message.
    public let message: String

    /// E.g. `cannot resolve "camera.local": Name or service not known`.
    public var description: String { "cannot resolve \"\(host)\": \(message)" }
}
