import PTP

extension EmulatedCamera {
    /// The personality's answer to `request`, or `nil` when the standard dispatch answers it.
    ///
    /// Called for every operation the model lists in `operationsSupported`, after the session rules and the busy
    /// and stall faults: for a vendor operation (one the standard dispatch does not know) `nil` answers
    /// OperationNotSupported; for a standard one, `nil` lets the standard code answer. Each personality keeps its
    /// operations in its own file (`EmulatedCamera+Nikon.swift`, …) and adds one case here.
    func answerVendorOperation(_ request: PTPRequest, dataOut: [UInt8]?, fault: inout String?) -> PTPResponderReply? {
        switch model.personality {
        case .standard:
            return nil
        case .nikon:
            return answerNikon(request, dataOut: dataOut)
        case .canonEOS:
            return answerCanon(request, dataOut: dataOut)
        }
    }
}

extension EmulatedCamera {
    /// Whether `request` is followed by a host data phase: the standard data-out operations, and the personality's
    /// own (USB gives the device no other way to know; PTP/IP's DataPhaseInfo does).
    public func expectsDataOut(_ request: PTPRequest) async -> Bool {
        if [.sendObjectInfo, .sendObject, .setDevicePropValue].contains(request.code) { return true }
        switch model.personality {
        case .standard, .nikon:
            return false
        case .canonEOS:
            // SetDevicePropValueEx carries the property and its value (libgphoto2 `ptp.c`
            // `ptp_canon_eos_setdevicepropvalueex`).
            return request.code == OperationCode.Canon.setDevicePropValueEx
        }
    }
}

extension EmulatedCamera {
    /// Whether the personality keeps `code` out of the standard property operations (and so out of DeviceInfo's
    /// DevicePropertiesSupported): Canon EOS reports ImageFormat and CaptureDestination only in GetEvent records and
    /// sets them only with SetDevicePropValueEx.
    nonisolated func personalityAnswersOnlyItsOwnWay(_ code: DevicePropertyCode) -> Bool {
        switch model.personality {
        case .standard, .nikon:
            return false
        case .canonEOS:
            return code == CanonEOSImageFormat.property || code == CanonEOSCapture.captureDestinationProperty
        }
    }
}
