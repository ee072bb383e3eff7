import PTP
import WireFormat

/// The Sony personality's state: how far the SDIO handshake has gone, the buttons held, and the shots waiting in
/// the camera's buffer for handle 0xFFFFC001.
struct SonyState: Sendable {
    /// The last SDIOConnect phase accepted (0 before the handshake).
    var phase: UInt32 = 0
    /// Whether GetSDIOExtDeviceInfo was read after phase 2 (phase 3 requires it).
    var extendedInfoRead = false
    /// The buttons (0xD2C1, 0xD2C2) and their last value (1 up, 2 down).
    var buttons: [DevicePropertyCode: UInt16] = [:]
    /// Shots waiting for the host, oldest first (handles in camera memory).
    var pending: [ObjectHandle] = []

    /// Whether the handshake is complete and the camera takes remote commands.
    var isConnected: Bool { phase == 3 }
}

extension EmulatedCamera {
    /// FocusFound (0xD213) before the half press has focused, and once it has (libgphoto2 `ptp.h`: "signaled
    /// (1->2) when focus was achieved"; `camera_sony_capture` ends its hold of the shutter on 2 or 3).
    static let sonyFocusIdle: UInt8 = 1
    static let sonyFocusAchieved: UInt8 = 2
    /// Sony's unnamed 0x9280 (host data) and 0x9281 (data to the host), listed by bodies outside PC Remote.
    static let sony9280 = OperationCode(rawValue: 0x9280)
    static let sony9281 = OperationCode(rawValue: 0x9281)
    /// FocusMode (0x500A) Manual: the half press does not focus.
    static let sonyManualFocus: UInt16 = 1

    /// The focus properties a Sony body reports among its own (libgphoto2 `camera_sony_capture` reads both, and
    /// fails the capture when FocusMode is missing): FocusMode 0x500A (UINT16; Sony's values as Rocc
    /// `FocusMode+SonyPTPPropValueConvertable.swift` lists them: 1 manual, 2 AF-S, 0x8004 AF-C, 0x8005 AF-A,
    /// 0x8006 DMF; sohtamei/CrCmd `PTPDef.h` `DPC_FOCUS_MODE` 0x500A), starting at AF-S; FocusFound 0xD213 (UINT8,
    /// read-only).
    static func addSonyProperties(to table: inout PropertyTable) {
        let modes: [UInt16] = [sonyManualFocus, 0x0002, 0x8004, 0x8005, 0x8006]
        table.add(
            DevicePropDesc(
                propertyCode: .focusMode, dataType: .uint16, getSet: 1, factoryDefaultValue: .uint16(0x0002),
                currentValue: .uint16(0x0002), form: .enumeration(modes.map(PTPValue.uint16))))
        table.add(
            DevicePropDesc(
                propertyCode: DevicePropertyCode.Sony.focusFound, dataType: .uint8, getSet: 0,
                factoryDefaultValue: .uint8(sonyFocusIdle), currentValue: .uint8(sonyFocusIdle)))
        // PriorityMode 0xD25A as a real ILCE-7SM3 describes it in GetAllDevicePropData (libgphoto2
        // `camlibs/ptp2/cameras/sony-a7sm3.txt` at 813de344: `5a d2 02 00 01 01 00 00 02 02 00 00 01 02 00 00 01`:
        // UINT8, settable, enabled, factory 0, current 0, enumeration 0, 1); libgphoto2 sets it to 1 with
        // SetControlDeviceA after the handshake. No bytes of an ILCE-7M3's own descriptor are at hand.
        table.add(
            DevicePropDesc(
                propertyCode: SonyControl.priorityModeProperty, dataType: .uint8, getSet: 1,
                factoryDefaultValue: .uint8(0), currentValue: .uint8(0), form: .enumeration([.uint8(0), .uint8(1)])))
        // StillImageStoreDestination as libgphoto2 `ptp.h` quotes a body's description: UINT16, enumeration 1, 17,
        // 16. The emulated body starts at 1 (the host only), as a body in PC Remote does by default.
        let destinations: [UInt16] = [SonyControl.storeOnHost, SonyControl.storeOnCardAndHost, 0x0010]
        table.add(
            DevicePropDesc(
                propertyCode: SonyControl.storeDestinationProperty, dataType: .uint16, getSet: 1,
                factoryDefaultValue: .uint16(SonyControl.storeOnHost), currentValue: .uint16(SonyControl.storeOnHost),
                form: .enumeration(destinations.map(PTPValue.uint16))))
    }

