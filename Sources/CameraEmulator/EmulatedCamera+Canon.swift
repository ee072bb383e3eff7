import PTP
import RawImage
import WireFormat

/// The Canon EOS personality's state: modes, the EOS properties, queued GetEvent records, objects held for the host.
struct CanonEmulatorState: Sendable {
    /// An object held in the camera's memory for the host (capture destination 4).
    struct HeldObject: Sendable {
        var info: ObjectInfo
        var data: [UInt8]
        var thumbnail: [UInt8]?
    }

    /// The first handle of objects held for the host; outside the card's handles.
    static let firstHeldHandle: UInt32 = 0x9000_0001
    /// Most records kept for GetEvent; a host that never polls must not grow the queue without bound.
    static let maxQueuedRecords = 1024
    /// Most shots held for the host before releases are refused (the body's buffer).
    static let maxHeldObjects = 16
    /// The ImageFormat values the body offers, in its AvailListChanged order.
    static let imageFormats: [CanonEOSImageFormat] = [.raw, .rawPlusJPEG, .jpegFine]

    var remoteMode: UInt32 = 0
    var eventMode: UInt32 = 0
    var imageFormat = CanonEOSImageFormat.raw
    var destination = CanonEOSCapture.destinationCard
    var records: [CanonEOSEvent] = []
    var held: [UInt32: HeldObject] = [:]
    var nextHeldHandle = firstHeldHandle

    mutating func queue(_ record: CanonEOSEvent) {
        if records.count >= Self.maxQueuedRecords { records.removeFirst() }
        records.append(record)
    }

    /// The records of the current settings, as a body sends them after SetEventMode(1) and after each change.
    mutating func queueSettings() {
        queue(.propertyChanged(CanonEOSPropertyChange(property: CanonEOSImageFormat.property, value: imageFormat.ptpEncoded)))
        let list = Self.imageFormats.flatMap(\.ptpEncoded)
        queue(
            .availableListChanged(
                CanonEOSAvailableList(
                    property: CanonEOSImageFormat.property, listType: CanonEOSAvailableList.fourByteSlots,
                    count: UInt32(Self.imageFormats.count), values: list)))
        var value = WireWriter(byteOrder: .little)
        value.write(destination)
        queue(.propertyChanged(CanonEOSPropertyChange(property: CanonEOSCapture.captureDestinationProperty, value: value.bytes)))
        // AvailableShots (0xD11B): libgphoto2 checks it before each release (`camera_trigger_canon_eos_capture`).
        var shots = WireWriter(byteOrder: .little)
        shots.write(UInt32(999))
        queue(.propertyChanged(CanonEOSPropertyChange(property: DevicePropertyCode.Canon.eosAvailableShots, value: shots.bytes)))
    }
}

