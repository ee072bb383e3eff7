/// The facts of Sony remote capture: the buttons pressed through SetControlDeviceB, the pending-objects property,
/// and the handle the shot is read from.
///
/// Sources: libgphoto2 `ptp.h` (`PTP_DPC_SONY_AutoFocus` 0xD2C1 "half-press", `PTP_DPC_SONY_Capture` 0xD2C2
/// "full-press", `PTP_DPC_SONY_ObjectInMemory` 0xD215 "used to signal when to retrieve new object"); `ptp.c`
/// `ptp_sony_setdevicecontrolvalueb` (SetControlDeviceB 0x9207: one parameter, the control's code; data-out the
/// value packed as its data type); `library.c` `camera_sony_capture` (press with value 2, release with 1, as
/// UINT16; then wait until ObjectInMemory exceeds 0x8000 and read the shot at 0xFFFFC001).
///
/// Checked against other public sources: Sony's own Camera Remote SDK names (sohtamei/CrCmd `PTPDef.h`:
/// `PTP_OC_SDIOControlDevice` 0x9207, `DPC_S1_BUTTON` 0xD2C1, `DPC_S2_BUTTON` 0xD2C2,
/// `DPC_SHOOTING_FILE_INFOMATION` 0xD215) and sequoia-ptpy's Sony tables (`SONY_BUTTON`: UINT16, Down 0x0002,
/// Up 0x0001).
public enum SonyControl {
    /// The shot in the camera's buffer: GetObjectInfo and GetObject with this handle read the oldest pending
    /// object. Also the parameter of the Sony ObjectAdded event (0xC201).
    public static let capturedObjectHandle = ObjectHandle(rawValue: 0xFFFF_C001)
    /// The live-view frame's handle (GetObject returns a JPEG with a header).
    public static let liveViewHandle = ObjectHandle(rawValue: 0xFFFF_C002)

    /// The half-press (focus) button, 0xD2C1.
    public static let halfPress = DevicePropertyCode.Sony.autoFocus
    /// The full-press (release) button, 0xD2C2.
    public static let fullPress = DevicePropertyCode.Sony.capture
    /// The value that presses a button, sent as UINT16.
    public static let pressed: UInt16 = 2
    /// The value that releases a button, sent as UINT16.
    public static let released: UInt16 = 1

    /// PriorityMode, 0xD25A (INT8; libgphoto2 `ptp.h` `PTP_DPC_SONY_PriorityMode`), set through SetControlDeviceA.
    public static let priorityModeProperty = DevicePropertyCode(rawValue: 0xD25A)
    /// PriorityMode value "application" (the host): 1.
    public static let priorityApplication: Int8 = 1
    /// FocusMode (0x500A) value Manual, for which libgphoto2 does not hold the shutter for focus: 1.
    public static let manualFocus: UInt16 = 1
    /// FocusFound (0xD213) values that end the hold of the shutter: 2 focused, 3 (RX0) as libgphoto2 reads it.
    public static let focusFoundValues: Set<UInt8> = [2, 3]
    /// The longest hold of S1 and S2 while the body focuses (libgphoto2 `camera_sony_capture`: "hold it for at most
    /// 1 second").
    public static let focusHold = Duration.seconds(1)

    /// StillImageStoreDestination, 0xD222 (UINT16): where a shot goes (libgphoto2 `config.c` `sony_capturetarget`:
    /// "sdram" 0x0001, "card" 0x0010, "card+sdram" 0x0011; `ptp.h`: "Enumeration [1,17,16] value: 17").
    public static let storeDestinationProperty = DevicePropertyCode.Sony.stillImageStoreDestination
    /// StillImageStoreDestination value that stores each shot on the card and hands it to the host: 0x0011.
    public static let storeOnCardAndHost: UInt16 = 0x0011
    /// StillImageStoreDestination value for the host only: 0x0001.
    public static let storeOnHost: UInt16 = 0x0001
    /// The pending-objects property, 0xD215 (UINT16).
    public static let pendingObjectsProperty = DevicePropertyCode.Sony.objectInMemory
    /// ObjectInMemory's threshold: values above 0x8000 mean shots wait in the buffer.
    public static let pendingObjectsFlag: UInt16 = 0x8000

    /// The number of shots waiting, from ObjectInMemory's value: `value − 0x8000` above the threshold, else 0.
    public static func pendingObjectCount(_ objectInMemory: UInt16) -> Int {
        objectInMemory > pendingObjectsFlag ? Int(objectInMemory - pendingObjectsFlag) : 0
    }

    /// One SetControlDeviceB (0x9207) call: a control and its UINT16 value.
    public struct Press: Hashable, Sendable {
        /// The control (button) code, SetControlDeviceB's parameter.
        public var control: DevicePropertyCode
        /// The value sent as the data phase (``pressed`` or ``released``).
        public var value: UInt16

        /// Creates a press.
        public init(control: DevicePropertyCode, value: UInt16) {
            self.control = control
            self.value = value
        }
    }

    /// The SetControlDeviceB (0x9207) calls of one shot, in order: half press, full press, release full, release
    /// half (`camera_sony_capture`).
    public static let shutterSequence: [Press] = [
        Press(control: halfPress, value: pressed), Press(control: fullPress, value: pressed),
        Press(control: fullPress, value: released), Press(control: halfPress, value: released),
    ]
}