    /// The operations of a Sony body in PC Remote mode (libgphoto2 `ptp.c` `ptp_sony_sdioconnect`,
    /// `ptp_sony_get_vendorpropcodes`, `ptp_sony_getalldevicepropdesc`, `ptp_sony_setdevicecontrolvaluea/b`;
    /// `library.c` `camera_sony_capture`):
    ///
    /// - SDIOConnect (0x9201, parameters phase, 0, 0; 8 bytes data-in) in the order 1, 2, then phase 3 once
    ///   GetSDIOExtDeviceInfo has been read. Out of order answers InvalidParameter. Sony's other operations answer
    ///   AccessDenied before phase 3: the emulator is stricter than the body, so a host that skips the handshake
    ///   fails here first.
    /// - GetSDIOExtDeviceInfo (0x9202, parameter the host's version): ``PTP/SonyExtDeviceInfo`` with every property
    ///   and the two shutter controls.
    /// - GetAllDevicePropData (0x9209): every property as ``PTP/SonyDevicePropDesc``, with ShutterSpeed (0xD20D,
    ///   `EmulatedCamera+VendorShutter.swift`) and ObjectInMemory (0xD215) at 0x8000 + the shots waiting.
    /// - SetControlDeviceA (0x9205, parameter the property; data the value) sets a property, checked as
    ///   SetDevicePropValue is.
    /// - SetControlDeviceB (0x9207, parameter 0xD2C1 or 0xD2C2; data UINT16 2 down / 1 up): S1 down focuses at once
    ///   (FocusFound 0xD213 becomes 2 unless FocusMode is manual; S1 up makes it 1 again); S2 down releases the
    ///   shutter; the shot develops into camera memory and joins the buffer.
    /// - GetObjectInfo and GetObject of 0xFFFFC001 read the oldest waiting shot; GetObject takes it out of the
    ///   buffer.
    func answerSonyOperation(_ request: PTPRequest, dataOut: [UInt8]?) -> PTPResponderReply? {
        let p = request.parameters
        func parameter(_ index: Int) -> UInt32 { index < p.count ? p[index] : 0 }
        switch request.code {
        case Self.sony9280 where model.operationsSupported.contains(Self.sony9280):
            // A body outside PC Remote that lists 0x9280/0x9281 (a real ILCE-7M3: `SonyILCE7M3Facts`): libgphoto2
            // `camera_init` sends 0x9280 with 16 or 18 bytes, then reads 0x9281 and discards it (`ptp.c`
            // `ptp_sony_9280`, `ptp_sony_9281`). No real answers are at hand: the emulator takes the data and
            // answers OK, and answers 0x9281 with an empty data phase.
            guard dataOut != nil else { return PTPResponderReply(.invalidDataset) }
            return PTPResponderReply()
        case Self.sony9281 where model.operationsSupported.contains(Self.sony9281):
            return .data([])
        case OperationCode.Sony.sdioConnect:
            guard dataOut == nil else { return PTPResponderReply(.invalidDataset) }
            switch parameter(0) {
            case 1:
                // A new handshake (a new host) starts over; shots already in the buffer stay.
                sony = SonyState(phase: 1, pending: sony.pending)
            case 2 where sony.phase == 1: sony.phase = 2
            case 3 where sony.phase == 2 && sony.extendedInfoRead: sony.phase = 3
            default: return PTPResponderReply(.invalidParameter)
            }
            return .data([UInt8](repeating: 0, count: 8))
        case OperationCode.Sony.getSDIOExtDeviceInfo:
            guard dataOut == nil else { return PTPResponderReply(.invalidDataset) }
            guard sony.phase >= 2 else { return PTPResponderReply(.accessDenied) }
            sony.extendedInfoRead = true
            let version: UInt16 = parameter(0) >= SonyProtocolVersion.v300.rawValue ? 300 : 200
            return .dataset(
                SonyExtDeviceInfo(
                    version: version,
                    properties: properties.codes + [SonyShutterSpeed.property, SonyControl.pendingObjectsProperty],
                    controls: [SonyControl.halfPress, SonyControl.fullPress]))
        case OperationCode.Sony.getAllDevicePropData:
            guard dataOut == nil else { return PTPResponderReply(.invalidDataset) }
            guard sony.isConnected else { return PTPResponderReply(.accessDenied) }
            return .dataset(sonyPropertyDescriptions())
        case OperationCode.Sony.setControlDeviceA:
            guard let dataOut else { return PTPResponderReply(.invalidDataset) }
            guard sony.isConnected else { return PTPResponderReply(.accessDenied) }
            guard let code = UInt16(exactly: parameter(0)).map(DevicePropertyCode.init(rawValue:)) else {
                return PTPResponderReply(.devicePropNotSupported)
            }
            if code == SonyControl.pendingObjectsProperty { return PTPResponderReply(.accessDenied) }
            // ShutterSpeed 0xD20D (`EmulatedCamera+VendorShutter.swift`).
            if code == SonyShutterSpeed.property { return PTPResponderReply(setSonyShutterSpeed(dataOut)) }
            let (response, _) = properties.set(code, bytes: dataOut)
            return PTPResponderReply(response)
        case OperationCode.Sony.setControlDeviceB:
            guard let dataOut else { return PTPResponderReply(.invalidDataset) }
            guard sony.isConnected else { return PTPResponderReply(.accessDenied) }
            let control = DevicePropertyCode(rawValue: UInt16(truncatingIfNeeded: parameter(0)))
            guard parameter(0) <= 0xFFFF, control == SonyControl.halfPress || control == SonyControl.fullPress else {
                return PTPResponderReply(.devicePropNotSupported)
            }
            guard let value = try? PTPValue(ptpEncoded: dataOut, type: .uint16).integerValue,
                value == Int(SonyControl.pressed) || value == Int(SonyControl.released)
            else { return PTPResponderReply(.invalidDevicePropValue) }
            let wasDown = sony.buttons[control] == SonyControl.pressed
            if control == SonyControl.fullPress, value == Int(SonyControl.pressed), !wasDown, shutterIsBulb {
                // The shutter at bulb: open while S2 is held (libgphoto2 `config.c` `_put_Sony_Bulb`).
                let reply = openBulb(.sony, by: OperationCode.Sony.setControlDeviceB, transactionID: request.transactionID)
                guard reply.code == .ok else { return reply }
            } else if control == SonyControl.fullPress, value == Int(SonyControl.released), let open = bulb,
                open.opening == .sony
            {
                // S2 let go closes the bulb exposure; the shot goes to camera memory as a timed one does.
                let reply = closeBulb(by: OperationCode.Sony.setControlDeviceB) { open in
                    initiateCapture(
                        storage: Self.memoryStorageID.rawValue, format: 0, transactionID: open.transactionID)
                }
                guard reply.code == .ok else { return reply }
            } else if control == SonyControl.fullPress, value == Int(SonyControl.pressed), !wasDown {
                // S2 down releases the shutter; in PC Remote the shot goes to the host, kept in camera memory
                // until it is read at 0xFFFFC001.
                let reply = initiateCapture(
                    storage: Self.memoryStorageID.rawValue, format: 0, transactionID: request.transactionID)
                guard reply.code == .ok else { return reply }
            }
            if control == SonyControl.halfPress {
                let focuses =
                    value == Int(SonyControl.pressed)
                    && properties.integer(.focusMode) != Int(Self.sonyManualFocus)
                properties.setCurrent(
                    DevicePropertyCode.Sony.focusFound, .uint8(focuses ? Self.sonyFocusAchieved : Self.sonyFocusIdle))
            }
            sony.buttons[control] = UInt16(value)
            return PTPResponderReply()
        case .getObjectInfo where parameter(0) == SonyControl.capturedObjectHandle.rawValue:
            guard let handle = sony.pending.first, let object = store.object(handle) else {
                return PTPResponderReply(.invalidObjectHandle)
            }
            return .dataset(object.info)
        case .getObject where parameter(0) == SonyControl.capturedObjectHandle.rawValue:
            guard let handle = sony.pending.first, let object = store.object(handle) else {
                return PTPResponderReply(.invalidObjectHandle)
            }
            // Read once: the buffer lets go of the shot, and the next one (the JPEG of RAW+JPEG) moves up.
            sony.pending.removeFirst()
            _ = store.delete(handle.rawValue, format: 0)
            return .data(object.data)
        default:
            return nil
        }
    }