extension EmulatedCamera {
    /// The EOS operations, and the standard object operations on held handles.
    ///
    /// - SetRemoteMode (0x9114), SetEventMode (0x9115): remember the mode; event mode 1 queues the settings.
    /// - GetEvent (0x9116): the queued records (``CanonEOSEventList``) and the terminator.
    /// - SetDevicePropValueEx (0x9110): ImageFormat (one of the offered structures), CaptureDestination (2 or 4) or
    ///   Tv (0xD102, `EmulatedCamera+VendorShutter.swift`); the change comes back as a PropValueChanged record.
    /// - PCHDDCapacity (0x911A), KeepDeviceOn (0x911D), SetUILock/ResetUILock (0x911B/0x911C): OK.
    /// - RemoteReleaseOn (0x9128) with 2 or 3 (a full press), RemoteRelease (0x910F): a shot, DeviceBusy while one
    ///   develops or before SetRemoteMode; RemoteReleaseOn with 1 (half press) and RemoteReleaseOff (0x9129): OK.
    /// - TransferComplete (0x9117): frees a held object.
    /// - EOS GetStorageIDs (0x9101) and EOS GetStorageInfo (0x9102): the card, as GetStorageIDs/GetStorageInfo
    ///   answer it.
    /// - GetDeviceInfoEx (0x9108): the EOS events and properties the personality reports in GetEvent records
    ///   (``canonDeviceInfoEx``). libgphoto2 asks for it before each capture preparation and fails the capture when
    ///   it is refused (`config.c` `camera_prepare_canon_eos_capture`, `C_PTP (ptp_canon_eos_getdeviceinfo …)`).
    /// - GetObjectInfoEx (0x9109): the objects in a folder (or a store's root) as EOS folder entries
    ///   (``canonFolderEntries(storage:parent:)``), libgphoto2's "EOS fast directory" listing.
    /// - AfCancel (0x9160): OK (libgphoto2 sends it after a capture and logs a refusal).
    /// - SetRequestOLCInfoGroup (0x913D): OK (libgphoto2 sends it after SetEventMode when listed, failing on an
    ///   error); RequestDevicePropValue (0x9127): OK, and the property's record comes with the next GetEvent when the
    ///   personality reports it.
    /// - GetDevicePropDesc/Value and SetDevicePropValue of the EOS properties: DevicePropNotSupported (EOS bodies
    ///   answer them only through GetEvent and SetDevicePropValueEx).
    func answerCanon(_ request: PTPRequest, dataOut: [UInt8]?) -> PTPResponderReply? {
        let p = request.parameters
        func parameter(_ index: Int) -> UInt32 { index < p.count ? p[index] : 0 }
        let takesData = request.code == OperationCode.Canon.setDevicePropValueEx || request.code == .setDevicePropValue
        if !takesData, dataOut != nil, Self.canonOperations.contains(request.code) {
            return PTPResponderReply(.invalidDataset)
        }
        switch request.code {
        case OperationCode.Canon.setRemoteMode:
            canon.remoteMode = parameter(0)
            return PTPResponderReply()
        case OperationCode.Canon.setEventMode:
            canon.eventMode = parameter(0)
            if canon.eventMode == CanonEOSCapture.eventModeOn {
                canon.queueSettings()
                queueCanonShutterSpeed()
            }
            return PTPResponderReply()
        case OperationCode.Canon.getEvent:
            let list = CanonEOSEventList(canon.records)
            canon.records.removeAll()
            return .dataset(list)
        case OperationCode.Canon.setDevicePropValueEx:
            guard let bytes = dataOut else { return PTPResponderReply(.invalidDataset) }
            return setCanonProperty(bytes)
        case OperationCode.Canon.pcHDDCapacity, OperationCode.Canon.keepDeviceOn, OperationCode.Canon.setUILock,
            OperationCode.Canon.resetUILock, OperationCode.Canon.setRequestOLCInfoGroup, OperationCode.Canon.afCancel:
            return PTPResponderReply()
        case OperationCode.Canon.getObjectInfoEx:
            return canonFolderEntries(storage: parameter(0), parent: parameter(1))
        case OperationCode.Canon.requestDevicePropValue:
            if Self.canonReportedProperties.contains(DevicePropertyCode(rawValue: UInt16(truncatingIfNeeded: parameter(0)))),
                canon.eventMode == CanonEOSCapture.eventModeOn
            {
                canon.queueSettings()
                queueCanonShutterSpeed()
            }
            return PTPResponderReply()
        case OperationCode.Canon.getDeviceInfoEx:
            return .data(Self.canonDeviceInfoEx)
        case OperationCode.Canon.remoteReleaseOff:
            // Releasing the full press ends a bulb exposure (libgphoto2 `config.c` "eosremoterelease" Release Full
            // sends RemoteReleaseOff 2); otherwise lifting a button changes nothing.
            guard parameter(0) & 2 != 0, let open = bulb, open.opening == .canonEOS else { return PTPResponderReply() }
            return closeBulb(by: OperationCode.Canon.remoteReleaseOff) { open in
                canonRelease(transactionID: open.transactionID)
            }
        case OperationCode.Canon.remoteReleaseOn:
            // 1 half press, 2 full press (after a half press), 3 both at once (libgphoto2 `config.c` "eosremoterelease":
            // "Press Full" sends 2 after 1, "Press Full MF" sends 3): the shutter fires on 2 and 3.
            guard parameter(0) & 2 != 0 else { return PTPResponderReply() }
            return canonRelease(transactionID: request.transactionID)
        case OperationCode.Canon.remoteRelease:
            return canonRelease(transactionID: request.transactionID, operation: request.code)
        case OperationCode.Canon.eosGetStorageIDs:
            // EOS GetStorageIDs answers what GetStorageIDs does (a PTP array of UINT32, `ptp.c`
            // `ptp_canon_eos_getstorageids`), EOS GetStorageInfo a StorageInfo dataset (the layout of the one dump
            // libgphoto2 keeps, `ptp.h` above `PTP_OC_CANON_EOS_GetStorageInfo`).
            return answerObjectOperation(.getStorageIDs, parameter)
        case OperationCode.Canon.eosGetStorageInfo:
            return answerObjectOperation(.getStorageInfo, parameter)
        case OperationCode.Canon.transferComplete:
            guard canon.held.removeValue(forKey: parameter(0)) != nil else {
                return PTPResponderReply(.invalidObjectHandle)
            }
            return PTPResponderReply()
        case .getDevicePropDesc, .getDevicePropValue, .setDevicePropValue:
            let code = UInt16(truncatingIfNeeded: parameter(0))
            guard code == CanonEOSImageFormat.property.rawValue
                || code == CanonEOSCapture.captureDestinationProperty.rawValue
            else { return nil }
            return PTPResponderReply(.devicePropNotSupported)
        case .getObjectInfo, .getObject, .getPartialObject, .getThumb:
            guard let object = canon.held[parameter(0)] else { return nil }
            switch request.code {
            case .getObjectInfo:
                return .dataset(object.info)
            case .getObject:
                return .data(object.data)
            case .getThumb:
                guard let thumbnail = object.thumbnail else { return PTPResponderReply(.noThumbnailPresent) }
                return .data(thumbnail)
            default:
                let size = UInt64(object.data.count)
                let offset = UInt64(parameter(1))
                guard offset <= size else { return PTPResponderReply(.invalidParameter) }
                let count = min(UInt64(parameter(2)), size - offset)
                return PTPResponderReply(
                    parameters: [UInt32(count)],
                    dataIn: SliceDataSource(base: PTPBytesSource(object.data), offset: offset, byteCount: count))
            }
        default:
            return nil
        }
    }

