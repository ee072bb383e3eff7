import PTP

extension USBPipeError {
    /// The pipe vocabulary for a libusb failure (DocC article *The transport seams*): timeout, stall, disconnect,
    /// overflow and cancel keep their meaning, everything else is an I/O error; `partialData` holds what a failed
    /// read had received (libusb's `actual_length`).
    public init(_ error: LibUSBError, partialData: [UInt8] = []) {
        let code: USBPipeError.Code =
            switch error.code {
            case .timeout: .timeout
            case .pipe: .stall
            case .noDevice: .disconnected
            case .overflow: .overflow
            case .interrupted: .cancelled
            default: .ioError
            }
        self.init(code, partialData: partialData, underlyingError: error, error.detail)
    }
}
