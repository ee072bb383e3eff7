/// Bodies that must not be sent CloseSession: libgphoto2's `models[]` marks them `PTP_DONT_CLOSE_SESSION` ("2016
/// EOS cameras do not like that and report 0x2005 on all following opcodes", `library.c` `camera_exit`), and leaves
/// their session open; the next OpenSession is answered SessionAlreadyOpened, which counts as success.
public enum SessionEndPolicy {
    /// The USB product IDs (vendor 0x04A9, Canon) libgphoto2 marks `PTP_DONT_CLOSE_SESSION`, with the model names
    /// of its `models[]` entries, at libgphoto2 813de344 (`camlibs/ptp2/library.c`).
    public static let canonBodiesKeptOpen: [(usbProductID: UInt16, model: String)] = [
        (0x3281, "Canon EOS 5D Mark IV"), (0x3294, "Canon EOS 80D"), (0x3295, "Canon EOS 5DS"),
        (0x329D, "Canon PowerShot G7 X"), (0x329F, "Canon PowerShot SX530 HS"), (0x32AF, "Canon EOS 5DS R"),
        (0x32DA, "Canon EOS R"), (0x32E1, "Canon EOS 2000D"), (0x32E1, "Canon EOS 1500D"), (0x32E2, "Canon EOS RP"),
    ]

    /// Whether a body is left with its session open: one of ``canonBodiesKeptOpen`` by its USB IDs (as libgphoto2
    /// matches it) or, where there are none (PTP/IP), by DeviceInfo's Model — an extension of libgphoto2, which
    /// has no flags for network cameras.
    public static func keepsSessionOpen(_ identity: CameraIdentity) -> Bool {
        if let vendor = identity.usbVendorID, let product = identity.usbProductID {
            return vendor == .canon && canonBodiesKeptOpen.contains { $0.usbProductID == product }
        }
        let maker = identity.identification.vendor
        return maker == .canon && canonBodiesKeptOpen.contains { $0.model == identity.reportedDeviceInfo.model }
    }
}

extension PTPSession {
    /// Ends the session the way the body wants: CloseSession (0x1003), except for a body ``SessionEndPolicy``
    /// keeps open, which is left as it is. Commands call this where
    /// they used to call ``closeSession()``.
    public func endSession() async throws {
        if let identity, SessionEndPolicy.keepsSessionOpen(identity) {
            logger.debug("not sending CloseSession to \(identity.reportedDeviceInfo.model): it keeps its session open")
            return
        }
        try await closeSession()
    }
}
