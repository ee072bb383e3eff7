/// An error in the PTP layer: the device answered an operation with a response other than OK, or the device broke
/// the protocol.
///
/// Shaped like swift-asn1's `ASN1Error`. ``Code/deviceResponse`` errors carry the ``response`` and the
/// ``operation`` it answered, and compare equal when code, response and operation are equal, so a test writes
/// `#expect(throws: PTPError(response: .operationNotSupported, operation: .initiateCapture))`. Protocol violations
/// compare by code alone; ``violation`` says which rule broke. Only ``PTPSession`` and the transports create these;
/// the device's response code stays data (``ResponseCode``) and never mixes with host-side failures
/// (``TransportError``).
public struct PTPError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of PTP failure this is.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String
        /// Wraps a name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The device answered with a response code other than OK.
        public static let deviceResponse = Code(rawValue: "deviceResponse")
        /// The device broke the protocol (see ``PTPError/violation``).
        public static let protocolViolation = Code(rawValue: "protocolViolation")

        /// The name.
        public var description: String { rawValue }
    }

    /// Which protocol rule a device broke.
    public struct Violation: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The rule's name.
        public let rawValue: String
        /// Wraps a name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A container or packet carried a transaction ID that is neither the current one nor an older one.
        public static let transactionIDMismatch = Violation(rawValue: "transactionIDMismatch")
        /// A container or packet of a type, or with a code, that is not allowed at this point.
        public static let unexpectedContainer = Violation(rawValue: "unexpectedContainer")
        /// A data phase longer than its header or Start Data announced.
        public static let dataPhaseTooLong = Violation(rawValue: "dataPhaseTooLong")
        /// A data phase that ended before the length its header or Start Data announced.
        public static let dataPhaseTooShort = Violation(rawValue: "dataPhaseTooShort")
        /// Bytes that do not frame as a container or packet (a length that does not fit, an unknown type).
        public static let malformedContainer = Violation(rawValue: "malformedContainer")
        /// A data phase where none was expected, or larger than the caller accepts in memory.
        public static let unexpectedDataPhase = Violation(rawValue: "unexpectedDataPhase")
        /// A response whose parameters contradict the operation (e.g. GetPartialObject reporting more bytes
        /// than it sent).
        public static let inconsistentResponse = Violation(rawValue: "inconsistentResponse")

        /// The name.
        public var description: String { rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// The device's response, for ``Code/deviceResponse``.
    public let response: ResponseCode?
    /// The operation that failed, when known.
    public let operation: OperationCode?
    /// The rule broken, for ``Code/protocolViolation``.
    public let violation: Violation?
    /// The vendor whose names describe vendor codes in ``description`` (context only, not compared).
    public let vendor: VendorExtensionID?
    /// Human context: the values involved.
    public let detail: String

    /// The device answered `operation` with `response`.
    public init(
        response: ResponseCode, operation: OperationCode, vendor: VendorExtensionID? = nil, _ detail: String = ""
    ) {
        self.code = .deviceResponse
        self.response = response
        self.operation = operation
        self.violation = nil
        self.vendor = vendor
        self.detail = detail
    }

    /// The device broke `violation` during `operation`.
    public init(
        _ violation: Violation, operation: OperationCode? = nil, vendor: VendorExtensionID? = nil, _ detail: String = ""
    ) {
        self.code = .protocolViolation
        self.response = nil
        self.operation = operation
        self.violation = violation
        self.vendor = vendor
        self.detail = detail
    }

    /// A bare error of `code`, for matching in tests: `#expect(throws: PTPError(.protocolViolation))`.
    public init(_ code: Code) {
        self.code = code
        self.response = nil
        self.operation = nil
        self.violation = nil
        self.vendor = nil
        self.detail = ""
    }

    /// Device responses compare code, response and operation; other errors compare code only.
    public static func == (lhs: PTPError, rhs: PTPError) -> Bool {
        guard lhs.code == rhs.code else { return false }
        guard lhs.code == .deviceResponse else { return true }
        return lhs.response == rhs.response && lhs.operation == rhs.operation
    }

    /// Hashes the code (and the response and operation of a device response).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        if code == .deviceResponse {
            hasher.combine(response)
            hasher.combine(operation)
        }
    }

    /// The same error described with `vendor`'s code names.
    public func describing(vendor: VendorExtensionID?) -> PTPError {
        PTPError(
            code: code, response: response, operation: operation, violation: violation, vendor: vendor,
            detail: detail)
    }

    private init(
        code: Code, response: ResponseCode?, operation: OperationCode?, violation: Violation?,
        vendor: VendorExtensionID?, detail: String
    ) {
        (self.code, self.response, self.operation) = (code, response, operation)
        (self.violation, self.vendor, self.detail) = (violation, vendor, detail)
    }

    /// E.g. `Nikon.InitiateCaptureRecInSdram answered DeviceBusy (0x2019)`.
    public var description: String {
        var text: String
        let op = operation.map { "\($0.description(vendor: vendor)) (\(hex($0.rawValue)))" }
        if code == .deviceResponse, let response {
            text = "\(op ?? "operation") answered \(response.description(vendor: vendor)) (\(hex(response.rawValue)))"
        } else {
            text = "protocol violation \(violation?.rawValue ?? code.rawValue)"
            if let op { text += " during \(op)" }
        }
        if !detail.isEmpty { text += ": \(detail)" }
        return text
    }
}
