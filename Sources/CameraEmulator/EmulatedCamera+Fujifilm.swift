import PTP

/// The Fujifilm personality's state: the changes its 0xD212 list reports next.
struct FujifilmState: Sendable {
    /// Changes since the host last read 0xD212, oldest first.
    var changes: [FujifilmPropertyChangeList.Change] = []
    /// InitSequence (0xDF01) and AppVersion (0xDF24), the two properties a host on Wi-Fi sets before anything else.
    /// Neither is in the X-T2's USB DeviceInfo, and no public capture shows a body's own AppVersion: it starts at
    /// 0x00020004, the remote-mode version Fujifilm's app writes (fuji-cam-wifi-tool `init_control_connection`)
    /// and petabyt/vcam's X-T20 reports (`FUJI_REMOTE_VERSION`).
    var initSequence: UInt16 = 0
    var appVersion: UInt32 = 0x0002_0004
}

extension EmulatedCamera {
    /// PriorityMode values: 1 the body decides, 2 the host (USB) does.
    static let fujifilmHostPriority: UInt16 = 2
    /// AFStatus values: 0 idle, 1 focusing, 2 focused, 3 failed.
    static let fujifilmFocused: UInt16 = 2

    /// Fujifilm's tether properties (libgphoto2 `library.c` `camera_prepare_capture` and `config.c`):
    /// PC mode 0xD38C (UINT16 0/1), PriorityMode 0xD207 (UINT16 1 body / 2 USB), CaptureControl 0xD208 (UINT16,
    /// the X-T2's enumeration from `config.c`: 0x104, 0x200, 0x4, 0x304, 0x500, 0xC; a body starts with 0x304),
    /// AFStatus 0xD209 (UINT16, read-only).
    static func addFujifilmProperties(to table: inout PropertyTable) {
        func add(_ code: DevicePropertyCode, _ values: [UInt16], current: UInt16, settable: Bool = true) {
            table.add(
                DevicePropDesc(
                    propertyCode: code, dataType: .uint16, getSet: settable ? 1 : 0,
                    factoryDefaultValue: .uint16(current), currentValue: .uint16(current),
                    form: .enumeration(values.map(PTPValue.uint16))))
        }
        add(DevicePropertyCode.Fujifilm.pcMode, [0, 1], current: 0)
        add(FujifilmCapture.priorityModeProperty, [1, fujifilmHostPriority], current: 1)
        add(FujifilmCapture.captureControlProperty, [0x0104, 0x0200, 0x0004, 0x0304, 0x0500, 0x000C], current: 0x0304)
        add(DevicePropertyCode.Fujifilm.afStatus, [0, 1, 2, 3], current: 0, settable: false)
    }