    /// The EOS events the personality sends in GetEvent records.
    static let canonReportedEvents: [EventCode] = [
        EventCode.Canon.objectAddedEx, EventCode.Canon.requestObjectTransfer, EventCode.Canon.propValueChanged,
        EventCode.Canon.availListChanged,
    ]
    /// The EOS properties the personality reports in GetEvent records: ImageFormat, CaptureDestination,
    /// AvailableShots, Tv, EVFOutputDevice and EVFMode.
    static let canonReportedProperties: [DevicePropertyCode] = [
        CanonEOSImageFormat.property, CanonEOSCapture.captureDestinationProperty,
        DevicePropertyCode.Canon.eosAvailableShots, CanonEOSShutterSpeed.property, CanonEOSLiveView.outputDeviceProperty,
        CanonEOSLiveView.modeProperty,
    ]

    /// GetDeviceInfoEx's data as libgphoto2 `ptp-pack.c` `ptp_unpack_EOS_DI` reads it: a UINT32 byte count of the
    /// dataset, then three arrays of UINT32 (a count, then the elements): events, properties, and a third list
    /// libgphoto2 calls "unk", whose meaning is not known: the emulator sends the EOS R's, 0, 1, 2, 4, 8
    /// (`cameras/canon-eos-r.txt`), as libgphoto2 2.5.x before the array rework refuses the answer when any of the
    /// three is empty (the installed gphoto2's `ptp_unpack_EOS_DI` did: "PTP I/O Error"). No real 5D Mark IV answer is
    /// in any source read; the first two lists are what the personality reports (``canonReportedEvents``,
    /// ``canonReportedProperties``).
    static let canonDeviceInfoEx: [UInt8] = {
        var body = WireWriter(byteOrder: .little)
        func array(_ values: [UInt32]) {
            body.write(UInt32(values.count))
            for value in values { body.write(value) }
        }
        array(canonReportedEvents.map { UInt32($0.rawValue) })
        array(canonReportedProperties.map { UInt32($0.rawValue) })
        array([0, 1, 2, 4, 8])
        var writer = WireWriter(byteOrder: .little)
        writer.write(UInt32(4 + body.bytes.count))
        writer.write(bytes: body.bytes)
        return writer.bytes
    }()

