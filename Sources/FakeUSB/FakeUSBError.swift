/// A failure of the fake USB camera's machinery (umockdev), not of the camera it plays.
///
/// Shaped like swift-asn1's `ASN1Error`: a stable ``code`` (`==` compares it alone) and a message.
public struct FakeUSBError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String
        /// Wraps a name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// libumockdev (or GLib) cannot be loaded: the `umockdev` package is missing.
        public static let umockdevMissing = Code(rawValue: "umockdevMissing")
        /// A testbed exists, but this process does not run with libumockdev-preload, so its own libusb would see
        /// the real system (link the preload into the test binary, or run under `umockdev-wrapper`).
        public static let preloadMissing = Code(rawValue: "preloadMissing")
        /// umockdev refused to create the testbed or a device.
        public static let setupFailed = Code(rawValue: "setupFailed")
        /// A child process could not be started.
        public static let childFailed = Code(rawValue: "childFailed")

        /// The name.
        public var description: String { rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// Details, from umockdev or the system.
    public let detail: String

    /// Creates an error.
    public init(_ code: Code, _ detail: String = "") {
        self.code = code
        self.detail = detail
    }

    /// Compares codes only.
    public static func == (lhs: FakeUSBError, rhs: FakeUSBError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// E.g. `umockdevMissing: cannot load libumockdev.so.0 …`.
    public var description: String { detail.isEmpty ? code.rawValue : "\(code): \(detail)" }
}