    /// The operations a Fujifilm body answers its own way:
    ///
    /// - InitiateCapture does what CaptureControl (0xD208) says: 0x0200 focuses (AFStatus becomes 2, nothing is
    ///   stored), 0x0304 shoots (the standard capture, ObjectAdded per object), 0x0500 opens the shutter in bulb
    ///   and 0x000C closes it (the shot is then stored as 0x0304's), 0x0004 cancels focus; others are
    ///   accepted and do nothing. While PriorityMode is not 2 (USB) the body refuses with AccessDenied: the
    ///   emulator, stricter than the body, makes a host that skips the priority hand-over fail here.
    /// - GetDevicePropValue of 0xD212 returns the change list (``PTP/FujifilmPropertyChangeList``) and empties it.
    /// - InitSequence (0xDF01) and AppVersion (0xDF24) are read and written as a body on Wi-Fi takes them (libgphoto2
    ///   `camera_init`: InitSequence 5, AppVersion read and written back, then InitiateOpenCapture), though the
    ///   X-T2's DeviceInfo does not list them.
    func answerFujifilmOperation(_ request: PTPRequest, dataOut: [UInt8]?) -> PTPResponderReply? {
        switch request.code {
        case .initiateCapture:
            if properties[FujifilmCapture.priorityModeProperty] != nil,
                properties.integer(FujifilmCapture.priorityModeProperty) != Int(Self.fujifilmHostPriority)
            {
                return PTPResponderReply(.accessDenied)
            }
            switch properties.integer(FujifilmCapture.captureControlProperty).map(UInt16.init(truncatingIfNeeded:)) {
            case FujifilmCapture.focusControl:
                properties.setCurrent(DevicePropertyCode.Fujifilm.afStatus, .uint16(Self.fujifilmFocused))
                return PTPResponderReply()
            case FujifilmCapture.shootControl, nil:
                return nil
            case FujifilmCapture.bulbStartControl:
                // Bulb: the shutter opens now and stays open until InitiateCapture with 0x000C (libgphoto2
                // `config.c` `_put_Fuji_Bulb`).
                return openBulb(.fujifilm, by: .initiateCapture, transactionID: request.transactionID)
            case FujifilmCapture.bulbEndControl:
                guard let open = bulb, open.opening == .fujifilm else { return PTPResponderReply(.generalError) }
                // The shot is stored and announced as a standard capture's (ObjectAdded, CaptureComplete).
                return closeBulb(by: .initiateCapture) { open in
                    initiateCapture(storage: 0, format: 0, transactionID: open.transactionID)
                }
            default:
                properties.setCurrent(DevicePropertyCode.Fujifilm.afStatus, .uint16(0))
                return PTPResponderReply()
            }
        case .getDevicePropValue where request.parameters.first == UInt32(DevicePropertyCode.Fujifilm.initSequence.rawValue):
            return .data(PTPValue.uint16(fujifilm.initSequence).ptpEncoded)
        case .getDevicePropValue where request.parameters.first == UInt32(DevicePropertyCode.Fujifilm.appVersion.rawValue):
            return .data(PTPValue.uint32(fujifilm.appVersion).ptpEncoded)
        case .setDevicePropValue where request.parameters.first == UInt32(DevicePropertyCode.Fujifilm.initSequence.rawValue):
            guard let dataOut, case .uint16(let value)? = try? PTPValue(ptpEncoded: dataOut, type: .uint16) else {
                return PTPResponderReply(.invalidDevicePropFormat)
            }
            fujifilm.initSequence = value
            return PTPResponderReply()
        case .setDevicePropValue where request.parameters.first == UInt32(DevicePropertyCode.Fujifilm.appVersion.rawValue):
            guard let dataOut, case .uint32(let value)? = try? PTPValue(ptpEncoded: dataOut, type: .uint32) else {
                return PTPResponderReply(.invalidDevicePropFormat)
            }
            fujifilm.appVersion = value
            return PTPResponderReply()
        case .getDevicePropValue where request.parameters.first == UInt32(FujifilmCapture.changesProperty.rawValue):
            let list = FujifilmPropertyChangeList(Array(fujifilm.changes.prefix(Int(UInt16.max))))
            fujifilm.changes.removeFirst(list.changes.count)
            return .dataset(list)
        default:
            return nil
        }
    }

    /// Where a tethered shot is stored: camera memory while MediaRecord (0xD20C) is 4, "off" (the real X-T2 in tether
    /// mode starts so and serves its shots from a "Still" RAM store, libgphoto2 `cameras/fuji-xt2.txt`), the card
    /// once the host sets 1, 2 or 3 (Fujifilm SDK `XAPI.h` `XSDK_MEDIAREC_RAWJPEG`, `_RAW`, `_JPEG`). Unlike the real
    /// body, which keeps a card copy besides the one it hands the host and lists only its RAM stores, the emulator
    /// stores the shot once, on the card it lists, so the host finds each file once.
    var fujifilmCaptureStorage: StorageID {
        properties.integer(FujifilmCapture.mediaRecordProperty) == Int(FujifilmCapture.mediaRecordOff)
            ? Self.memoryStorageID : Self.cardStorageID
    }

    /// A stored shot changes ObjectCount (0xD222) in the change list, once per object; focus is released.
    func fujifilmShotStored(_ stored: [ObjectHandle]) {
        let count = (try? store.handles(storage: StorageID.all.rawValue, format: 0, parent: 0))?.count ?? 0
        for _ in stored {
            fujifilm.changes.append(.init(property: DevicePropertyCode.Fujifilm.objectCount, value: UInt32(count)))
        }
        properties.setCurrent(DevicePropertyCode.Fujifilm.afStatus, .uint16(0))
    }
}
