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
        case .hostile:
            return answerHostileOperation(request, fault: &fault)
        }
    }
}
