/// The facts of Fujifilm USB tether capture: who controls the camera, the CaptureControl property that selects
/// focus or release before InitiateCapture, and the property whose value lists changes.
///
/// Sources: libgphoto2 `ptp.h` (`PTP_DPC_FUJI_PriorityMode` 0xD207, 0xD208 unnamed, `PTP_DPC_FUJI_CurrentState`
/// 0xD212); `library.c` `camera_fuji_capture` (set 0xD208 to 0x0200 and InitiateCapture to focus, then 0xD208 to
/// 0x0304 and InitiateCapture to release); camlib/fudge `fujiptp.h` (`PTP_PC_FUJI_EventsList` 0xD212, read with
/// GetDevicePropValue; see ``FujifilmPropertyChangeList``).
///
/// Checked in libgphoto2 `config.c` (the comment above `fuji_action`: "0x304 is for regular capture
/// SDK_ShootS2toS0 (default)", "0x200 seems for autofocus (s1?)", "0x4 SDK_CancelS1"; `_put_Fuji_AFDrive` polls
/// `PTP_DPC_FUJI_AFStatus` 0xD209: 2 focused, 3 failed) and `library.c` `camera_prepare_capture` (Fujifilm: when
/// the body has PriorityMode, set 0xD38C to 1 "PC Mode" and 0xD207 to 2 "USB control", both UINT16, errors only
/// logged).
public enum FujifilmCapture {
    /// The property that selects what InitiateCapture (0x100E) does next: 0xD208.
    public static let captureControlProperty = DevicePropertyCode.Fujifilm.captureControl
    /// CaptureControl value that makes the next InitiateCapture focus: 0x0200.
    public static let focusControl: UInt16 = 0x0200
    /// CaptureControl value that makes the next InitiateCapture release the shutter: 0x0304.
    public static let shootControl: UInt16 = 0x0304
    /// CaptureControl value that cancels the half press after a failed focus ("0x4 SDK_CancelS1"): 0x0004.
    public static let cancelFocusControl: UInt16 = 0x0004
    /// CaptureControl value that makes the next InitiateCapture open the shutter in bulb: 0x0500 (libgphoto2
    /// `config.c` `_put_Fuji_Bulb`, "0x500 start bulb? … SDK_StartBulb").
    public static let bulbStartControl: UInt16 = 0x0500
    /// CaptureControl value that makes the next InitiateCapture close a bulb exposure: 0x000C (`_put_Fuji_Bulb`,
    /// "SDK_EndBulb").
    public static let bulbEndControl: UInt16 = 0x000C
    /// AFStatus (0xD209) value of a failed focus: 3.
    public static let focusFailed: UInt16 = 3
    /// PriorityMode value that gives the host control ("USB control"): 2.
    public static let priorityHost: UInt16 = 2
    /// PriorityMode value that gives the body its controls back: 1 (libgphoto2 `camera_unprepare_capture`).
    public static let priorityCamera: UInt16 = 1
    /// The property that says whether the host or the camera body has control: 0xD207.
    public static let priorityModeProperty = DevicePropertyCode.Fujifilm.priorityMode
    /// The property whose value lists changed properties (UINT16 count, then UINT16 code + UINT32 value): 0xD212.
    public static let changesProperty = DevicePropertyCode.Fujifilm.currentState
    /// The property that says whether the body also records its tethered shots on its card: MediaRecord, 0xD20C
    /// (libgphoto2 `ptp.h` `PTP_DPC_FUJI_MediaRecord`, "from capmediarecord"; a real X-T2 describes it as UINT16,
    /// read-write, enumeration 1 2 3 4, current 4, in libgphoto2's `cameras/fuji-xt2.txt`).
    public static let mediaRecordProperty = DevicePropertyCode.Fujifilm.mediaRecord
    /// MediaRecord value that records RAW and JPEG on the card (Fujifilm X/GFX SDK `XAPI.h`
    /// `XSDK_MEDIAREC_RAWJPEG` 0x0001; 0x0002 RAW, 0x0003 JPEG): what the SDK's samples set to turn card recording on.
    public static let mediaRecordOnCard: UInt16 = 0x0001
    /// MediaRecord value that records nothing on the card (`XSDK_MEDIAREC_OFF` 0x0004): the shot only reaches the
    /// host.
    public static let mediaRecordOff: UInt16 = 0x0004

    /// One property write followed by InitiateCapture.
    public struct Step: Hashable, Sendable {
        /// The CaptureControl value written (as UINT16) with SetDevicePropValue before InitiateCapture.
        public var captureControl: UInt16
    }

    /// The capture: focus (when asked), then release, each a CaptureControl write and an InitiateCapture.
    public static func sequence(autofocus: Bool) -> [Step] {
        (autofocus ? [Step(captureControl: focusControl)] : []) + [Step(captureControl: shootControl)]
    }
}
