import PTP

/// Why a camera setting could not be read, understood or changed: a ``Code``, the property's readable name, the
/// values the camera allows (from its DevicePropDesc), and a message that says what to do.
///
/// ```text
/// iso: 450 is not a value the camera allows; allowed: auto, 100, 125, 160, …
/// ```
public struct CameraControlError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as JSON reports print it.
        public let rawValue: String
        /// Wraps a name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// No property has this name (and it is not a `0x5005`-style code).
        public static let unknownProperty = Code(rawValue: "unknownProperty")
        /// The camera does not list the property in DeviceInfo's DevicePropertiesSupported.
        public static let notSupported = Code(rawValue: "notSupported")
        /// The text is not a value of the property, or not one its descriptor allows.
        public static let invalidValue = Code(rawValue: "invalidValue")
        /// The property is read-only (DevicePropDesc GetSet 0).
        public static let readOnly = Code(rawValue: "readOnly")
        /// The camera refused the operation (its response code is in the message).
        public static let refused = Code(rawValue: "refused")
        /// An assignment is not `NAME=VALUE`.
        public static let malformedAssignment = Code(rawValue: "malformedAssignment")
        /// The camera cannot deliver the raw format asked for.
        public static let formatUnavailable = Code(rawValue: "formatUnavailable")
        /// Restoring a snapshot left some properties unrestored.
        public static let restoreIncomplete = Code(rawValue: "restoreIncomplete")

        /// The name.
        public var description: String { rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// The property's readable name (`iso`) or code (`0xD001`), when one property is at fault.
    public let property: String?
    /// The values the camera allows, formatted as `config set` accepts them; empty when unknown or irrelevant.
    public let allowed: [String]
    /// What happened, without the property name and the allowed values.
    public let detail: String

    /// Creates an error.
    public init(_ code: Code, property: String? = nil, _ detail: String, allowed: [String] = []) {
        self.code = code
        self.property = property
        self.detail = detail
        self.allowed = allowed
    }

    /// One line: `iso: 450 is not a value the camera allows; allowed: 100, 125, …`.
    public var description: String {
        var text = property.map { "\($0): \(detail)" } ?? detail
        if !allowed.isEmpty { text += "; allowed: " + allowed.joined(separator: ", ") }
        return text
    }
}