    /// Sony announces each stored object with its ObjectAdded (0xC201) for 0xFFFFC001 and no CaptureComplete; the
    /// objects join the buffer.
    func sonyShotEvents(_ stored: [ObjectHandle]) -> [PTPEvent] {
        sony.pending += stored
        // StillImageStoreDestination with the card bit (0x10): each object is also written to the card, where it
        // stays. (The emulated body hands every shot to the host as well, whatever the value.)
        if let destination = properties.integer(SonyControl.storeDestinationProperty), destination & 0x10 != 0,
            let folder = captureFolder()
        {
            for handle in stored {
                guard var object = store.object(handle) else { continue }
                object.info.storageID = Self.cardStorageID
                object.info.parentObject = folder
                _ = store.add(object.info, data: object.data, thumbnail: object.thumbnail)
            }
        }
        return stored.map { _ in
            PTPEvent(code: EventCode.Sony.objectAdded, parameters: [SonyControl.capturedObjectHandle.rawValue])
        }
    }

    /// Every property in Sony's description format, then ObjectInMemory.
    func sonyPropertyDescriptions() -> SonyAllDevicePropData {
        var descriptions: [SonyDevicePropDesc] = properties.codes.compactMap { code in
            guard let description = properties[code] else { return nil }
            return SonyDevicePropDesc(
                propertyCode: code, dataType: description.dataType, getSet: description.getSet, isEnabledFlag: 1,
                factoryDefaultValue: description.factoryDefaultValue, currentValue: description.currentValue,
                form: description.form)
        }
        descriptions.append(sonyShutterSpeedDescription())
        descriptions.append(
            SonyDevicePropDesc(
                propertyCode: SonyControl.pendingObjectsProperty, dataType: .uint16, getSet: 0, isEnabledFlag: 2,
                factoryDefaultValue: .uint16(0), currentValue: .uint16(sonyObjectInMemory)))
        return SonyAllDevicePropData(descriptions)
    }

    /// ObjectInMemory (0xD215) as a body reports it: 0 with nothing in memory, 1 while a shot develops, 0x8000 plus
    /// the number of shots waiting once they can be read. libgphoto2 `camera_sony_capture` ends its wait at 0x8000
    /// or more and reads 0xFFFFC001 ("This variable also turns to 1, but downloading then will crash the
    /// firmware"), so a body that reported 0x8000 with nothing waiting would send every capture to an empty handle.
    var sonyObjectInMemory: UInt16 {
        if !sony.pending.isEmpty { return SonyControl.pendingObjectsFlag + UInt16(clamping: sony.pending.count) }
        return captureTask == nil ? 0 : 1
    }
}
