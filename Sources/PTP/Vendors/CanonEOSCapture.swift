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
