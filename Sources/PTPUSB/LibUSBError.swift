import CLibUSB
import PTP

/// A failure reported by libusb-1.0: the `libusb_error` code, the C function that returned it, and context.
///
/// Shaped like swift-asn1's `ASN1Error`: ``code`` is an open table of libusb's codes, and `==` compares the code
/// only, so a test writes `#expect(throws: LibUSBError(.timeout))`. The pipe maps it onto ``PTP/USBPipeError``
/// (see ``PTP/USBPipeError/init(_:partialData:)``) and keeps it as the underlying error.
public struct LibUSBError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A `libusb_error` value (libusb.h `enum libusb_error`). Values libusb adds later pass through as
    /// `Unknown(-N)`.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The C value (negative).
        public let rawValue: Int32
        /// Wraps any value.
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// Input/output error. The corresponding C constant is `LIBUSB_ERROR_IO` (-1).
        public static let io = Code(rawValue: -1)
        /// Invalid parameter. The corresponding C constant is `LIBUSB_ERROR_INVALID_PARAM` (-2).
        public static let invalidParameter = Code(rawValue: -2)
        /// Access denied (insufficient permissions on the device node). The corresponding C constant is
        /// `LIBUSB_ERROR_ACCESS` (-3).
        public static let access = Code(rawValue: -3)
        /// No such device (it may have been disconnected). The corresponding C constant is
        /// `LIBUSB_ERROR_NO_DEVICE` (-4).
        public static let noDevice = Code(rawValue: -4)
        /// Entity not found (an interface, endpoint or driver). The corresponding C constant is
        /// `LIBUSB_ERROR_NOT_FOUND` (-5).
        public static let notFound = Code(rawValue: -5)
        /// Resource busy (another program or driver has claimed the interface). The corresponding C constant is
        /// `LIBUSB_ERROR_BUSY` (-6).
        public static let busy = Code(rawValue: -6)
        /// Operation timed out. The corresponding C constant is `LIBUSB_ERROR_TIMEOUT` (-7).
        public static let timeout = Code(rawValue: -7)
        /// The device sent more data than the buffer holds. The corresponding C constant is
        /// `LIBUSB_ERROR_OVERFLOW` (-8).
        public static let overflow = Code(rawValue: -8)
        /// Pipe error: the endpoint stalled. The corresponding C constant is `LIBUSB_ERROR_PIPE` (-9).
        public static let pipe = Code(rawValue: -9)
        /// A system call was interrupted; rawcap also reports a transfer it cancelled this way. The corresponding C
        /// constant is `LIBUSB_ERROR_INTERRUPTED` (-10).
        public static let interrupted = Code(rawValue: -10)
        /// Insufficient memory. The corresponding C constant is `LIBUSB_ERROR_NO_MEM` (-11).
        public static let noMemory = Code(rawValue: -11)
        /// Operation not supported on this platform. The corresponding C constant is
        /// `LIBUSB_ERROR_NOT_SUPPORTED` (-12).
        public static let notSupported = Code(rawValue: -12)
        /// Any other error. The corresponding C constant is `LIBUSB_ERROR_OTHER` (-99).
        public static let other = Code(rawValue: -99)

        private static let names: [Int32: String] = [
            -1: "LIBUSB_ERROR_IO", -2: "LIBUSB_ERROR_INVALID_PARAM", -3: "LIBUSB_ERROR_ACCESS",
            -4: "LIBUSB_ERROR_NO_DEVICE", -5: "LIBUSB_ERROR_NOT_FOUND", -6: "LIBUSB_ERROR_BUSY",
            -7: "LIBUSB_ERROR_TIMEOUT", -8: "LIBUSB_ERROR_OVERFLOW", -9: "LIBUSB_ERROR_PIPE",
            -10: "LIBUSB_ERROR_INTERRUPTED", -11: "LIBUSB_ERROR_NO_MEM", -12: "LIBUSB_ERROR_NOT_SUPPORTED",
            -99: "LIBUSB_ERROR_OTHER",
        ]

        /// The C constant's name, e.g. `LIBUSB_ERROR_TIMEOUT`, or `Unknown(-42)`.
        public var description: String { Self.names[rawValue] ?? "Unknown(\(rawValue))" }

        /// The code of a finished transfer's status (`enum libusb_transfer_status`), or `nil` for
        /// `LIBUSB_TRANSFER_COMPLETED`. A cancelled transfer reads as ``interrupted``.
        init?(transferStatus status: libusb_transfer_status) {
            switch status {
            case LIBUSB_TRANSFER_COMPLETED: return nil
            case LIBUSB_TRANSFER_TIMED_OUT: self = .timeout
            case LIBUSB_TRANSFER_STALL: self = .pipe
            case LIBUSB_TRANSFER_NO_DEVICE: self = .noDevice
            case LIBUSB_TRANSFER_OVERFLOW: self = .overflow
            case LIBUSB_TRANSFER_CANCELLED: self = .interrupted
            default: self = .io
            }
        }
    }

    /// What libusb reported.
    public let code: Code
    /// The libusb function that failed, e.g. `libusb_claim_interface`.
    public let function: String
    /// Human context (the endpoint, the device).
    public let detail: String

    /// Creates an error.
    public init(_ code: Code, function: String = "", _ detail: String = "") {
        self.code = code
        self.function = function
        self.detail = detail
    }

    /// Wraps a negative libusb return value.
    public init(returnValue: Int32, function: String, _ detail: String = "") {
        self.init(Code(rawValue: returnValue), function: function, detail)
    }

    /// Compares codes only.
    public static func == (lhs: LibUSBError, rhs: LibUSBError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// E.g. `libusb_claim_interface: LIBUSB_ERROR_BUSY (interface 0)`.
    public var description: String {
        var text = function.isEmpty ? code.description : "\(function): \(code)"
        if !detail.isEmpty { text += " (\(detail))" }
        return text
    }
}
