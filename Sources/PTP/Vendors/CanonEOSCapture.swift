/// The facts of Canon EOS remote capture, as constants and the order of operations.
///
/// Sources: libgphoto2 `library.c` `camera_prepare_canon_eos_capture` (SetRemoteMode 1, SetEventMode 1, drain
/// GetEvent, CaptureDestination, PCHDDCapacity) and `camera_canon_eos_capture` (RemoteReleaseOn 3 then
/// RemoteReleaseOff 3 on bodies that list them, RemoteRelease otherwise; poll GetEvent until RequestObjectTransfer;
/// download; TransferComplete); `config.c` ("capturetarget": Internal RAM 4, Memory card 2); `ptp.h` codes.
public enum CanonEOSCapture {
    /// SetRemoteMode (0x9114) parameter that enables remote control.
    public static let remoteModeOn: UInt32 = 1
    /// SetEventMode (0x9115) parameter that makes the camera queue events for GetEvent.
    public static let eventModeOn: UInt32 = 1
    /// The capture-destination property, 0xD11C.
    public static let captureDestinationProperty = DevicePropertyCode.Canon.eosCaptureDestination
    /// CaptureDestination value "host" (the shot stays in RAM and is announced by RequestObjectTransfer): 4.
    public static let destinationHost: UInt32 = 4
    /// CaptureDestination value "memory card": 2.
    public static let destinationCard: UInt32 = 2
    /// RemoteReleaseOn/Off (0x9128/0x9129) first parameter for a full press that includes the half press: 3.
    public static let fullPress: UInt32 = 3
    /// RemoteReleaseOn second parameter: 0 focuses first, 1 releases without autofocus.
    public static func releaseParameters(autofocus: Bool) -> [UInt32] { [fullPress, autofocus ? 0 : 1] }
    /// PCHDDCapacity (0x911A) parameters telling the camera the host has room: free clusters, cluster size in
    /// bytes, and 1. The EOS body refuses to release with destination "host" until it has been told.
    public static let pcHDDCapacityParameters: [UInt32] = [0x0FFF_FFFF, 0x1000, 1]

    /// SetRemoteMode (0x9114) parameter for EOS M bodies and PowerShots with EOS firmware: 0x15.
    public static let remoteModeEOSM: UInt32 = 0x15

    /// Whether libgphoto2 treats the body as an EOS M (`ptp-private.h` `is_canon_eos_m`): it lists SetRemoteMode,
    /// and its model starts with "Canon EOS M", or with "Canon PowerShot SX", "Canon PowerShot G" or "Canon Digital
    /// IXUS" and it lists RemoteReleaseOn (newer PowerShots with EOS M firmware, libgphoto2 issue 316). rawcap's
    /// family decides the vendor (libgphoto2 checks VendorExtensionID Canon after its own MTP-to-Canon fix-up).
    public static func isEOSM(_ info: DeviceInfo) -> Bool {
        guard info.supports(OperationCode.Canon.setRemoteMode) else { return false }
        if info.model.hasPrefix("Canon EOS M") { return true }
        let powerShots = ["Canon PowerShot SX", "Canon PowerShot G", "Canon Digital IXUS"]
        return powerShots.contains { info.model.hasPrefix($0) } && info.supports(OperationCode.Canon.remoteReleaseOn)
    }

    /// The SetRemoteMode (0x9114) parameter libgphoto2 sends while preparing capture (`config.c`
    /// `camera_prepare_canon_eos_capture`): 1 for EOS bodies; for EOS M-class bodies (``isEOSM(_:)``) 0x15, except
    /// "Canon PowerShot SX540 HS" and "Canon PowerShot G5 X" 0x11 and "Canon EOS M6 Mark II" 1; `nil` for "Canon
    /// PowerShot SX600 HS", which libgphoto2 leaves out of remote mode there.
    public static func remoteMode(for info: DeviceInfo) -> UInt32? {
        guard isEOSM(info) else { return remoteModeOn }
        switch info.model {
        case "Canon PowerShot SX600 HS": return nil
        case "Canon PowerShot SX540 HS", "Canon PowerShot G5 X": return 0x11
        case "Canon EOS M6 Mark II": return remoteModeOn
        default: return remoteModeEOSM
        }
    }

    /// Why RemoteRelease (0x910F) did not release, from its response parameter 1 (libgphoto2 `library.c`
    /// `camera_trigger_canon_eos_capture`): `nil` for 0 (released) or no parameter.
    public enum ReleaseRefusal: Hashable, Sendable, CustomStringConvertible {
        /// 1: the body could not focus.
        case noFocus
        /// 3: the mirror is locked up.
        case mirrorUp
        /// 7: no room on the card.
        case noMemory
        /// 8: the card is read-only.
        case readOnly
        /// A PTP response code (0x2xxx) in the parameter.
        case response(ResponseCode)
        /// Any other value.
        case other(UInt32)

        /// The refusal that `result` (RemoteRelease's response parameter 1) reports, or `nil` when it released.
        public init?(result: UInt32?) {
            guard let result, result != 0 else { return nil }
            switch result {
            case 1: self = .noFocus
            case 3: self = .mirrorUp
            case 7: self = .noMemory
            case 8: self = .readOnly
            case let code where code & 0x7000 == 0x2000: self = .response(ResponseCode(rawValue: UInt16(truncatingIfNeeded: code)))
            default: self = .other(result)
            }
        }

        /// What the body said, for people.
        public var description: String {
            switch self {
            case .noFocus: "the camera could not focus (RemoteRelease result 1)"
            case .mirrorUp: "the mirror is locked up (RemoteRelease result 3)"
            case .noMemory: "there is no room on the camera's card (RemoteRelease result 7)"
            case .readOnly: "the camera's card is read-only (RemoteRelease result 8)"
            case .response(let code): "the camera answered \(code) in RemoteRelease's result"
            case .other(let value): "the camera did not release (RemoteRelease result \(value))"
            }
        }
    }

    /// One operation of the capture, in order.
    public enum Step: Hashable, Sendable {
        /// Run `operation` with `parameters` (no data phase).
        case operation(OperationCode, parameters: [UInt32])
        /// SetDevicePropValueEx (0x9110) with ``CanonEOSPropertyValue``.
        case setProperty(CanonEOSPropertyValue)
        /// Poll GetEvent (0x9116) until it returns only the terminator (the initial state dump, or a settle).
        case drainEvents
    }

    /// The once-per-session preparation for capture to the host.
    public static let preparation: [Step] = [
        .operation(OperationCode.Canon.setRemoteMode, parameters: [remoteModeOn]),
        .operation(OperationCode.Canon.setEventMode, parameters: [eventModeOn]),
        .drainEvents,
        .setProperty(CanonEOSPropertyValue(property: captureDestinationProperty, uint32: destinationHost)),
        .operation(OperationCode.Canon.pcHDDCapacity, parameters: pcHDDCapacityParameters),
    ]

    /// The release for a camera with DeviceInfo `info`: RemoteReleaseOn/Off when listed, else RemoteRelease.
    public static func release(for info: DeviceInfo, autofocus: Bool) -> [Step] {
        if info.supports(OperationCode.Canon.remoteReleaseOn) && info.supports(OperationCode.Canon.remoteReleaseOff) {
            return [
                .operation(OperationCode.Canon.remoteReleaseOn, parameters: releaseParameters(autofocus: autofocus)),
                .operation(OperationCode.Canon.remoteReleaseOff, parameters: [fullPress]),
            ]
        }
        return [.operation(OperationCode.Canon.remoteRelease, parameters: [])]
    }
}
