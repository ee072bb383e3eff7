/// A configuration of the emulated camera that cannot work: a fault string that does not parse, a sensor size
/// outside what the synthetic scene renders, an unknown model name.
///
/// Shaped like swift-asn1's `ASN1Error`: a stable ``code`` (`==` compares it alone) and a human ``detail``. The camera
/// itself never throws while serving: what goes wrong on the wire is answered with a PTP response code.
public struct EmulatorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem this is.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String
        /// Wraps a name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A `--fault` string that does not name a known fault or carries an unusable argument.
        public static let invalidFault = Code(rawValue: "invalidFault")
        /// A sensor size, capacity or other setting outside its usable range.
        public static let invalidConfiguration = Code(rawValue: "invalidConfiguration")
        /// A `--model` name no personality answers to.
        public static let unknownModel = Code(rawValue: "unknownModel")
        /// Rendering or encoding a shot failed.
        public static let captureFailed = Code(rawValue: "captureFailed")

        /// The name.
        public var description: String { rawValue }
    }

    /// The kind of problem.
    public let code: Code
    /// What exactly is wrong.
    public let detail: String

    /// Creates an error.
    public init(_ code: Code, _ detail: String = "") {
        self.code = code
        self.detail = detail
    }

    /// Compares codes only.
    public static func == (lhs: EmulatorError, rhs: EmulatorError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// E.g. `invalidFault: busy=x: expected a count`.
    public var description: String { detail.isEmpty ? code.rawValue : "\(code.rawValue): \(detail)" }
}
