/// A failure reported by a ``USBBulkPipe``: the vocabulary every USB implementation maps its errors onto, so that
/// ``PTPUSBTransport`` can recover from stalls and timeouts the same way over libusb, umockdev or memory.
public struct USBPipeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String
        /// Wraps a name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The transfer did not complete in time (libusb `LIBUSB_ERROR_TIMEOUT`).
        public static let timeout = Code(rawValue: "timeout")
        /// The endpoint is halted (libusb `LIBUSB_ERROR_PIPE`); clear it with ``USBBulkPipe/clearHalt(_:)``.
        public static let stall = Code(rawValue: "stall")
        /// The device is gone (libusb `LIBUSB_ERROR_NO_DEVICE`).
        public static let disconnected = Code(rawValue: "disconnected")
        /// The device sent more than the buffer could hold (libusb `LIBUSB_ERROR_OVERFLOW`).
        public static let overflow = Code(rawValue: "overflow")
        /// The transfer was cancelled.
        public static let cancelled = Code(rawValue: "cancelled")
        /// Anything else (libusb `LIBUSB_ERROR_IO`, `LIBUSB_ERROR_OTHER`, …).
        public static let ioError = Code(rawValue: "ioError")

        /// The name.
        public var description: String { rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// Bytes a failed read had already received (libusb's `actual_length` on a timeout): the transport keeps them.
    public let partialData: [UInt8]
    /// The implementation's own error (e.g. a `LibUSBError`), when there is one.
    public let underlyingError: (any Error & Sendable)?
    /// Human context.
    public let detail: String

    /// Creates an error.
    public init(
        _ code: Code, partialData: [UInt8] = [], underlyingError: (any Error & Sendable)? = nil, _ detail: String = ""
    ) {
        self.code = code
        self.partialData = partialData
        self.underlyingError = underlyingError
        self.detail = detail
    }

    /// Compares codes only.
    public static func == (lhs: USBPipeError, rhs: USBPipeError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// E.g. `stall: bulk IN`.
    public var description: String {
        var text = code.rawValue
        if !detail.isEmpty { text += ": \(detail)" }
        if !partialData.isEmpty { text += " (\(partialData.count) bytes received)" }
        if let underlyingError { text += " (underlying: \(underlyingError))" }
        return text
    }
}