    /// GetObjectInfoEx's data as libgphoto2 `ptp.c` `ptp_canon_eos_getobjectinfoex` and `ptp-pack.c`
    /// `ptp_unpack_Canon_EOS_FE` read it: a UINT32 entry count, then per object a UINT32 entry size (56) and 52 bytes
    /// with the handle at 0, the storage ID at 4, the format (UINT16) at 8, the flags at 16 (bit 0 read-only), the
    /// size at 20, the file name (12 characters and a NUL) at 32 and the time (seconds since 1970) at 48. `parent`
    /// 0xFFFFFFFF is the store's root. No real 5D Mark IV answer is in any source read.
    private func canonFolderEntries(storage: UInt32, parent: UInt32) -> PTPResponderReply {
        let handles: [ObjectHandle]
        do {
            handles = try store.handles(storage: storage, format: 0, parent: parent == 0 ? 0xFFFF_FFFF : parent)
        } catch {
            return PTPResponderReply(error.code)
        }
        var writer = WireWriter(byteOrder: .little)
        writer.write(UInt32(handles.count))
        for handle in handles {
            guard let object = store.object(handle) else { continue }
            var entry = [UInt8](repeating: 0, count: 52)
            func put(_ value: UInt32, at offset: Int) {
                for index in 0..<4 { entry[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
            }
            put(handle.rawValue, at: 0)
            put(object.info.storageID.rawValue, at: 4)
            put(UInt32(object.info.objectFormat.rawValue), at: 8)
            put(object.info.objectCompressedSize, at: 20)
            for (index, byte) in object.info.filename.utf8.prefix(12).enumerated() { entry[32 + index] = byte }
            let time = (try? PTPDateTime(ptpString: object.info.captureDate))?.secondsSince1970() ?? 0
            put(UInt32(clamping: time), at: 48)
            writer.write(UInt32(4 + entry.count))
            writer.write(bytes: entry)
        }
        return .data(writer.bytes)
    }

    private static let canonOperations: Set<OperationCode> = [
        OperationCode.Canon.setRemoteMode, OperationCode.Canon.setEventMode, OperationCode.Canon.getEvent,
        OperationCode.Canon.pcHDDCapacity, OperationCode.Canon.keepDeviceOn, OperationCode.Canon.remoteReleaseOn,
        OperationCode.Canon.remoteReleaseOff, OperationCode.Canon.remoteRelease, OperationCode.Canon.transferComplete,
        OperationCode.Canon.setUILock, OperationCode.Canon.resetUILock, OperationCode.Canon.eosGetStorageIDs,
        OperationCode.Canon.eosGetStorageInfo, OperationCode.Canon.getDeviceInfoEx,
        OperationCode.Canon.setRequestOLCInfoGroup, OperationCode.Canon.requestDevicePropValue,
        OperationCode.Canon.getObjectInfoEx, OperationCode.Canon.afCancel,
    ]

    private func setCanonProperty(_ bytes: [UInt8]) -> PTPResponderReply {
        guard let value = try? CanonEOSPropertyValue(ptpEncoded: bytes) else { return PTPResponderReply(.invalidDataset) }
        switch value.propertyCode {
        case UInt32(CanonEOSImageFormat.property.rawValue):
            guard let format = try? CanonEOSImageFormat(ptpEncoded: value.value),
                CanonEmulatorState.imageFormats.contains(format)
            else { return PTPResponderReply(.invalidDevicePropValue) }
            canon.imageFormat = format
        case UInt32(CanonEOSCapture.captureDestinationProperty.rawValue):
            guard value.value.count == 4 else { return PTPResponderReply(.invalidDevicePropFormat) }
            let destination =
                UInt32(value.value[0]) | UInt32(value.value[1]) << 8 | UInt32(value.value[2]) << 16
                | UInt32(value.value[3]) << 24
            guard destination == CanonEOSCapture.destinationCard || destination == CanonEOSCapture.destinationHost else {
                return PTPResponderReply(.invalidDevicePropValue)
            }
            canon.destination = destination
        case UInt32(CanonEOSShutterSpeed.property.rawValue):
            // Tv (`EmulatedCamera+VendorShutter.swift`).
            let response = setCanonShutterSpeed(value.value)
            guard response == .ok else { return PTPResponderReply(response) }
        default:
            return PTPResponderReply(.devicePropNotSupported)
        }
        if canon.eventMode == CanonEOSCapture.eventModeOn {
            canon.queueSettings()
            queueCanonShutterSpeed()
        }
        return PTPResponderReply()
    }

    /// A release by the host (RemoteReleaseOn, or the older RemoteRelease), or with `byBody` by the body's own
    /// shutter button (``pressShutter(timeout:)``), which works in any remote mode.
    func canonRelease(
        transactionID: UInt32, operation: OperationCode = OperationCode.Canon.remoteReleaseOn, byBody: Bool = false
    ) -> PTPResponderReply {
        // A body not in remote mode ignores the host's shutter; a busy one (developing, buffer full) refuses.
        guard byBody || canon.remoteMode != 0, captureTask == nil, bulb == nil,
            canon.held.count < CanonEmulatorState.maxHeldObjects
        else {
            return PTPResponderReply(.deviceBusy)
        }
        if shutterIsBulb, bulbExposureTime == nil {
            // The shutter at bulb: open while the button is held, until RemoteReleaseOff.
            return openBulb(.canonEOS, by: operation, transactionID: transactionID)
        }
        let format = canon.imageFormat
        let quality: ImageQuality = format.includesRaw ? (format.includesJPEG ? .rawPlusJPEG : .raw) : .jpeg
        let toCard = canon.destination == CanonEOSCapture.destinationCard
        if toCard {
            guard let free = store.store(Self.cardStorageID)?.freeBytes, free >= estimatedShotByteCount(quality) else {
                return PTPResponderReply(.storeFull)
            }
        }
        guard let plan = vendorShotPlan(quality: quality) else { return PTPResponderReply(.generalError) }
        let time = clock.now()
        let tiffModel = CameraModel.canonTIFFModel
        captureTask = Task {
            let result = await VendorShot.develop(plan) { frame throws(EmulatorError) in
                try CR2Writer.encode(frame, model: tiffModel)
            }
            self.finishCanonCapture(result, time: time, toCard: toCard)
        }
        return PTPResponderReply()
    }

    private func finishCanonCapture(_ result: Result<VendorShot.Result, EmulatorError>, time: PTPDateTime, toCard: Bool) {
        defer { captureTask = nil }
        let shot: VendorShot.Result
        switch result {
        case .success(let developed): shot = developed
        case .failure(let error):
            captureErrors.append(error)
            return
        }
        let stem = nextVendorFileStem()
        var parent = ObjectHandle(rawValue: 0)
        if toCard {
            guard let folder = captureFolder() else { return }
            parent = folder
        }
        let storage = toCard ? Self.cardStorageID : StorageID(rawValue: 0)
        let thumb = shot.thumbnail
        let objects = Self.vendorShotObjects(
            shot, stem: stem, raw: (ObjectFormatCode.Canon.crw3, "CR2", sensorWidth, sensorHeight, 14),
            storage: storage, parent: parent, time: time)
        for (objectInfo, bytes) in objects {
            if toCard {
                guard let handle = store.add(objectInfo, data: bytes, thumbnail: thumb?.bytes) else { return }
                canon.queue(
                    .objectAdded(
                        CanonEOSObjectAdded(
                            code: EventCode.Canon.objectAddedEx, handle: handle, storageID: Self.cardStorageID,
                            format: objectInfo.objectFormat, byteCount: UInt32(clamping: bytes.count), parent: parent,
                            filename: objectInfo.filename)))
            } else {
                let handle = canon.nextHeldHandle
                canon.nextHeldHandle = handle >= 0x9FFF_FFFF ? CanonEmulatorState.firstHeldHandle : handle + 1
                canon.held[handle] = CanonEmulatorState.HeldObject(info: objectInfo, data: bytes, thumbnail: thumb?.bytes)
                canon.queue(
                    .requestObjectTransfer(
                        CanonEOSTransferRequest(
                            code: EventCode.Canon.requestObjectTransfer, handle: ObjectHandle(rawValue: handle),
                            format: objectInfo.objectFormat, byteCount: UInt32(clamping: bytes.count),
                            filename: objectInfo.filename)))
            }
        }
    }
}
