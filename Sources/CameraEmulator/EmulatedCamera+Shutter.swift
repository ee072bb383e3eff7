import PTP

extension EmulatedCamera {
    /// The transaction ID of the events of a shot nobody requested (``PTP/PTPEvent/noTransaction``).
    public static let bodyShotTransactionID = PTPEvent.noTransaction

    /// Presses the body's own shutter button, as a photographer (or a remote, or the camera's interval timer) does:
    /// the camera takes a shot by itself at its current settings (RAW, RAW+JPEG or JPEG as its image quality says)
    /// and announces it the way its family does, with no request from the host:
    ///
    /// - generic and `fuji`: the shot goes where the capture target says; ObjectAdded (0x4002) per object and
    ///   CaptureComplete on the event channel (the Fujifilm body also counts ObjectCount in its 0xD212 change list);
    /// - `nikon`: with RecordingMedia (0xD10B) on SDRAM (as a tethering host sets it), the objects join the SDRAM
    ///   buffer behind those still waiting and GetEvent (0x90C7) reports ObjectAddedInSdram (0xC101) per object and
    ///   CaptureCompleteRecInSdram; on the card, ObjectAdded and CaptureComplete through GetEvent;
    /// - `canon`: EOS GetEvent records: RequestObjectTransfer (0xC186) per object held for the host (capture
    ///   destination host), ObjectAddedEx (0xC181) for the card;
    /// - `sony`: the objects wait in camera memory; ObjectInMemory (0xD215) reads 0x8000 + their number, they are read
    ///   at 0xFFFFC001, and ObjectAdded (0xC201) is sent for each.
    ///
    /// These are the paths libgphoto2's `camera_wait_for_event` (`library.c`, 813de344) reads body shots from, one
    /// per family.
    ///
    /// A press while the previous shot develops (or while the Canon body's host buffer is full) waits until the
    /// camera can shoot, at most `timeout`. Returns once the shot is stored and announced.
    ///
    /// - Returns: OK, or why no shot was taken (DeviceBusy after `timeout`, StoreFull, OperationNotSupported for
    ///   the hostile camera, GeneralError when the exposure settings describe no shot).
    @discardableResult
    public func pressShutter(timeout: Duration = .seconds(30)) async -> ResponseCode {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            await waitForCapture()
            let code = startBodyShot()
            if code == .ok {
                shutterPresses += 1
                // A body shot counts for the fault schedule as a host's does (disappear-after=, every=).
                _ = faults.shotAccepted(shotCount)
                await waitForCapture()
                return code
            }
            guard code == .deviceBusy, clock.now < deadline else { return code }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Starts the shot of a press (see ``pressShutter(timeout:)``): the personality's own capture with the body's
    /// settings.
    private func startBodyShot() -> ResponseCode {
        let transaction = Self.bodyShotTransactionID
        switch model.personality {
        case .standard, .fujifilm:
            return initiateCapture(storage: 0, format: 0, transactionID: transaction).code
        case .sony:
            // The shot goes to camera memory, where a PC Remote body keeps it for the host (0xFFFFC001).
            return initiateCapture(storage: Self.memoryStorageID.rawValue, format: 0, transactionID: transaction).code
        case .nikon:
            return nikonCapture(
                toCard: captureTargetStorage == Self.cardStorageID, transactionID: transaction, byBody: true
            ).code
        case .canonEOS:
            return canonRelease(transactionID: transaction, byBody: true).code
        case .hostile:
            return .operationNotSupported
        }
    }

    /// Sets the image quality on the body, as its own dial or menu does (no host request): the quality property's
    /// current value, or for the Canon EOS personality its ImageFormat (with a PropValueChanged record in event mode).
    ///
    /// - Returns: whether the body offers `quality`.
    @discardableResult
    public func setBodyQuality(_ quality: ImageQuality) -> Bool {
        if model.personality == .canonEOS {
            canon.imageFormat = Self.canonImageFormat(quality)
            if canon.eventMode == CanonEOSCapture.eventModeOn { canon.queueSettings() }
            return true
        }
        guard let value = model.qualityValue(for: quality) else { return false }
        properties.setCurrent(model.qualityProperty, value)
        return true
    }

    /// The EOS ImageFormat the emulated body stores for `quality`.
    static func canonImageFormat(_ quality: ImageQuality) -> CanonEOSImageFormat {
        quality.includesRaw ? (quality.includesJPEG ? .rawPlusJPEG : .raw) : .jpegFine
    }
}
