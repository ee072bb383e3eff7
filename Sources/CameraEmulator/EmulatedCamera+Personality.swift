import PTP

extension EmulatedCamera {
    /// Whether `request` carries a host data phase: the standard operations that do, and the personality's own
    /// (Sony SetControlDeviceA and SetControlDeviceB; Canon EOS SetDevicePropValueEx). The USB device side needs to
    /// know before it reads on; PTP/IP's DataPhaseInfo says it itself.
    public func expectsDataOut(_ request: PTPRequest) async -> Bool {
        if [.sendObjectInfo, .sendObject, .setDevicePropValue].contains(request.code) { return true }
        switch model.personality {
        case .standard, .fujifilm, .nikon, .hostile:
            return false
        case .sony:
            return request.code == OperationCode.Sony.setControlDeviceA
                || request.code == OperationCode.Sony.setControlDeviceB || request.code == Self.sony9280
        case .canonEOS:
            // SetDevicePropValueEx carries the property and its value (libgphoto2 `ptp.c`
            // `ptp_canon_eos_setdevicepropvalueex`).
            return request.code == OperationCode.Canon.setDevicePropValueEx
        }
    }

    /// The personality's answer to `request`, or `nil` when the standard dispatch answers it.
    ///
    /// Called for every operation the model lists in `operationsSupported`, after the session rules and the busy
    /// and stall faults: for a vendor operation (one the standard dispatch does not know) `nil` answers
    /// OperationNotSupported; for a standard one, `nil` lets the standard code answer. Each personality keeps its
    /// operations in its own file (`EmulatedCamera+Nikon.swift`, …) and adds one case here.
    func answerVendorOperation(_ request: PTPRequest, dataOut: [UInt8]?, fault: inout String?) -> PTPResponderReply? {
        if let reply = answerLiveViewOperation(request, dataOut: dataOut) { return reply }
        switch model.personality {
        case .standard:
            return nil
        case .sony:
            return answerSonyOperation(request, dataOut: dataOut)
        case .fujifilm:
            return answerFujifilmOperation(request, dataOut: dataOut)
        case .nikon:
            return answerNikon(request, dataOut: dataOut)
        case .canonEOS:
            return answerCanon(request, dataOut: dataOut)
        case .hostile:
            return answerHostileOperation(request, fault: &fault)
        }
    }

    /// The events that announce a developed shot's `stored` objects, or `nil` for the standard ObjectAdded and
    /// CaptureComplete (in the configured ``CaptureEventOrder``).
    func personalityShotEvents(_ stored: [ObjectHandle], transactionID: UInt32) -> [PTPEvent]? {
        switch model.personality {
        case .standard, .nikon, .canonEOS, .hostile:
            // Nikon and Canon EOS queue their events for GetEvent in their own capture code.
            return nil
        case .sony:
            return sonyShotEvents(stored)
        case .fujifilm:
            fujifilmShotStored(stored)
            return nil
        }
    }

    /// Adds the personality's own properties to a new camera's table.
    static func addPersonalityProperties(_ model: CameraModel, to table: inout PropertyTable) {
        switch model.personality {
        case .standard, .nikon, .canonEOS, .hostile:
            break
        case .sony:
            addSonyProperties(to: &table)
        case .fujifilm:
            addFujifilmProperties(to: &table)
        }
        guard !model.realBodyProperties.isEmpty else { return }
        // The real body's other properties, as inert descriptions, each in the real body's place.
        for description in model.realBodyProperties where table[description.propertyCode] == nil {
            table.add(description)
        }
        table.order(by: model.realBodyProperties.map(\.propertyCode))
    }

    /// Whether the personality keeps `code` out of the standard property operations (and so out of DeviceInfo's
    /// DevicePropertiesSupported): Canon EOS reports ImageFormat and CaptureDestination only in GetEvent records and
    /// sets them only with SetDevicePropValueEx.
    nonisolated func personalityAnswersOnlyItsOwnWay(_ code: DevicePropertyCode) -> Bool {
        switch model.personality {
        case .standard, .nikon, .sony, .fujifilm, .hostile:
            return false
        case .canonEOS:
            return code == CanonEOSImageFormat.property || code == CanonEOSCapture.captureDestinationProperty
        }
    }
}
